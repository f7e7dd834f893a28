import Foundation
import HTTPTypes
import Switchyard
import SwitchyardAsyncHTTPClient
import SwitchyardSampleBackend
import Synchronization

/// Step 14 of the demo: module 7, `assistant` — streamed calls through the pipeline. The answer to a
/// question arrives word by word as Server-Sent Events (`client.events`); the backend drops the first
/// connection part-way and the events resume through the pipeline with `Last-Event-ID`. Then a job's
/// progress arrives as JSON Lines, decoded into ``JobProgress`` as each line comes.
enum AssistantTour {
    /// The transcript's lines, collected while the answer prints and printed after it.
    static let transcript = Mutex<[String]>([])

    static func register(
        in registry: ServiceRegistry,
        backend: SampleBackend,
        transport: AsyncHTTPClientTransport,
        inspection: DemoInspection
    ) throws {
        try registry.register(
            Service(
                .assistant,
                baseURLs: [.develop: backend.baseURL + "/assistant-api", .release: "https://api.example.com/assistant"],
                defaults: inspection.defaults(ServiceDefaults(timeout: .seconds(5))),
                stages: inspection.stages([
                    ClosureStage.request(id: .authorization) { request, _ in request.headerFields[.authorization] = "Bearer demo-token" },
                    HeadersStage([.fixed(HTTPField.Name("X-Client-Version")!, "1.0.0")]),
                    TranscriptStage(write: { line in Self.transcript.withLock { $0.append(line) } }),
                ]),
                transport: transport
            )
        )
    }

    static func run(client: APIClient) async throws {
        let question = "How do streams work?"
        let answer = try await client.events(
            AskAssistant(question: question, dropAfter: 7),
            reconnect: RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(50))
        )
        print("  ", terminator: "")
        for try await event in answer.value where event.type == "token" {
            print(" " + event.data, terminator: "")
            fflush(nil)
        }
        print("\n   its connections — dropped after word 7, resumed with Last-Event-ID, and told 204 once the answer was whole:")
        for line in Self.transcript.withLock({ $0 }) { print(line) }

        print("   a job's progress as JSON Lines, each line decoded into JobProgress as it arrives:\n  ", terminator: "")
        let feed = try await client.send(JobProgressFeed(steps: 5))
        for try await progress in feed.value.jsonLines(of: JobProgress.self) {
            print(" \(progress.percent)%" + (progress.state == "done" ? " done" : ""), terminator: "")
            fflush(nil)
        }
        print("\n")
    }
}
