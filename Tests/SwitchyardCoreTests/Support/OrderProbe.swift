import Foundation
import HTTPTypes
import Synchronization

@testable import SwitchyardCore

/// What the stages and the transport of one run saw, in order.
final class EventLog: Sendable {
    private let events = Mutex<[String]>([])

    func record(_ event: String) { events.withLock { $0.append(event) } }

    /// The events so far, and a fresh log for the next run.
    func take() -> [String] {
        events.withLock { events in
            defer { events = [] }
            return events
        }
    }
}

/// A small deterministic generator (SplitMix64), so a failing mix can be named by its seed.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The trail header each request stage appends its name to, and the one response stages append to.
let trailField = HTTPField.Name("X-Trail")!
let backField = HTTPField.Name("X-Back")!

/// Appends `name` to a comma-separated header.
func append(_ name: String, to field: HTTPField.Name, in fields: inout HTTPFields) {
    fields[field] = fields[field].map { "\($0),\(name)" } ?? name
}

/// The error a probe stage throws when told to fail.
struct ProbeFailure: Error, CustomStringConvertible {
    let name: String
    var description: String { "\(name) failed" }
}

/// A request stage that waits (an asynchronous frame of its own).
struct ProbeRequest: RequestStage {
    let id: StageID
    let log: EventLog
    let fails: Bool

    func prepare(_ request: inout Request, context: CallContext) async throws {
        await Task.yield()
        log.record("prepare \(id)")
        if fails { throw ProbeFailure(name: id.rawValue) }
        append(id.rawValue, to: trailField, in: &request.headerFields)
    }
}

/// A request stage the chain calls as a plain function.
struct ProbeSyncRequest: SynchronousRequestStage {
    let id: StageID
    let log: EventLog
    let fails: Bool

    func prepareSynchronously(_ request: inout Request, context: CallContext) throws {
        log.record("prepare \(id)")
        if fails { throw ProbeFailure(name: id.rawValue) }
        append(id.rawValue, to: trailField, in: &request.headerFields)
    }
}

/// A response stage that waits.
struct ProbeResponse: ResponseStage {
    let id: StageID
    let log: EventLog
    let fails: Bool

    func process(_ response: inout Response, for request: Request, context: CallContext) async throws {
        await Task.yield()
        log.record("process \(id) \(response.status.code)")
        if fails { throw ProbeFailure(name: id.rawValue) }
        append(id.rawValue, to: backField, in: &response.headerFields)
    }
}

/// A response stage the chain calls as a plain function.
struct ProbeSyncResponse: SynchronousResponseStage {
    let id: StageID
    let log: EventLog
    let fails: Bool

    func processSynchronously(_ response: inout Response, for request: Request, context: CallContext) throws {
        log.record("process \(id) \(response.status.code)")
        if fails { throw ProbeFailure(name: id.rawValue) }
        append(id.rawValue, to: backField, in: &response.headerFields)
    }
}

/// A general stage: passes on, answers itself, sends twice (a retry), or fails after the rest ran.
struct ProbeIntercept: Stage {
    enum Behaviour: CaseIterable { case pass, answer, twice, failAfter }

    let id: StageID
    let log: EventLog
    let behaviour: Behaviour

    func intercept(_ request: Request, context: CallContext, next: NextStage) async throws -> Response {
        log.record("enter \(id)")
        var request = request
        append(id.rawValue, to: trailField, in: &request.headerFields)
        var response: Response
        switch behaviour {
        case .answer:
            response = Response(status: .accepted)
        case .pass:
            response = try await next(request, context)
        case .twice:
            _ = try? await next(request, context)
            response = try await next(request, context)
        case .failAfter:
            _ = try await next(request, context)
            log.record("leave \(id) failing")
            throw ProbeFailure(name: id.rawValue)
        }
        log.record("leave \(id) \(response.status.code)")
        append(id.rawValue, to: backField, in: &response.headerFields)
        return response
    }
}

/// A transport that records what reached it and answers with the trail; it can fail chosen sends
/// and redirect the first one.
final class ProbeTransport: Transport, Sendable {
    let log: EventLog
    private let failing: Set<Int>
    private let redirectsFirst: Bool
    private let sends = Mutex(0)

    init(log: EventLog, failing: Set<Int>, redirectsFirst: Bool) {
        self.log = log
        self.failing = failing
        self.redirectsFirst = redirectsFirst
    }

    /// Forgets the sends of the previous run.
    func reset() { sends.withLock { $0 = 0 } }

    func send(_ request: Request, context: CallContext) async throws -> Response {
        let number = sends.withLock { count in
            count += 1
            return count
        }
        let trail = request.headerFields[trailField] ?? ""
        log.record("transport \(number) [\(trail)]")
        if failing.contains(number) { throw ProbeFailure(name: "transport send \(number)") }
        if redirectsFirst, number == 1 { return Response(status: .temporaryRedirect) }
        var fields = HTTPFields()
        fields[trailField] = trail
        return Response(status: .ok, headerFields: fields)
    }
}

/// Follows a `307` once by sending again, as a service's redirect following does.
struct ProbeFollower: ExchangeFollower {
    let log: EventLog

    func follows(_ response: Response) -> Bool { response.status == .temporaryRedirect }

    func follow(_ response: Response, for request: Request, context: CallContext, send: NextStage) async throws -> Response {
        log.record("follow")
        return try await send(request, context)
    }
}

/// How one run ended, in the terms the comparison needs.
enum ProbeOutcome: Equatable, CustomStringConvertible {
    case answered(status: Int, trail: String?, back: String?, sends: Int)
    case failed(code: String, stage: String?, message: String, carriesResponse: Bool, sends: Int)

    var description: String {
        switch self {
        case .answered(let status, let trail, let back, let sends):
            "answered \(status) trail=\(trail ?? "-") back=\(back ?? "-") sends=\(sends)"
        case .failed(let code, let stage, let message, let carries, let sends):
            "failed \(code) at \(stage ?? "-"): \(message) response=\(carries) sends=\(sends)"
        }
    }
}
