import AsyncHTTPClient
import Foundation
import HTTPTypes
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import NIOHTTPCompression
import SwitchyardCore

/// Converting between Switchyard's messages and AsyncHTTPClient's, and reading bodies.
extension AsyncHTTPClientTransport {
    /// Writes the body to the download's sink as it arrives, checking the deadline per chunk.
    static func download(_ response: HTTPClientResponse, into sink: DownloadSink, deadline: NIODeadline) async throws -> DownloadedFile {
        for try await chunk in response.body {
            let outcome: Result<Void, SwitchyardError> = chunk.withUnsafeReadableBytes { bytes in
                Result { () throws(SwitchyardError) in try sink.write(bytes) }
            }
            try outcome.get()
            if deadline != .distantFuture, NIODeadline.now() > deadline { throw HTTPClientError.deadlineExceeded }
        }
        return try sink.finish()
    }

    /// Hands the body to a streamed call's consumer chunk by chunk: the next chunk is read from the
    /// connection only when the buffer has room, so a slow consumer slows the reading.
    static func stream(
        _ response: HTTPClientResponse,
        to writer: ResponseStream.Writer,
        observer: TransferObserver?,
        target: String
    ) async throws {
        let total = response.headers.first(name: "content-length").flatMap { Int64($0) }
        var received: Int64 = 0
        observer?.received(TransferProgress(completed: 0, total: total))
        for try await chunk in response.body {
            received += Int64(chunk.readableBytes)
            try await writer.write(streamedData(chunk))
            observer?.received(TransferProgress(completed: received, total: total))
        }
    }

    /// A streamed chunk as `Data`: one of 16 KiB or more that fills at least half of the read buffer
    /// it is a slice of, over that buffer's storage, not copied (the bytes of a fast stream arrive in
    /// reads of tens of KiB); any other copied, so that a chunk never keeps alive more than twice its
    /// own bytes (the stream's read-ahead limit counts chunks' bytes).
    static func streamedData(_ chunk: ByteBuffer) -> Data {
        guard chunk.readableBytes >= 16 << 10, chunk.readableBytes * 2 >= chunk.storageCapacity else { return data(chunk) }
        return Data(buffer: chunk, byteTransferStrategy: .noCopy)
    }

    /// Collects the body, checking the deadline as each chunk arrives. Stopping the iteration
    /// cancels the rest of the body on its connection.
    static func collect(
        _ response: HTTPClientResponse,
        limit: Int,
        target: String,
        deadline: NIODeadline,
        observer: TransferObserver?
    ) async throws -> Data {
        let length = response.headers.first(name: "content-length").flatMap({ Int($0) })
        // A decompressed body may grow past an announced (compressed) length; the count below checks it.
        let decompressed = response.headers.first(name: "content-encoding").map { !$0.isEmpty && $0.lowercased() != "identity" } ?? false
        if let length, length > limit, !decompressed {
            throw SwitchyardError.responseTooLarge(limit: limit, observed: length, target: target)
        }
        let total = length.map(Int64.init)
        observer?.received(TransferProgress(completed: 0, total: total))
        var body: ByteBuffer?
        for try await chunk in response.body {
            let received = (body?.readableBytes ?? 0) + chunk.readableBytes
            guard received <= limit else {
                throw SwitchyardError.responseTooLarge(limit: limit, observed: received, decompressed: decompressed, target: target)
            }
            if body == nil {
                body = chunk
            } else {
                var chunk = chunk
                body?.writeBuffer(&chunk)
            }
            if deadline != .distantFuture, NIODeadline.now() > deadline { throw HTTPClientError.deadlineExceeded }
            observer?.received(TransferProgress(completed: Int64(body?.readableBytes ?? 0), total: total))
        }
        return body.map(Self.data) ?? Data()
    }

    /// A buffer's readable bytes as `Data`, copied in one piece (the generic sequence initialiser
    /// first tries dynamic casts to find contiguous storage).
    static func data(_ buffer: ByteBuffer) -> Data {
        buffer.withUnsafeReadableBytes { Data($0) }
    }

    /// The request for AsyncHTTPClient's delegate interface, its body in memory.
    static func makeDelegateRequest(_ request: Request) throws -> HTTPClient.Request {
        try HTTPClient.Request(
            url: url(of: request),
            method: HTTPMethod(rawValue: request.method.rawValue),
            headers: headers(of: request),
            body: request.body?.bytes.map { .byteBuffer(ByteBuffer(bytes: $0)) }
        )
    }

    /// The absolute URL AsyncHTTPClient is given.
    private static func url(of request: Request) throws(SwitchyardError) -> String {
        guard let scheme = request.head.scheme, let authority = request.head.authority else {
            throw SwitchyardError(code: .invalidRequest, message: "the request has no scheme or authority, so it cannot be sent")
        }
        return scheme + "://" + authority + (request.head.path ?? "/")
    }

    /// The header fields in NIO's terms, in order.
    private static func headers(of request: Request) -> HTTPHeaders {
        var headers = HTTPHeaders()
        headers.reserveCapacity(request.headerFields.count)
        for field in request.headerFields {
            headers.add(name: field.name.rawName, value: field.value)
        }
        return headers
    }

    static func makeClientRequest(_ request: Request) throws(SwitchyardError) -> HTTPClientRequest {
        var clientRequest = HTTPClientRequest(url: try url(of: request))
        clientRequest.method = HTTPMethod(rawValue: request.method.rawValue)
        clientRequest.headers = headers(of: request)
        if let body = request.body?.bytes {
            clientRequest.body = .bytes(ByteBuffer(bytes: body))
        }
        return clientRequest
    }

    static func makeHead(_ response: HTTPClientResponse) -> HTTPResponse {
        makeHead(status: response.status, headers: response.headers)
    }

    /// The response head in swift-http-types' terms.
    static func makeHead(status: HTTPResponseStatus, headers: HTTPHeaders) -> HTTPResponse {
        var fields = HTTPFields()
        fields.reserveCapacity(headers.count)
        for (name, value) in headers {
            if let fieldName = HTTPField.Name(name) { fields.append(HTTPField(name: fieldName, value: value)) }
        }
        // NIO's parser drops the server's phrase: report the standard one, as the URLSession transport does.
        let code = Int(status.code)
        return HTTPResponse(status: StandardStatus.known(code) ?? HTTPResponse.Status(code: code), headerFields: fields)
    }

    /// `METHOD scheme://authority/path`, without the query and with secret-shaped path segments
    /// redacted, for error messages.
    static func target(of request: Request) -> String {
        let path = Redaction.default.redactTarget(String(request.pathWithoutQuery))
        return "\(request.method.rawValue) \(request.head.scheme ?? "")://\(request.head.authority ?? "")\(path)"
    }
}
