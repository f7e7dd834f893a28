import Foundation
import HTTPTypes
import Switchyard
import Synchronization

/// The streaming cases: a streamed call (``Switchyard/CallContext/streamBufferLimit`` set) answered at
/// its head with a ``Switchyard/ResponseStream``. They watch the server's side of each transfer through
/// the loopback server's `/files/blob/{bytes}?watch=TAG` and `/watch/TAG` routes (how far it got,
/// whether its connection closed before the end), and bound what they cannot time exactly generously,
/// so that a loaded machine does not fail them. A passing case's outcome states what it measured.
extension TransportConformance {
    /// The streaming cases' names, in the order they run (the last ones of ``caseNames``).
    static let streamingCaseNames = caseNames.filter { $0.hasPrefix("stream-") }

    /// The longest the suite waits for the server to see a cancelled stream's connection close.
    static let closeBound = Duration.seconds(5)

    /// Runs a streaming case; returns what it measured.
    func checkStreaming(_ name: String, _ transport: any Transport) async throws -> String {
        switch name {
        case "stream-chunks-arrive-before-the-end": return try await chunksBeforeTheEnd(transport)
        case "stream-whole-body-matches": return try await wholeStreamedBody(transport)
        case "stream-backpressure-bounds-buffered-bytes": return try await backpressure(transport)
        case "stream-break-delivers-what-arrived": return try await brokenStreamDeliversWhatArrived(transport)
        case "stream-cancel-closes-connection": return try await cancelClosesConnection(transport)
        case "stream-early-exit-closes-connection": return try await earlyExitClosesConnection(transport)
        default: throw Failed(description: "unknown case")
        }
    }

    /// The most bytes a transport reported taking in.
    private final class Intake: Sendable {
        let most = Mutex<Int64>(0)
    }

    /// A streamed call's context: `bufferLimit` bytes read ahead at most.
    private func streaming(_ bufferLimit: Int, observer: TransferObserver? = nil) -> CallContext {
        var streamed = self.context(timeout: .seconds(30))
        streamed.streamBufferLimit = bufferLimit
        streamed.transferObserver = observer
        return streamed
    }

    /// Sends a streamed `GET target` and returns its body, which must be a stream.
    private func openStream(_ transport: any Transport, _ target: String, context: CallContext) async throws -> ResponseStream {
        let response = try await transport.send(try request(.get, target), context: context)
        try expect(response.status == .ok, "a streamed call answered \(response.status.code)")
        guard let stream = response.body.stream else {
            throw Failed(description: "a streamed call's body was collected whole instead of streamed")
        }
        return stream
    }

    /// What the server saw of the stream watched under `tag`.
    private func watched(_ transport: any Transport, _ tag: String) async throws -> (state: String, sent: Int64) {
        struct Watch: Decodable {
            let state: String
            let sent: Int64
        }
        let response = try await transport.send(try request(.get, "/watch/\(tag)"), context: context())
        guard let watch = try? JSONDecoder().decode(Watch.self, from: response.bytes) else {
            throw Failed(
                description: "the server cannot report what it saw of a stream (GET /watch/\(tag) answered \(response.status.code))"
            )
        }
        return (watch.state, watch.sent)
    }

