import NIOCore
import Synchronization

/// What the loopback server's listening channel and every connection share: the request counter and
/// the set of open connections, so that shutdown closes them too.
final class LoopbackConnections: Sendable {
    private let requests = Atomic<Int>(0)
    private let connections = Mutex(Connections())

    /// The open connections, keyed by identity, plus whether the server has shut down.
    private struct Connections {
        var open: [ObjectIdentifier: any Channel] = [:]
        var isClosed = false
    }

    /// What the server saw of each watched stream (``BlobStream/watch``), by tag.
    private let watches = Mutex<[String: StreamWatch]>([:])

    /// What the server saw of a watched stream: how far it got and how it ended.
    struct StreamWatch {
        /// `open` while being written, `finished` once every byte was written, `closed` when the
        /// connection closed before that.
        var state: String
        /// The bytes of the body handed to the connection so far.
        var sent: Int64
    }

    /// Records what the server saw of the stream watched under `tag`.
    func watch(_ tag: String, state: String, sent: Int64) {
        self.watches.withLock { $0[tag] = StreamWatch(state: state, sent: sent) }
    }

    /// What the server saw of the stream watched under `tag`, or `nil` when it saw none.
    func watched(_ tag: String) -> StreamWatch? {
        self.watches.withLock { $0[tag] }
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
