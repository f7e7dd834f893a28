import Foundation
import HTTPTypes
import Switchyard
import SwitchyardAsyncHTTPClient
import SwitchyardOutbox

/// The client process of the outbox's kill harness (`Tests/Outbox/kill_harness.py`):
///
///     outbox-order-client STORE BASE_URL ORDERS
///
/// Opens the outbox at STORE, enqueues the orders `order-1` … `order-ORDERS` that the store does not
/// hold yet (an order is in the store once its `enqueue` returned), sends them all through the fault
/// proxy at BASE_URL while it enqueues, and prints one line of counts once none is pending. The
/// harness kills it with SIGKILL at random moments and starts it again.
@main
struct OrderClient {
    static let orders: ServiceID = "orders"

    static func main() async {
        let arguments = CommandLine.arguments
        guard arguments.count >= 4, let total = Int(arguments[3]) else {
            FileHandle.standardError.write(Data("usage: outbox-order-client STORE BASE_URL ORDERS [--figures]\n".utf8))
            exit(2)
        }
        do {
            if arguments.count == 5, arguments[4] == "--figures" {
                try await figures(store: URL(fileURLWithPath: arguments[1]), baseURL: arguments[2], total: total)
                return
            }
            try await run(store: URL(fileURLWithPath: arguments[1]), baseURL: arguments[2], total: total)
        } catch {
            print("ERROR \(error.code) \(error.message)")
            exit(1)
        }
    }

    static func makeClient(baseURL: String) throws(SwitchyardError) -> APIClient {
        let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, defaultEnvironment: .develop, store: nil))
        // The token is this process's: a call enqueued by one run and sent by the next carries the
        // sender's, because the pipeline runs when the call goes.
        let token = "run-\(getpid())"
        let authorize = ClosureStage.request(id: "Token") { request, _ in
            request.headerFields[.authorization] = "Bearer \(token)"
        }
        try registry.register(Service(orders, baseURL: baseURL, stages: [authorize], transport: AsyncHTTPClientTransport()))
        return APIClient(registry: registry)
    }

    static func run(store: URL, baseURL: String, total: Int) async throws(SwitchyardError) {
        let client = try makeClient(baseURL: baseURL)
        let configuration = Outbox.Configuration(
            retryPolicy: RetryPolicy(baseDelay: .milliseconds(20), maxDelay: .milliseconds(300)),
            attemptDeadline: .seconds(5)
        )
        let outbox = try await Outbox(file: store, client: client, configuration: configuration)
        await outbox.start()
        let held = Set(try await outbox.entries().flatMap(\.tags).map(\.rawValue))
        var enqueued = 0
        for number in 1...total where !held.contains("order-\(number)") {
            let order = "order-\(number)"
            try await outbox.enqueue(
                OutboxCall(orders, .post, "/orders", body: try .json(["order": order]), queue: "orders", tags: [RequestTag(order)])
            )
            enqueued += 1
        }
        try await outbox.drain()
        let counts = try await outbox.counts()
        print(
            "RESULT enqueued_now=\(enqueued) delivered=\(counts.delivered) dead=\(counts.deadLetters) "
                + "pending=\(counts.pending) cancelled=\(counts.cancelled)"
        )
        for entry in try await outbox.entries(.deadLetter) {
            print("DEAD \(entry.tags.map(\.rawValue).sorted().joined(separator: ",")) \(entry.error?.code.rawValue ?? "-")")
        }
        await outbox.close()
    }

    /// Wall-time figures on a fresh store against a server with no faults: `ORDERS` plain sends with
    /// an `Idempotency-Key` each, then `ORDERS` enqueues, then draining them.
    static func figures(store: URL, baseURL: String, total: Int) async throws(SwitchyardError) {
        let client = try makeClient(baseURL: baseURL)
        let clock = ContinuousClock()
        var start = clock.now
        for number in 1...total {
            _ = try await client.send(
                orders,
                .post,
                "/orders",
                body: .json(["order": "plain-\(number)"]),
                headerFields: [Outbox.idempotencyKeyField: UUID().uuidString]
            )
        }
        let plain = clock.now - start
        let outbox = try await Outbox(file: store, client: client)
        start = clock.now
        for number in 1...total {
            try await outbox.enqueue(OutboxCall(orders, .post, "/orders", body: try .json(["order": "queued-\(number)"]), queue: "orders"))
        }
        let enqueue = clock.now - start
        start = clock.now
        try await outbox.drain()
        let drain = clock.now - start
        let delivered = try await outbox.counts().delivered
        await outbox.close()
        func perCall(_ duration: Duration) -> String { String(format: "%.3f", duration.timeInterval * 1000 / Double(total)) }
        print(
            "FIGURES calls=\(total) delivered=\(delivered) plain_send_ms=\(perCall(plain)) enqueue_ms=\(perCall(enqueue)) "
                + "drained_call_ms=\(perCall(drain)) drain_calls_per_s=\(String(format: "%.0f", Double(total) / drain.timeInterval))"
        )
    }
}

extension Duration {
    /// The duration in seconds.
    var timeInterval: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
