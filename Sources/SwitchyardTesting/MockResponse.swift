import Foundation
public import HTTPTypes
public import Switchyard

/// A canned answer for ``MockTransport`` and ``StageHarness``: a JSON body, a bare status, a
/// failure, or a delay before another answer.
///
/// ```swift
/// let transport = MockTransport(.json(#"{"code":0,"data":{"id":1}}"#))
/// let flaky = MockTransport(sequence: [.status(.serviceUnavailable), .json("{}")])
/// let slow = MockTransport(.delayed(by: .seconds(2), then: .json("{}")))
/// ```
public struct MockResponse: Sendable {
    /// Produces the response for a request.
    public let respond: @Sendable (Request, CallContext) async throws -> Response

    /// Creates an answer from a closure.
    public init(_ respond: @escaping @Sendable (Request, CallContext) async throws -> Response) {
        self.respond = respond
    }

    /// A JSON body (`Content-Type: application/json`) with a status, `200 OK` by default.
    public static func json(_ body: String, status: HTTPResponse.Status = .ok, headerFields: HTTPFields = [:]) -> MockResponse {
        var fields = headerFields
        if fields[.contentType] == nil { fields[.contentType] = "application/json" }
        let response = Response(status: status, headerFields: fields, body: Data(body.utf8))
        return MockResponse { _, _ in response }
    }

    /// A JSON body encoded from a value.
    public static func json<Value: Encodable>(encoding value: Value, status: HTTPResponse.Status = .ok) throws -> MockResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return json(String(decoding: try encoder.encode(value), as: UTF8.self), status: status)
    }

    /// A status with an optional text body.
    public static func status(_ status: HTTPResponse.Status, body: String = "", headerFields: HTTPFields = [:]) -> MockResponse {
        let response = Response(status: status, headerFields: headerFields, body: Data(body.utf8))
        return MockResponse { _, _ in response }
    }

    /// Throws an error, as a transport does when a connection fails.
    public static func failure(_ error: any Error) -> MockResponse {
        MockResponse { _, _ in throw error }
    }

    /// A connection failure: a ``SwitchyardError`` with the ``SwitchyardError/Code/transport`` code.
    public static var connectionRefused: MockResponse {
        failure(SwitchyardError(code: .transport, message: "could not connect: connection refused (mock)"))
    }

    /// Waits, then answers with `then`. Honours task cancellation, and the context's timeout the way a
    /// real transport does: when the timeout is shorter than the delay, it fails with
    /// ``SwitchyardError/Code/timeout`` once the timeout has passed.
    public static func delayed(by delay: Duration, then next: MockResponse) -> MockResponse {
        MockResponse { request, context in
            if let timeout = context.effectiveTimeout, timeout < delay {
                try await Task.sleep(for: timeout)
                throw SwitchyardError(code: .timeout, message: "mock transport timed out after \(timeout)")
            }
            try await Task.sleep(for: delay)
            return try await next.respond(request, context)
        }
    }
}
