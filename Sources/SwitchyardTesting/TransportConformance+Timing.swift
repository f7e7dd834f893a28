import Foundation
import HTTPTypes
import Switchyard

/// The timing cases: timeouts to the millisecond, and a download's deadline across its resumes. They
/// assert what a loaded machine cannot break — a timeout is never reported before its limit, nor
/// seconds after it — rather than tight bounds.
extension TransportConformance {
    /// A call to `/delay/5000` under `timeout`: it must fail with `.timeout` no earlier than the
    /// limit and within `slack` after it.
    private func expectTimeout(_ transport: any Transport, after timeout: Duration, slack: Duration = .seconds(3)) async throws {
        let started = ContinuousClock.now
        try await expectError(.timeout) {
            _ = try await transport.send(try request(.get, "/delay/5000"), context: context(timeout: timeout))
        }
        let elapsed = ContinuousClock.now - started
        // A millisecond of grace for clocks that round differently.
        try expect(elapsed >= timeout - .milliseconds(1), "a \(timeout) timeout was reported after \(elapsed)")
        try expect(elapsed <= timeout + slack, "a \(timeout) timeout was reported only after \(elapsed)")
    }

    /// `sub-second-timeout-is-accurate`: 0.3 s is neither reported at once nor seconds late.
    func subSecondTimeout(_ transport: any Transport) async throws {
        try await expectTimeout(transport, after: .milliseconds(300))
    }

    /// `timeout-is-not-rounded`: 1.3 s is not cut to 1 s (nor stretched to 2 s).
    func unroundedTimeout(_ transport: any Transport) async throws {
        try await expectTimeout(transport, after: .milliseconds(1300))
    }

    /// `download-deadline-ends-with-timeout`: a slow download through a client whose deadline passes
    /// mid-way ends with `.timeout` soon after the deadline (no resume restarts it) and publishes nothing.
    func downloadDeadline(_ transport: any Transport) async throws {
        let service: ServiceID = "conformance"
        let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, defaultEnvironment: .develop, store: nil))
        try registry.register(Service(service, baseURL: root, transport: transport))
        let client = APIClient(registry: registry)
        let deadline = Duration.seconds(1)
        try await withTemporaryFile { destination in
            defer {
                try? FileManager.default.removeItem(atPath: destination.path + ".partial")
                try? FileManager.default.removeItem(atPath: destination.path + ".partial.resume")
            }
            let started = ContinuousClock.now
            try await expectError(.timeout) {
                // 8 MiB in 32 chunks 120 ms apart: about 4 s, with 3 resumes allowed.
                let blob = DynamicEndpoint<Response>(
                    service: service,
                    method: .get,
                    path: "/files/blob/8388608",
                    headerFields: [HTTPField.Name("X-Blob-Pace")!: "120"]
                )
                _ = try await client.send(
                    blob.downloading(to: destination),
                    options: CallOptions(timeout: .seconds(30), deadline: deadline)
                )
            }
            let elapsed = ContinuousClock.now - started
            try expect(elapsed <= deadline + .seconds(3), "a \(deadline) deadline ended the download only after \(elapsed)")
            try expect(!FileManager.default.fileExists(atPath: destination.path), "an unfinished download was published")
        }
    }
}
