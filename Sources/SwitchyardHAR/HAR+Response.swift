import Switchyard
extension HAR {
    /// A recorded response, redacted; for a failed call, whatever response the error carried, or
    /// status 0 with nothing else.
    public struct Response: Codable, Sendable, Equatable {
        /// The status code; `0` when no response arrived.
        public var status: Int
        /// The reason phrase.
        public var statusText: String
        /// The protocol version; empty, as for requests.
        public var httpVersion: String
        /// The cookies of the `Set-Cookie` fields, values redacted.
        public var cookies: [Cookie]
        /// The header fields, secret values replaced.
        public var headers: [NameValue]
        /// The body.
        public var content: Content
        /// The `Location` field, redacted like a URL; empty without one.
        public var redirectURL: String
        /// `-1`: the pipeline does not see the serialised head.
        public var headersSize: Int
        /// The body's length in bytes as it came back; `0` for an answer from a cache, `-1` when no
        /// response arrived.
        public var bodySize: Int
        /// Why the call failed (`_error`), as `code: message` with secrets redacted, the way browsers'
        /// developer tools record a failed request; `nil` for a call that succeeded.
        public var error: String?
        /// Where the response came from (`_source`): `ResponseSource.rawValue`, `network` and so on.
        public var source: String?

        /// Creates a response.
        public init(
            status: Int,
            statusText: String = "",
            httpVersion: String = "",
            cookies: [Cookie] = [],
            headers: [NameValue] = [],
            content: Content,
            redirectURL: String = "",
            headersSize: Int = -1,
            bodySize: Int,
            error: String? = nil,
            source: String? = nil
        ) {
            self.status = status
            self.statusText = statusText
            self.httpVersion = httpVersion
            self.cookies = cookies
            self.headers = headers
            self.content = content
            self.redirectURL = redirectURL
            self.headersSize = headersSize
            self.bodySize = bodySize
            self.error = error
            self.source = source
        }

        enum CodingKeys: String, CodingKey {
            case status, statusText, httpVersion, cookies, headers, content, redirectURL, headersSize, bodySize
            case error = "_error"
            case source = "_source"
        }
    }

    /// A response body.
    public struct Content: Codable, Sendable, Equatable {
        /// The body's length in bytes, whatever part of it is recorded.
        public var size: Int
        /// The `Content-Type`, or empty.
        public var mimeType: String
        /// Text with secrets redacted, or binary bytes in base64 (``encoding`` says which) when the
        /// stage's ``HARRecordingStage/Bodies/allIncludingBinary(_:)`` names their type, cut after the
        /// recorder's ``HARRecorder/maxBodyBytes``; `nil` when the body is not recorded
        /// (``comment`` says why).
        public var text: String?
        /// `"base64"` for binary bytes kept; `nil` for text.
        public var encoding: String?
        /// Why the body is missing or cut, when it is.
        public var comment: String?

        /// Creates a response body.
        public init(size: Int, mimeType: String, text: String? = nil, encoding: String? = nil, comment: String? = nil) {
            self.size = size
            self.mimeType = mimeType
            self.text = text
            self.encoding = encoding
            self.comment = comment
        }
    }
}
