import AsyncHTTPClient
import InMemoryTracing
import NIOSSL
import SwitchyardAsyncHTTPClient
import Testing
import Tracing

@Suite("AsyncHTTPClient transport: the client configuration Switchyard relies on")
struct ClientConfigurationTests {
    @Test("TLS 1.2 is the oldest version accepted, whatever the configuration started from")
    func minimumTLS() {
        var old = HTTPClient.Configuration()
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.minimumTLSVersion = .tlsv1
        old.tlsConfiguration = tls
        #expect(AsyncHTTPClientTransport.switchyardConfiguration(old).tlsConfiguration?.minimumTLSVersion == .tlsv12)
        #expect(AsyncHTTPClientTransport.switchyardConfiguration(HTTPClient.Configuration()).tlsConfiguration?.minimumTLSVersion == .tlsv12)
    }

    @Test("a newer minimum the configuration asks for is kept")
    func newerMinimumKept() {
        var modern = HTTPClient.Configuration()
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.minimumTLSVersion = .tlsv13
        modern.tlsConfiguration = tls
        #expect(AsyncHTTPClientTransport.switchyardConfiguration(modern).tlsConfiguration?.minimumTLSVersion == .tlsv13)
    }

    @Test("gzip and deflate are decoded up to 64 MiB, even when the configuration turned decompression off")
    func decompressionOn() {
        guard case .enabled = AsyncHTTPClientTransport.switchyardConfiguration(HTTPClient.Configuration()).decompression else {
            Issue.record("decompression stayed off")
            return
        }
        #expect(AsyncHTTPClientTransport.decompressionLimit == 64 << 20)
    }

    @Test("a tracer that records nothing is dropped, so the client opens no span per request")
    func noOpTracerDropped() {
        var configuration = HTTPClient.Configuration()
        configuration.tracing.tracer = NoOpTracer()
        #expect(AsyncHTTPClientTransport.switchyardConfiguration(configuration).tracing.tracer == nil)
    }

    @Test("a tracer that records is kept")
    func recordingTracerKept() {
        var configuration = HTTPClient.Configuration()
        configuration.tracing.tracer = InMemoryTracer()
        #expect(AsyncHTTPClientTransport.switchyardConfiguration(configuration).tracing.tracer is InMemoryTracer)
    }
}
