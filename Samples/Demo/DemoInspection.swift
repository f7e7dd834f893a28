import Foundation
import Switchyard
import SwitchyardInspector

/// `--inspect` (or `SWITCHYARD_DEMO_INSPECT=1`): the demo starts the live inspector, prints its URL,
/// and registers the inspector's recording stage first in every module, with the module's per-stage
/// trace on. `--inspect-wait SECONDS` (or `SWITCHYARD_DEMO_INSPECT_WAIT`) keeps the inspector open
/// that long after the tour, so a browser can look.
struct DemoInspection: Sendable {
    /// The running inspector, or `nil` when the demo runs without one.
    let inspector: Inspector?
    /// How long the inspector stays open after the tour.
    let wait: Duration

    /// Reads the flags and, when asked, starts the inspector for `registry` and prints its URL.
    static func start(registry: ServiceRegistry, arguments: [String], environment: [String: String]) async throws -> DemoInspection {
        let enabled =
            arguments.contains("--inspect") || arguments.contains("--inspect-wait") || environment["SWITCHYARD_DEMO_INSPECT"] == "1"
        var seconds = environment["SWITCHYARD_DEMO_INSPECT_WAIT"].flatMap(Int.init) ?? 0
        if let flag = arguments.firstIndex(of: "--inspect-wait"), flag + 1 < arguments.count, let given = Int(arguments[flag + 1]) {
            seconds = given
        }
        guard enabled else { return DemoInspection(inspector: nil, wait: .zero) }
        let inspector = try await Inspector.start(registry: registry)
        print("Inspector: \(inspector.url)")
        print("  (open it in a browser on this machine; it lists the calls below as they happen)\n")
        fflush(nil)
        return DemoInspection(inspector: inspector, wait: .seconds(max(0, seconds)))
    }

    /// A module's stages with the inspector's recording stage first, when the inspector runs.
    func stages(_ stages: [any Stage]) -> [any Stage] {
        guard let inspector else { return stages }
        return [inspector.recordingStage] + stages
    }

    /// A module as registered when the inspector runs: its recording stage outermost, its trace on.
    func adjust(_ service: Service) -> Service {
        var service = service
        service.stages = stages(service.stages)
        service.defaults = defaults(service.defaults)
        return service
    }

    /// A module's defaults with its per-stage trace on, when the inspector runs.
    func defaults(_ defaults: ServiceDefaults = ServiceDefaults()) -> ServiceDefaults {
        guard inspector != nil else { return defaults }
        var traced = defaults
        traced.trace = .diffs
        return traced
    }

    /// Keeps the inspector open for ``wait``, then stops it.
    func finish() async {
        guard let inspector else { return }
        if wait > .zero {
            print("The inspector stays open for \(wait) at \(inspector.url)")
            fflush(nil)
            try? await Task.sleep(for: wait)
        }
        await inspector.stop()
    }
}
