import Foundation
import HTTPTypes
import Switchyard
import Synchronization
import Testing

/// One connection a scripted event server gives: a status, the event-stream text it sends, and how
/// the connection ends after it.
private struct Connection: Sendable {
    enum End: Sendable {
        /// The server closes the response as it should.
        case clean
        /// The connection breaks: the body ends with a transport error.
        case drop
        /// The connection stays open until `gate` opens (a test holds it to cancel it).
        case hold(Gate)
    }

    var status: HTTPResponse.Status = .ok
    var text = ""
    var end = End.clean
}

/// What the scripted server saw: each request's `Last-Event-ID` and `Authorization`.
private final class ServerLog: Sendable {
    let requests = Mutex<[HTTPFields]>([])

    var count: Int { requests.withLock { $0.count } }
    var lastEventIDs: [String?] { requests.withLock { $0.map { $0[HTTPField.Name("Last-Event-ID")!] } } }
    var authorizations: [String?] { requests.withLock { $0.map { $0[.authorization] } } }
}

/// Answers the n-th streamed call with the n-th connection of `script`; past its end, with `204`.
private struct ScriptedEventTransport: Transport {
    let script: [Connection]
    let log: ServerLog

    func send(_ request: Request, context: CallContext) async throws -> Response {
        let index = log.requests.withLock { requests in
            requests.append(request.headerFields)
            return requests.count - 1
        }
        let connection = index < script.count ? script[index] : Connection(status: .noContent)
        let head = HTTPResponse(status: connection.status, headerFields: [.contentType: "text/event-stream"])
        let bytes = Data(connection.text.utf8)
        // The drop follows the text at once, while it is still buffered: a failed connection's
        // buffered events are delivered before its error.
        let stream = ResponseStream(control: context.control, bufferLimit: context.streamBufferLimit ?? 1 << 16) { writer in
            if !bytes.isEmpty { try await writer.write(bytes) }
            switch connection.end {
            case .clean: break
            case .drop: throw SwitchyardError(code: .transport, message: "the connection was reset")
            case .hold(let gate): try await gate.pass()
            }
        }
        return Response(head: head, body: .stream(stream))
    }
}

/// Records the waits before reconnections, without waiting.
private final class Sleeps: Sendable {
    let delays = Mutex<[Duration]>([])

    var recorded: [Duration] { delays.withLock { $0 } }

    @Sendable func sleep(_ delay: Duration) async throws {
        delays.withLock { $0.append(delay) }
    }
}

/// Issues a new token for every request, as a refreshing credential stage would.
private final class TokenIssuer: Sendable {
    let issued = Atomic<Int>(0)
}

private let feed = DynamicEndpoint<ResponseStream>(service: .users, method: .get, path: "/feed", options: CallOptions(tags: ["live"]))

/// A policy that waits exactly its backoff (no jitter), for `maxAttempts` connections in a row.
private func policy(_ maxAttempts: Int = 5) -> RetryPolicy {
    RetryPolicy(maxAttempts: maxAttempts, baseDelay: .milliseconds(100), maxDelay: .seconds(5), jitter: 0)
}

/// Reads the events to their end: their data, then the code of the error that ended them, if any.
private func read(_ events: some AsyncSequence<ServerSentEvent, SwitchyardError>) async -> ([String], SwitchyardError.Code?) {
    var data: [String] = []
    do {
        for try await event in events { data.append(event.data) }
        return (data, nil)
    } catch {
        return (data, error.code)
    }
}

@Suite("Event streams reconnect through the pipeline with Last-Event-ID")
struct EventReconnectTests {
    @Test("a dropped connection reconnects after the stream's retry, sending Last-Event-ID, and the ids carry over")
    func reconnectsWithLastEventID() async throws {
        let log = ServerLog()
        let sleeps = Sleeps()
        let script = [
            Connection(text: "retry: 1500\nid: 1\ndata: a\n\nid: 2\ndata: b\n\n", end: .drop),
            Connection(text: "data: c\n\nid: 3\ndata: d\n\n"),
        ]
        let client = try makeClient(transport: ScriptedEventTransport(script: script, log: log))
        let events = try await client.events(feed, reconnect: policy(), sleep: sleeps.sleep)
        var seen: [ServerSentEvent] = []
        for try await event in events.value { seen.append(event) }
        #expect(seen.map(\.data) == ["a", "b", "c", "d"])
        // The second connection's first event set no id: it carries the last one over.
        #expect(seen.map(\.id) == ["1", "2", "2", "3"])
        #expect(log.lastEventIDs == [nil, "2", "3"])
        #expect(sleeps.recorded == [.milliseconds(1500), .milliseconds(1500)])
    }

