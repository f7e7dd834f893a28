#if canImport(Network)
import Dispatch
import Network

/// Network's path monitor feeding a ``Connectivity``: a satisfied path reports
/// ``Connectivity/State/reachable``, any other ``Connectivity/State/unreachable``. Started when the
/// signal is first looked at, cancelled when the signal goes away.
///
/// Apple platforms only; it is built and run only there (the package's Linux CI neither compiles
/// nor tests it).
final class PathMonitorSignal: @unchecked Sendable {
    // Unchecked: `monitor` is set once, here, and NWPathMonitor may be used from any thread.
    private let monitor = NWPathMonitor()

    init(feeding connectivity: Connectivity) {
        monitor.pathUpdateHandler = { [weak connectivity] path in
            connectivity?.report(path.status == .satisfied ? .reachable : .unreachable)
        }
        monitor.start(queue: DispatchQueue(label: "Switchyard.Connectivity"))
    }

    deinit {
        monitor.cancel()
    }
}
#endif
