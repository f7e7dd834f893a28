import Foundation
import HTTPTypes
import InMemoryTracing
import MetricsTestKit
import Switchyard
import SwitchyardTelemetry
import SwitchyardTesting
import Testing
import Tracing
import W3CTraceContext

@Suite("Metrics stage")
struct MetricsStageTests {
    @Test("a counter and a timer per service, endpoint and outcome")
    func counts() async throws {
        let metrics = TestMetrics()
        let stage = MetricsStage(factory: metrics)
        let context = CallContext(serviceID: "users", endpointName: "GetUser")
        _ = await StageHarness(stage).run(try .fixture(.get, "https://api.test/u/1"), context: context)
        _ = await StageHarness(stage).run(try .fixture(.get, "https://api.test/u/1"), context: context)
        _ = await StageHarness(stage).run(try .fixture(.get, "https://api.test/u/1"), context: context, respond: .connectionRefused)
        let success = [("service", "users"), ("endpoint", "GetUser"), ("outcome", "success"), ("status", "200")]
        #expect(try metrics.expectCounter("switchyard_calls_total", success).values == [1, 1])
        #expect(
            try metrics.expectCounter("switchyard_calls_total", [("service", "users"), ("endpoint", "GetUser"), ("outcome", "transport")])
                .values == [1]
        )
        let timer = try metrics.expectTimer("switchyard_call_duration", success)
        #expect(timer.values.count == 2)
        #expect(timer.values.allSatisfy { $0 > 0 })
    }
}

@Suite("Tracing stage")
struct TracingStageTests {
    @Test("one client span per call with attributes, and a valid W3C traceparent on the request")
    func span() async throws {
        let tracer = InMemoryTracer()
        let context = CallContext(serviceID: "users", endpointName: "GetUser")
        let run = await StageHarness(TracingStage(tracer: tracer)).run(try .fixture(.get, "https://api.test/u/1?x=1"), context: context)
        let request = try #require(run.forwardedRequest)
        let header = try #require(request.headerFields[TracingStage.traceparent])
        let parsed = try TraceContext(traceParentHeaderValue: header)
        #expect(parsed.flags.contains(.sampled))
        let spans = tracer.popFinishedSpans()
        #expect(spans.count == 1)
        let span = try #require(spans.first)
        #expect(span.operationName == "GET GetUser")
        #expect(span.kind == .client)
        #expect(span.attributes["http.request.method"]?.toSpanAttribute() == "GET")
        #expect(span.attributes["url.path"]?.toSpanAttribute() == "/u/1")
        #expect(span.attributes["http.response.status_code"]?.toSpanAttribute() == 200)
        #expect(span.attributes["switchyard.service"]?.toSpanAttribute() == "users")
        #expect(span.status == nil)
    }