    @Test("a server's retry below the policy's base delay waits the base delay: retry 0 is no tight loop")
    func retryIsFlooredAtTheBaseDelay() async throws {
        let log = ServerLog()
        let sleeps = Sleeps()
        // Each connection sends an event (which resets the count of reconnections in a row) and closes.
        let script = (1...4).map { Connection(text: "retry: 0\nid: \($0)\ndata: e\($0)\n\n") }
        let client = try makeClient(transport: ScriptedEventTransport(script: script, log: log))
        let (data, _) = await read(try await client.events(feed, reconnect: policy(), sleep: sleeps.sleep).value)
        #expect(data == ["e1", "e2", "e3", "e4"])
        #expect(sleeps.recorded.count >= 3)
        #expect(sleeps.recorded.allSatisfy { $0 == .milliseconds(100) })
    }

    @Test("a reconnection's repeated id keeps the carried-over last event ID; an empty id resets it")
    func carriedIDRepeatedAndReset() async throws {
        let log = ServerLog()
        let sleeps = Sleeps()
        let script = [
            Connection(text: "id: 1\ndata: a\n\n", end: .drop),
            Connection(text: "id: 1\ndata: b\n\nid:\ndata: c\n\nid: 1\ndata: d\n\n"),
        ]
        let client = try makeClient(transport: ScriptedEventTransport(script: script, log: log))
        let events = try await client.events(feed, reconnect: policy(), sleep: sleeps.sleep)
        var seen: [ServerSentEvent] = []
        for try await event in events.value { seen.append(event) }
        #expect(seen.map(\.data) == ["a", "b", "c", "d"])
        #expect(seen.map(\.id) == ["1", "1", nil, "1"])
        #expect(log.lastEventIDs == [nil, "1", "1"])
    }

    @Test("without the server's retry, the policy's backoff is waited, growing while reconnections fail")
    func backoffWithoutRetry() async throws {
        let log = ServerLog()
        let sleeps = Sleeps()
        let script = [Connection(text: "data: a\n\n", end: .drop), Connection(end: .drop), Connection(end: .drop)]
        let client = try makeClient(transport: ScriptedEventTransport(script: script, log: log))
        let (data, error) = await read(try await client.events(feed, reconnect: policy(), sleep: sleeps.sleep).value)
        #expect(data == ["a"])
        #expect(error == nil)
        #expect(sleeps.recorded == [.milliseconds(100), .milliseconds(200), .milliseconds(400)])
    }

    @Test("reconnections in a row are bounded: the last failure ends the events with its error")
    func boundedReconnects() async throws {
        let log = ServerLog()
        let sleeps = Sleeps()
        let script = Array(repeating: Connection(end: .drop), count: 10)
        let client = try makeClient(transport: ScriptedEventTransport(script: script, log: log))
        let (data, error) = await read(try await client.events(feed, reconnect: policy(3), sleep: sleeps.sleep).value)
        #expect(data.isEmpty)
        #expect(error == .transport)
        #expect(log.count == 3)
        #expect(sleeps.recorded.count == 2)
    }

    @Test("an event resets the count of reconnections in a row")
    func eventResetsBound() async throws {
        let log = ServerLog()
        let script = (1...6).map { Connection(text: "id: \($0)\ndata: \($0)\n\n", end: .drop) }
        let client = try makeClient(transport: ScriptedEventTransport(script: script, log: log))
        let (data, error) = await read(try await client.events(feed, reconnect: policy(2), sleep: Sleeps().sleep).value)
        #expect(data == ["1", "2", "3", "4", "5", "6"])
        #expect(error == nil)
    }

    @Test("a 204 on reconnection ends the events cleanly")
    func noContentEnds() async throws {
        let log = ServerLog()
        let script = [Connection(text: "id: 1\ndata: a\n\n", end: .drop), Connection(status: .noContent)]
        let client = try makeClient(transport: ScriptedEventTransport(script: script, log: log))
        let (data, error) = await read(try await client.events(feed, reconnect: policy(), sleep: Sleeps().sleep).value)
        #expect(data == ["a"])
        #expect(error == nil)
        #expect(log.count == 2)
    }

    @Test("a refused status on reconnection ends the events with its typed error")
    func refusedStatusEnds() async throws {
        let log = ServerLog()
        let script = [Connection(text: "data: a\n\n", end: .drop), Connection(status: .unauthorized), Connection()]
        let client = try makeClient(transport: ScriptedEventTransport(script: script, log: log))
        let (data, error) = await read(try await client.events(feed, reconnect: policy(), sleep: Sleeps().sleep).value)
        #expect(data == ["a"])
        #expect(error == .httpStatus)
        #expect(log.count == 2)
    }

