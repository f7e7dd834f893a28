import BenchSampleBackend
import Foundation
import HTTPTypes
import MallocInterposerSwift
import Switchyard
import Synchronization

/// The shop's server answered in-process (``InProcessBackend``), its own work — opening, checking,
/// sealing and signing — timed and its allocations counted, so that `fullmem` reports the client's
/// work alone. Turning the request into the server's terms and its answer into a ``Response`` counts
/// as the client's, as a real transport's framing would.
final class InProcessShopTransport: Switchyard.Transport {
    let backend = InProcessBackend()
    /// The server's time, summed over calls.
    let serverNanoseconds = Atomic<Int>(0)
    /// The server's allocations, summed over calls (while counting is on).
    let serverMallocs = Atomic<Int>(0)

    // It answers at once: there is nothing a cancellation could abort.
    var observesCallCancellation: Bool { true }

    func send(_ request: Switchyard.Request, context: CallContext) async throws -> Switchyard.Response {
        var fields: [(name: String, value: String)] = [("host", request.head.authority ?? "")]
        fields.reserveCapacity(request.headerFields.count + 1)
        for field in request.headerFields { fields.append((field.name.canonicalName, field.value)) }
        let body = request.body?.bytes.map { [UInt8]($0) } ?? []
        let mallocsBefore = MallocInterposerSwift.getStatistics().mallocCount
        let start = ContinuousClock.now
        let answer = backend.respond(method: request.method.rawValue, target: request.head.path ?? "/", headerFields: fields, body: body)
        let elapsed = ContinuousClock.now - start
        serverMallocs.add(MallocInterposerSwift.getStatistics().mallocCount - mallocsBefore, ordering: .relaxed)
        serverNanoseconds.add(Int(Statistics.seconds(elapsed) * 1e9), ordering: .relaxed)
        var headerFields = HTTPFields()
        for field in answer.headerFields {
            if let name = HTTPField.Name(field.name) { headerFields.append(HTTPField(name: name, value: field.value)) }
        }
        return Switchyard.Response(status: HTTPResponse.Status(code: answer.status), headerFields: headerFields, body: Data(answer.body))
    }
}