    @Test("a call inside a W3C parent continues its trace; failures and 5xx mark the span as an error")
    func parentAndErrors() async throws {
        let tracer = InMemoryTracer()
        let parent = try TraceContext(traceParentHeaderValue: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")
        var service = ServiceContext.topLevel
        service[W3CTraceContextKey.self] = parent
        let run = await ServiceContext.$current.withValue(service) {
            await StageHarness(TracingStage(tracer: tracer)).run(try! .fixture(.post, "https://api.test/o"), respond: .status(.badGateway))
        }
        let header = try #require(run.forwardedRequest?.headerFields[TracingStage.traceparent])
        #expect(header.hasPrefix("00-0af7651916cd43dd8448eb211c80319c-"))
        #expect(!header.contains("b7ad6b7169203331"))
        #expect(tracer.popFinishedSpans().first?.status?.code == .error)

        _ = await StageHarness(TracingStage(tracer: tracer)).run(try .fixture(.get, "https://api.test/o"), respond: .connectionRefused)
        let failed = try #require(tracer.popFinishedSpans().first)
        #expect(failed.status?.code == .error)
        #expect(failed.errors.count == 1)
    }

    @Test("a nested call made by an inner stage is a child span")
    func nested() async throws {
        let tracer = InMemoryTracer()
        let inner = ClosureStage(id: "Nested") { request, context, next in
            _ = await StageHarness(TracingStage(tracer: tracer)).run(try .fixture(.post, "https://auth.test/token"))
            return try await next(request, context)
        }
        let outer = TracingStage(tracer: tracer)
        _ = await StageHarness(outer).run(
            try .fixture(.get, "https://api.test/a"),
            respond: MockResponse { request, context in
                try await inner.intercept(request, context: context) { _, _ in Response(status: .ok) }
            }
        )
        let spans = tracer.popFinishedSpans()
        #expect(spans.count == 2)
        let child = try #require(spans.first { $0.attributes["server.address"]?.toSpanAttribute() == "auth.test" })
        let parent = try #require(spans.first { $0.attributes["server.address"]?.toSpanAttribute() == "api.test" })
        #expect(child.parentSpanID == parent.spanID)
        #expect(child.traceID == parent.traceID)
    }
}

/// An answer whose body streams two chunks, then ends or fails as a dropped connection does.
private func streamed(failing: Bool) -> MockResponse {
    MockResponse { _, context in
        let stream = ResponseStream(control: context.control) { writer in
            try await writer.write(Data("a".utf8))
            try await writer.write(Data("b".utf8))
            if failing { throw SwitchyardError(code: .transport, message: "the connection was reset") }
        }
        return Response(head: HTTPResponse(status: .ok), body: .stream(stream))
    }
}

/// Reads a harness run's streamed body to its end; the error that ended it, if any.
private func drain(_ run: HarnessRun) async throws -> SwitchyardError? {
    let stream = try #require(run.response?.body.stream)
    do {
        for try await _ in stream {}
        return nil
    } catch {
        return error
    }
}

@Suite("Telemetry over a streamed answer")
struct StreamedTelemetryTests {
    @Test("the span of a streamed call stays open until its stream ends")
    func spanLastsTheStream() async throws {
        let tracer = InMemoryTracer()
        let run = await StageHarness(TracingStage(tracer: tracer)).run(
            try .fixture(.get, "https://api.test/feed"),
            respond: streamed(failing: false)
        )
        #expect(tracer.popFinishedSpans().isEmpty)
        #expect(try await drain(run) == nil)
        let span = try #require(tracer.popFinishedSpans().first)
        #expect(span.status == nil)
        #expect(span.attributes["http.response.status_code"]?.toSpanAttribute() == 200)
    }

    @Test("a stream that fails mid-way marks its span as an error")
    func failedStreamMarksSpan() async throws {
        let tracer = InMemoryTracer()
        let run = await StageHarness(TracingStage(tracer: tracer)).run(
            try .fixture(.get, "https://api.test/feed"),
            respond: streamed(failing: true)
        )
        #expect(try await drain(run)?.code == .transport)
        let span = try #require(tracer.popFinishedSpans().first)
        #expect(span.status?.code == .error)
        #expect(span.errors.count == 1)
    }

    @Test("a streamed call is counted and timed when its stream ends, with the stream's outcome")
    func metricsAtStreamEnd() async throws {
        let metrics = TestMetrics()
        let stage = MetricsStage(factory: metrics)
        let context = CallContext(serviceID: "feeds", endpointName: "Prices")
        let run = await StageHarness(stage).run(
            try .fixture(.get, "https://api.test/feed"),
            context: context,
            respond: streamed(failing: true)
        )
        #expect(metrics.counters.isEmpty)
        #expect(try await drain(run)?.code == .transport)
        let failed = [("service", "feeds"), ("endpoint", "Prices"), ("outcome", "transport"), ("status", "200")]
        #expect(try metrics.expectCounter("switchyard_calls_total", failed).values == [1])
        #expect(try metrics.expectTimer("switchyard_call_duration", failed).values.count == 1)
    }
}