    /// How long after now the server saw the stream watched under `tag` lose its connection; fails
    /// when it finished instead, or did not close within ``closeBound``.
    private func closed(_ transport: any Transport, _ tag: String) async throws -> Duration {
        let started = ContinuousClock.now
        while true {
            let seen = try await watched(transport, tag)
            if seen.state == "closed" { return ContinuousClock.now - started }
            try expect(seen.state != "finished", "the server wrote the whole body: the stream's connection was not closed")
            try expect(ContinuousClock.now - started < Self.closeBound, "the server still saw the connection open after \(Self.closeBound)")
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// `stream-chunks-arrive-before-the-end`: the first chunk of a slow body (four 256 KiB chunks
    /// 400 ms apart) reaches the consumer while the server is still sending it.
    private func chunksBeforeTheEnd(_ transport: any Transport) async throws -> String {
        let tag = UUID().uuidString
        let size = 1 << 20
        let stream = try await openStream(transport, "/files/blob/\(size)?pace=400&watch=\(tag)", context: streaming(64 << 10))
        var iterator = stream.makeAsyncIterator()
        guard let first = try await iterator.next() else { throw Failed(description: "the stream ended without a chunk") }
        let seen = try await watched(transport, tag)
        try expect(
            seen.state == "open",
            "the first chunk arrived only once the server had \(seen.state) the body (\(seen.sent) bytes sent)"
        )
        var total = first.count
        while let chunk = try await iterator.next() { total += chunk.count }
        try expect(total == size, "the stream carried \(total) of \(size) bytes")
        return "the first \(first.count) bytes arrived while the server had sent \(seen.sent) of \(size)"
    }

    /// `stream-whole-body-matches`: a 6 MiB body streamed whole equals the bytes the server served.
    /// It comes in 256 KiB chunks 5 ms apart, so that a transport that cannot pause its reading (and
    /// ends a stream whose unread bytes pass its limit) is not failed by a reader the scheduler held
    /// up for a few milliseconds.
    private func wholeStreamedBody(_ transport: any Transport) async throws -> String {
        let size = 6 << 20
        var body = Data(capacity: size)
        var chunks = 0
        for try await chunk in try await openStream(
            transport,
            "/files/blob/\(size)?pace=5",
            context: streaming(ResponseStream.defaultBufferLimit)
        ) {
            body.append(chunk)
            chunks += 1
        }
        try expect(body.count == size, "the stream carried \(body.count) of \(size) bytes")
        try expect(body == BlobContent.bytes(0..<Int64(size)), "the streamed bytes differ from the served ones")
        return "\(size) bytes in \(chunks) chunks"
    }

    /// `stream-backpressure-bounds-buffered-bytes`: a consumer that stops reading for a second keeps
    /// what the transport takes in (its progress reports) within the buffer — or, for a transport that
    /// cannot pause reading, within its response limit, after which the stream ends with
    /// `.limitExceeded`. A transport that reads the whole body after the stall must also have kept the
    /// server from writing the whole 32 MiB meanwhile; one that cannot pause (FoundationNetworking
    /// reads on into its delegate queue) is held to its limit only.
    private func backpressure(_ transport: any Transport) async throws -> String {
        let tag = UUID().uuidString
        let size = 32 << 20
        let bufferLimit = 256 << 10
        let intake = Intake()
        let observer = TransferObserver(started: {}, received: { progress in intake.most.withLock { $0 = max($0, progress.completed) } })
        let stream = try await openStream(
            transport,
            "/files/blob/\(size)?watch=\(tag)",
            context: streaming(bufferLimit, observer: observer)
        )
        var iterator = stream.makeAsyncIterator()
        guard let first = try await iterator.next() else { throw Failed(description: "the stream ended without a chunk") }
        // The consumer stalls: whatever arrives now is what the transport lets in unread.
        try await Task.sleep(for: .seconds(1))
        let taken = intake.most.withLock { $0 }
        let seen = try await watched(transport, tag)
        let bound = Int64(max(bufferLimit, responseLimit) + (1 << 20))
        try expect(taken <= bound, "a consumer that did not read let the transport take in \(taken) bytes (bound \(bound))")
        var total = first.count
        var ending = "then read the whole body"
        do throws(SwitchyardError) {
            while let chunk = try await iterator.next() { total += chunk.count }
        } catch {
            try expect(error.code == .limitExceeded, "the stream ended with \(error.code): \(error.message)")
            ending = "then ended with limitExceeded after \(total) bytes"
        }
        if ending.hasPrefix("then read") {
            // A transport that pauses its reading kept the server from writing the whole body.
            try expect(seen.state != "finished", "the server wrote the whole \(size)-byte body while the consumer did not read")
            try expect(total == size, "the stream carried \(total) of \(size) bytes")
        }
        return
            "unread for 1 s: the transport took in \(taken) bytes (buffer \(bufferLimit)), the server had written \(seen.sent) (\(seen.state)); \(ending)"
    }

    /// `stream-break-delivers-what-arrived`: a connection the server breaks off mid-body ends the
    /// stream with a typed error only after every byte sent before the break was read — also by a
    /// consumer that starts reading only after the break, with more bytes arrived than its buffer
    /// holds.
    private func brokenStreamDeliversWhatArrived(_ transport: any Transport) async throws -> String {
        let size = 1 << 20
        let dropAt = 300_000
        let intake = Intake()
        let observer = TransferObserver(started: {}, received: { progress in intake.most.withLock { $0 = max($0, progress.completed) } })
        let stream = try await openStream(
            transport,
            "/files/blob/\(size)?dropAt=\(dropAt)",
            context: streaming(64 << 10, observer: observer)
        )
        // The consumer reads only once the transport has taken in what it will before the break (all
        // of it, or as much as its buffer lets it read ahead), so the break reaches the transport while
        // those bytes wait unread.
        var taken: Int64 = -1
        var still = 0
        while still < 20 {
            let now = intake.most.withLock { $0 }
            if now >= Int64(dropAt) { break }
            still = now == taken ? still + 1 : 0
            taken = now
            try await Task.sleep(for: .milliseconds(10))
        }
        try await Task.sleep(for: .milliseconds(100))
        var body = Data(capacity: dropAt)
        var ending: SwitchyardError?
        do throws(SwitchyardError) {
            for try await chunk in stream { body.append(chunk) }
        } catch {
            ending = error
        }
        guard let ending else {
            throw Failed(description: "a stream whose connection broke after \(body.count) bytes ended as if it were whole")
        }
        try expect(ending.code != .cancelled, "a broken stream ended as cancelled: \(ending.message)")
        try expect(body.count == dropAt, "the stream delivered \(body.count) of the \(dropAt) bytes sent before the break")
        try expect(body == BlobContent.bytes(0..<Int64(dropAt)), "the bytes delivered before the break differ from the served ones")
        return "all \(dropAt) bytes sent before the break arrived, then \(ending.code)"
    }

    /// `stream-cancel-closes-connection`: cancelling the call mid-stream ends the stream with
    /// `.cancelled`, and the server sees the connection close.
    private func cancelClosesConnection(_ transport: any Transport) async throws -> String {
        let tag = UUID().uuidString
        let call = streaming(256 << 10)
        let stream = try await openStream(transport, "/files/blob/\(32 << 20)?pace=50&watch=\(tag)", context: call)
        var iterator = stream.makeAsyncIterator()
        guard try await iterator.next() != nil else { throw Failed(description: "the stream ended without a chunk") }
        let cancelled = ContinuousClock.now
        call.control.mark(.cancelled("the conformance suite cancelled the call"))?.run()
        var ending: SwitchyardError?
        do throws(SwitchyardError) {
            while try await iterator.next() != nil {}
        } catch {
            ending = error
        }
        let ended = ContinuousClock.now - cancelled
        try expect(ending?.code == .cancelled, "the cancelled stream ended with \(ending.map { "\($0.code)" } ?? "its last chunk")")
        let closedAfter = try await closed(transport, tag)
        return "the stream ended \(ended) after the cancel; the server saw the connection close \(closedAfter) later"
    }

    /// `stream-early-exit-closes-connection`: leaving a `for try await` loop after the first chunk
    /// closes the connection.
    private func earlyExitClosesConnection(_ transport: any Transport) async throws -> String {
        let tag = UUID().uuidString
        let stream = try await openStream(transport, "/files/blob/\(32 << 20)?pace=50&watch=\(tag)", context: streaming(256 << 10))
        var read = 0
        for try await chunk in stream {
            read = chunk.count
            break
        }
        let left = ContinuousClock.now
        let closedAfter = try await closed(transport, tag)
        return
            "left the loop after \(read) bytes; the server saw the connection close \(ContinuousClock.now - left) later (\(closedAfter) polling)"
    }
}
