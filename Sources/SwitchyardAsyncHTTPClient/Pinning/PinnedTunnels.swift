import Foundation
import NIOCore
import NIOPosix
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The pinned tunnels of one transport, one per upstream host and port, opened on first use in a
/// private directory (created 0700 by `mkdtemp`) and closed together.
final class PinnedTunnels: Sendable {
    private let pinning: AsyncHTTPClientTransport.Pinning
    private let state = Mutex<State>(State())

    private struct State {
        var directory: String?
        var opened = 0
        var tunnels: [String: Task<PinnedTunnel, any Error>] = [:]
        var closed = false
    }

    /// The event loop the relays run on: one thread of their own, started on first use, so that TLS
    /// work for pinned connections never waits behind the client's own connections (which share
    /// `MultiThreadedEventLoopGroup.singleton`) and the reverse.
    static let relayGroup: any EventLoopGroup = MultiThreadedEventLoopGroup(numberOfThreads: 1)

    init(pinning: AsyncHTTPClientTransport.Pinning) {
        self.pinning = pinning
    }

    /// The tunnel to `host`:`port`, opened now if it is the first call for them.
    func tunnel(host: String, port: Int) async throws -> PinnedTunnel {
        let pinning = self.pinning
        let task: Task<PinnedTunnel, any Error> = try state.withLock { state in
            guard !state.closed else { throw PinnedTunnelFailure.connect("the transport's pinned connections were closed") }
            let key = "\(host):\(port)"
            if let existing = state.tunnels[key] { return existing }
            let directory = try state.directory ?? Self.makePrivateDirectory()
            state.directory = directory
            state.opened += 1
            let path = "\(directory)/\(state.opened).sock"
            let task = Task { [weak self] in
                do {
                    return try await PinnedTunnel.open(
                        host: host,
                        port: port,
                        pinning: pinning,
                        socketPath: path,
                        group: Self.relayGroup
                    )
                } catch {
                    // A failed open is not remembered: the next call tries again.
                    self?.state.withLock { _ = $0.tunnels.removeValue(forKey: key) }
                    throw error
                }
            }
            state.tunnels[key] = task
            return task
        }
        return try await task.value
    }

    /// Closes every tunnel and removes their directory; later calls fail.
    func close() async {
        let (tasks, directory) = state.withLock { state in
            state.closed = true
            defer { state.tunnels = [:] }
            return (Array(state.tunnels.values), state.directory)
        }
        for task in tasks {
            if let tunnel = try? await task.value { await tunnel.close() }
        }
        if let directory { try? FileManager.default.removeItem(atPath: directory) }
    }

    /// Closes the listeners without waiting and removes the directory, for a transport dropped
    /// without ``close()``.
    deinit {
        let (tasks, directory) = state.withLock { ($0.tunnels.values, $0.directory) }
        for task in tasks { Task { await (try? task.value)?.close() } }
        if let directory { try? FileManager.default.removeItem(atPath: directory) }
    }

    /// A new directory only the current user can enter, short enough for socket paths (at most 104
    /// bytes on Apple platforms, 108 on Linux): the temporary directory, or `/tmp` when that is too long.
    private static func makePrivateDirectory() throws -> String {
        var base = FileManager.default.temporaryDirectory.path
        if base.utf8.count > 60 { base = "/tmp" }
        var template = Array("\(base)/switchyard-pins-XXXXXX".utf8CString)
        guard let created = mkdtemp(&template) else {
            throw PinnedTunnelFailure.connect("could not create a private directory for pinned connections (errno \(errno))")
        }
        return String(cString: created)
    }
}
