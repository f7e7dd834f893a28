import Switchyard
extension HAR {
    /// A recorded request, redacted.
    public struct Request: Codable, Sendable, Equatable {
        /// The method (`GET`, `POST` …).
        public var method: String
        /// The absolute URL, with secret query values and path segments replaced.
        public var url: String
        /// The protocol version; empty, because the pipeline does not learn which one the transport spoke.
        public var httpVersion: String
        /// The cookies of the `Cookie` field, values redacted.
        public var cookies: [Cookie]
        /// The header fields, secret values replaced.
        public var headers: [NameValue]
        /// The query's parameters, percent-decoded, secret values replaced.
        public var queryString: [NameValue]
        /// The body, when there is one.
        public var postData: PostData?
        /// `-1`: the pipeline does not see the serialised head.
        public var headersSize: Int
        /// The body's length in bytes, `0` without a body.
        public var bodySize: Int

        /// Creates a request.
        public init(
            method: String,
            url: String,
            httpVersion: String = "",
            cookies: [Cookie] = [],
            headers: [NameValue] = [],
            queryString: [NameValue] = [],
            postData: PostData? = nil,
            headersSize: Int = -1,
            bodySize: Int = 0
        ) {
            self.method = method
            self.url = url
            self.httpVersion = httpVersion
            self.cookies = cookies
            self.headers = headers
            self.queryString = queryString
            self.postData = postData
            self.headersSize = headersSize
            self.bodySize = bodySize
        }
    }

    /// A header field or a query parameter.
    public struct NameValue: Codable, Sendable, Equatable {
        /// The name.
        public var name: String
        /// The value, or the redaction's replacement.
        public var value: String

        /// Creates a pair.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// A cookie sent in `Cookie` or set by `Set-Cookie`.
    public struct Cookie: Codable, Sendable, Equatable {
        /// The cookie's name.
        public var name: String
        /// Its value, or the redaction's replacement (the default hides every cookie's value).
        public var value: String
        /// The `Path` attribute.
        public var path: String?
        /// The `Domain` attribute.
        public var domain: String?
        /// The `Expires` attribute, in ISO 8601.
        public var expires: String?
        /// Whether `HttpOnly` was set.
        public var httpOnly: Bool?
        /// Whether `Secure` was set.
        public var secure: Bool?

        /// Creates a cookie.
        public init(
            name: String,
            value: String,
            path: String? = nil,
            domain: String? = nil,
            expires: String? = nil,
            httpOnly: Bool? = nil,
            secure: Bool? = nil
        ) {
            self.name = name
            self.value = value
            self.path = path
            self.domain = domain
            self.expires = expires
            self.httpOnly = httpOnly
            self.secure = secure
        }
    }

    /// A request body.
    public struct PostData: Codable, Sendable, Equatable {
        /// The `Content-Type`, or empty.
        public var mimeType: String
        /// The body as recorded (see ``HAR/Content/text``), or `nil` when it is not recorded.
        public var text: String?
        /// `"base64"` for binary bytes kept (`_encoding`: HAR 1.2 gives request bodies no `encoding`
        /// field of their own); `nil` for text.
        public var encoding: String?
        /// Why the body is missing or cut, when it is.
        public var comment: String?

        /// Creates a request body.
        public init(mimeType: String, text: String? = nil, encoding: String? = nil, comment: String? = nil) {
            self.mimeType = mimeType
            self.text = text
            self.encoding = encoding
            self.comment = comment
        }

        enum CodingKeys: String, CodingKey {
            case mimeType, text, comment
            case encoding = "_encoding"
        }
    }
}
