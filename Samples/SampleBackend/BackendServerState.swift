import NIOCore
import Synchronization

/// State shared by the listening channel and every connection: the request counter and the set of
/// open connections, so shutdown can close them too.
final class BackendServerState: Sendable {
    private let requests = Atomic<Int>(0)
    /// The shop module's valid access token and how many times it was refreshed.
    let shopTokens = Mutex(ShopTokens())

    /// Hits per key for the control routes (`/flaky`, `/counter`, `/pages`).
    private let hits = Mutex<[String: Int]>([:])

    /// Counts a hit on `key` and returns the count so far.
    func hit(_ key: String) -> Int {
        self.hits.withLock { hits in
            hits[key, default: 0] += 1
            return hits[key]!
        }
    }

    /// The hits on `key` so far.
    func hitCount(_ key: String) -> Int {
        self.hits.withLock { $0[key] ?? 0 }
    }

    /// The shop module's token state.
    struct ShopTokens {
        /// The token the shop accepts now.
        var current = "shop-token-1"
        /// How many refreshes `POST /shop-api/token` has made.
        var refreshes = 0
        /// Refreshes left to refuse (for tests of a failing refresh).
        var refusals = 0
    }
    private let connections = Mutex(Connections())

    /// The open connections, keyed by identity, plus whether the server has shut down.
    private struct Connections {
        var open: [ObjectIdentifier: any Channel] = [:]
        var isClosed = false
    }

    /// Total requests received so far.
    var requestCount: Int { self.requests.load(ordering: .relaxed) }

    /// Records one more received request.
    func recordRequest() {
        self.requests.add(1, ordering: .relaxed)
    }

    /// Tracks `channel` until it closes; closes it at once when the server has already shut down.
    func register(_ channel: any Channel) {
        let id = ObjectIdentifier(channel)
        let accepted = self.connections.withLock { connections in
            guard !connections.isClosed else { return false }
            connections.open[id] = channel
            return true
        }
        guard accepted else {
            channel.close(promise: nil)
            return
        }
        channel.closeFuture.whenComplete { _ in
            _ = self.connections.withLock { $0.open.removeValue(forKey: id) }
        }
    }

    /// Stops accepting connections into the registry and closes every open one.
    func closeAllConnections() {
        let open = self.connections.withLock { connections in
            connections.isClosed = true
            defer { connections.open.removeAll() }
            return Array(connections.open.values)
        }
        for channel in open {
            channel.close(promise: nil)
        }
    }
}