    @Test("without a policy a dropped connection ends the events with its error, and nothing reconnects")
    func noPolicyNoReconnect() async throws {
        let log = ServerLog()
        let script = [Connection(text: "data: a\n\n", end: .drop), Connection(text: "data: b\n\n")]
        let client = try makeClient(transport: ScriptedEventTransport(script: script, log: log))
        let (data, error) = await read(try await client.events(feed).value)
        #expect(data == ["a"])
        #expect(error == .transport)
        #expect(log.count == 1)
    }

    @Test("each reconnection runs the request stages again: a refreshed token is sent")
    func refreshedHeaderOnReconnect() async throws {
        let log = ServerLog()
        let issuer = TokenIssuer()
        let auth = ClosureStage.request(id: "Token") { (request: inout Request, _: CallContext) in
            let token = issuer.issued.add(1, ordering: .relaxed).newValue
            request.headerFields[.authorization] = "Bearer token-\(token)"
        }
        let script = [Connection(text: "id: 1\ndata: a\n\n", end: .drop), Connection(text: "id: 2\ndata: b\n\n")]
        let client = try makeClient(stages: [auth], transport: ScriptedEventTransport(script: script, log: log))
        let (data, _) = await read(try await client.events(feed, reconnect: policy(), sleep: Sleeps().sleep).value)
        #expect(data == ["a", "b"])
        #expect(log.authorizations == ["Bearer token-1", "Bearer token-2", "Bearer token-3"])
    }

    @Test("cancelling by the event stream's id during a connection ends the events with .cancelled; nothing reconnects")
    func cancelByStreamID() async throws {
        let log = ServerLog()
        let gate = Gate()
        let script = [Connection(text: "id: 1\ndata: a\n\n", end: .hold(gate))]
        let client = try makeClient(transport: ScriptedEventTransport(script: script, log: log))
        let events = try await client.events(feed, reconnect: policy(), sleep: Sleeps().sleep)
        var iterator = events.value.makeAsyncIterator()
        #expect(try await iterator.next()?.data == "a")
        await gate.arrivals(1)
        #expect(client.cancel(.id(events.requestID)) == [events.requestID])
        let error = await #expect(throws: SwitchyardError.self) { _ = try await iterator.next() }
        #expect(error?.code == .cancelled)
        #expect(log.count == 1)
        #expect(client.callsInFlight.isEmpty)
    }

    @Test("cancelling by tag while a reconnection waits ends the events with .cancelled before it connects")
    func cancelByTagWhileWaiting() async throws {
        let log = ServerLog()
        let waiting = Gate()
        let script = [Connection(text: "data: a\n\n", end: .drop), Connection(text: "data: b\n\n")]
        let client = try makeClient(transport: ScriptedEventTransport(script: script, log: log))
        let events = try await client.events(feed, reconnect: policy(), sleep: { _ in try await waiting.pass() })
        let reader = Task { await read(events.value) }
        await waiting.arrivals(1)
        #expect(client.cancel(.tag("live")) == [events.requestID])
        let (data, error) = await reader.value
        #expect(data == ["a"])
        #expect(error == .cancelled)
        #expect(log.count == 1)
    }

    @Test("cancelling the reading task while a reconnection waits ends the events; nothing reconnects")
    func cancelReaderWhileWaiting() async throws {
        let log = ServerLog()
        let waiting = Gate()
        let script = [Connection(text: "data: a\n\n", end: .drop), Connection(text: "data: b\n\n")]
        let client = try makeClient(transport: ScriptedEventTransport(script: script, log: log))
        let events = try await client.events(feed, reconnect: policy(), sleep: { _ in try await waiting.pass() })
        let reader = Task { await read(events.value) }
        await waiting.arrivals(1)
        reader.cancel()
        let (data, error) = await reader.value
        #expect(data == ["a"])
        #expect(error == .cancelled)
        #expect(log.count == 1)
    }

    @Test("the first connection's refused status is thrown by events(_:) itself")
    func firstRefusal() async throws {
        let script = [Connection(status: .forbidden)]
        let client = try makeClient(transport: ScriptedEventTransport(script: script, log: ServerLog()))
        let error = await #expect(throws: SwitchyardError.self) { _ = try await client.events(feed, reconnect: policy()) }
        #expect(error?.code == .httpStatus)
    }
}
