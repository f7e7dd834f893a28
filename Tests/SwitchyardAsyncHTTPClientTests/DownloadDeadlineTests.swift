import AsyncHTTPClient
import Foundation
import HTTPTypes
import NIOPosix
import Switchyard
import SwitchyardAsyncHTTPClient
import SwitchyardSampleBackend
import SwitchyardTestSupport
import SwitchyardTesting
import Synchronization
import Testing

/// `APIClient.download` under the call's deadline, against the sample backend's slow
/// (`X-Blob-Pace`) and breaking (`dropAt`) blobs. The server and the client run on event loops of
/// their own, so that other suites' servers cannot stall them, and the deadlines and bounds are
/// loose: a busy CI machine running every other suite at once has stalled the first attempt for
/// more than 4 s, but a deadline that restarts the transfer overruns them by many seconds (the
/// transfers take 32 s).
@Suite("Downloads under a deadline", .timeLimit(.minutes(2)))
struct DownloadDeadlineTests {
    /// A second after each 256 KiB chunk: 8 MiB take about 32 s.
    static let slow: HTTPFields = [HTTPField.Name("X-Blob-Pace")!: "1000"]

    /// Runs `body` with a sample backend and a client (service `utility`) on event loops of their own.
    static func withIsolatedBackend(_ body: (APIClient) async throws -> Void) async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let backend = try await SampleBackend.start(group: group)
        let http = HTTPClient(
            eventLoopGroup: group,
            configuration: AsyncHTTPClientTransport.switchyardConfiguration(HTTPClient.Configuration())
        )
        let outcome: Result<Void, any Error>
        do {
            let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, defaultEnvironment: .develop, store: nil))
            try registry.register(Service(.utility, baseURL: backend.baseURL, transport: AsyncHTTPClientTransport(client: http)))
            try await body(APIClient(registry: registry))
            outcome = .success(())
        } catch {
            outcome = .failure(error)
        }
        try? await http.shutdown()
        try? await backend.shutdown()
        try? await group.shutdownGracefully()
        try outcome.get()
    }

    static func partial(_ destination: URL) -> URL { URL(fileURLWithPath: destination.path + ".partial") }
    static func record(_ destination: URL) -> URL { URL(fileURLWithPath: destination.path + ".partial.resume") }

    /// Runs `body` and returns the error it threw with the time it took.
    static func failure(_ body: () async throws -> Void) async -> (error: SwitchyardError?, elapsed: Duration) {
        let started = ContinuousClock.now
        do {
            try await body()
            return (nil, ContinuousClock.now - started)
        } catch {
            return (error as? SwitchyardError, ContinuousClock.now - started)
        }
    }

    @Test("the deadline ends a slow download with timeout, keeps the partial file and record, and the next call resumes it")
    func slowDownloadStopsAtTheDeadline() async throws {
        try await TransferTests.withDirectory { directory in
            let destination = directory.appendingPathComponent("blob.bin")
            let size: Int64 = 8 << 20
            try await Self.withIsolatedBackend { client in
                let path = "/files/blob/\(size)"
                let (error, elapsed) = await Self.failure {
                    _ = try await client.send(
                        DynamicEndpoint<Response>(service: .utility, method: .get, path: path, headerFields: Self.slow).downloading(
                            to: destination
                        ),
                        options: CallOptions(timeout: .seconds(30), deadline: .seconds(6))
                    )
                }
                #expect(error?.code == .timeout, "\(String(describing: error))")
                #expect(elapsed < .seconds(14), "a 6 s deadline ended the download after \(elapsed)")
                #expect(!FileManager.default.fileExists(atPath: destination.path))
                let kept = try Data(contentsOf: Self.partial(destination))
                #expect(kept.count > 0 && kept.count < size && kept == SampleBlob.bytes(0..<Int64(kept.count)))
                #expect(FileManager.default.fileExists(atPath: Self.record(destination).path))

                // Without a deadline (and at full speed) the next call takes it from there.
                let result = try await client.send(
                    DynamicEndpoint<Response>(service: .utility, method: .get, path: path).downloading(
                        to: destination,
                        options: DownloadOptions(checksum: .sha256(hex: TransferTests.blobSHA256(size: size)))
                    )
                )
                #expect(result.value.resumedFrom > 0 && result.value.resumedFrom <= Int64(kept.count + (1 << 20)))
                #expect(result.status.code == 206)
                #expect(!FileManager.default.fileExists(atPath: Self.partial(destination).path))
            }
        }
    }

    @Test("a download broken off mid-way resumes, and the deadline still ends the resumed transfer instead of restarting it")
    func deadlineCoversEveryResume() async throws {
        try await TransferTests.withDirectory { directory in
            let destination = directory.appendingPathComponent("blob.bin")
            try await Self.withIsolatedBackend { client in
                let recorder = EventRecorder()
                let deadlines = DeadlineLog()
                // 18 s: on a loaded 2-core machine the resume has waited more than 9 s for a thread.
                var options = CallOptions(timeout: .seconds(60), deadline: .seconds(18))
                options.additionalStages = [
                    ClosureStage.request(id: "wire") { request, context in
                        recorder.record(request.headerFields[.range] ?? "whole")
                        deadlines.add(context.deadline)
                    }
                ]
                let (error, elapsed) = await Self.failure {
                    // Broken off after the first 256 KiB, then resumed at the slow pace.
                    _ = try await client.send(
                        DynamicEndpoint<Response>(
                            service: .utility,
                            method: .get,
                            path: "/files/blob/\(8 << 20)",
                            parameters: ["dropAt": 262_144],
                            headerFields: Self.slow
                        ).downloading(to: destination, options: DownloadOptions(maximumResumes: 5)),
                        options: options
                    )
                }
                #expect(error?.code == .timeout, "\(String(describing: error))")
                // A deadline restarted per attempt would give each resume 18 s: the 32 s transfer
                // would run on far past 28 s instead of timing out.
                #expect(elapsed < .seconds(28), "an 18 s deadline ended the download after \(elapsed)")
                #expect(recorder.events.first == "whole" && recorder.events.count >= 2, "attempts: \(recorder.events)")
                // Every attempt carries the one deadline of the call, not a new one of its own.
                let seen = deadlines.all.compactMap { $0 }
                #expect(seen.count == recorder.events.count, "an attempt went without a deadline")
                if let first = seen.first {
                    for instant in seen { #expect(instant - first < .milliseconds(100) && first - instant < .milliseconds(100)) }
                }
                let kept = (try? Data(contentsOf: Self.partial(destination)))?.count ?? 0
                #expect(kept > 0, "the resumed bytes were not kept")
                #expect(FileManager.default.fileExists(atPath: Self.record(destination).path))
            }
        }
    }

    @Test("without resuming, a download that runs out of time leaves nothing behind")
    func deadlineWithoutResumeDiscards() async throws {
        try await TransferTests.withDirectory { directory in
            let destination = directory.appendingPathComponent("blob.bin")
            try await Self.withIsolatedBackend { client in
                let (error, _) = await Self.failure {
                    _ = try await client.send(
                        DynamicEndpoint<Response>(service: .utility, method: .get, path: "/files/blob/\(8 << 20)", headerFields: Self.slow)
                            .downloading(to: destination, options: DownloadOptions(resume: false)),
                        options: CallOptions(deadline: .seconds(1))
                    )
                }
                #expect(error?.code == .timeout, "\(String(describing: error))")
                #expect(!FileManager.default.fileExists(atPath: Self.partial(destination).path))
                #expect(!FileManager.default.fileExists(atPath: destination.path))
            }
        }
    }
}

/// The deadline each attempt of a download carried, in order.
final class DeadlineLog: Sendable {
    private let state = Mutex<[ContinuousClock.Instant?]>([])

    func add(_ deadline: ContinuousClock.Instant?) { state.withLock { $0.append(deadline) } }

    var all: [ContinuousClock.Instant?] { state.withLock { $0 } }
}
