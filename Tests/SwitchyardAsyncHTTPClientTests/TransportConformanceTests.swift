import Foundation
import Switchyard
import SwitchyardAsyncHTTPClient
import SwitchyardSampleBackend
import SwitchyardTesting
import Testing

/// The AsyncHTTPClient transport against the conformance suite that ships in SwitchyardTesting, on
/// the sample backend (which serves the suite's routes besides its modules).
@Suite("Transport conformance")
struct TransportConformanceTests {
    /// The case AsyncHTTPClient fails for a reason of its own (below).
    static let lossOnBreak = "stream-break-delivers-what-arrived"

    @Test("AsyncHTTPClientTransport passes every case")
    func asyncHTTPClient() async throws {
        let backend = try await SampleBackend.start()
        let transport = AsyncHTTPClientTransport(configuration: .init(maximumResponseBodySize: 4 << 20))
        let outcomes = await TransportConformance(baseURL: backend.baseURL, responseLimit: 4 << 20).run(transport)
        #expect(outcomes.count == TransportConformance.caseNames.count)
        for outcome in outcomes where outcome.name != Self.lossOnBreak { #expect(outcome.passed, "\(outcome)") }
        // The case's consumer starts reading only after the break, with more bytes sent than its 64 KiB
        // buffer holds: the transport pauses its reading at the buffer's limit, and AsyncHTTPClient 1.37
        // reads what the socket still holds while tearing the broken connection down and drops it with
        // its error (the URLSession transport, which reads on, passes). `StreamBreakTests` shows every
        // byte arriving when the buffer has room.
        withKnownIssue("AsyncHTTPClient drops what it reads past a full read-ahead buffer at a break", isIntermittent: true) {
            for outcome in outcomes where outcome.name == Self.lossOnBreak { #expect(outcome.passed, "\(outcome)") }
        }
        // What the streaming cases measured (intake of a stalled consumer, time to close), for the record.
        for outcome in outcomes where outcome.name.hasPrefix("stream-") { print(outcome) }
        try await backend.shutdown()
    }
}
