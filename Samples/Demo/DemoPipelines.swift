import Logging
import Switchyard
import SwitchyardTelemetry

/// The demo's own stages, added to the pipelines of `SampleModules` (which the replay tests share):
/// the transcript innermost in the users and vault modules, so it prints the request exactly as sent
/// and the raw response; telemetry and a progress accessory outermost in the shop, and its logging
/// just outside null stripping — every built-in stage in the documented order.
enum DemoPipelines {
    static func adjust(_ service: Service) -> Service {
        var service = service
        switch service.id {
        case .users, .vault:
            service.stages.append(TranscriptStage())
        case .shop:
            var logger = Logger(label: "shop", factory: { StreamLogHandler.standardOutput(label: $0) })
            logger.logLevel = .info
            let nullStripping = service.stages.firstIndex { $0.id == .nullStripping } ?? service.stages.endIndex
            service.stages.insert(LoggingStage(logger: logger), at: nullStripping)
            service.stages.insert(
                contentsOf: [MetricsStage(), TracingStage(), AccessoryStage([TerminalProgressAccessory()])] as [any Stage],
                at: 0
            )
        default:
            break
        }
        return service
    }
}
