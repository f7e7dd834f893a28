import Foundation

extension APIDescription {
    /// An explicit request body.
    public enum Body: Sendable {
        /// A JSON body of a type (usually a model), optional unless `required`.
        case json(TypeReference, required: Bool)
        /// A `multipart/form-data` body of text fields and files, streamed as it is sent.
        case multipart([Part])
        /// The whole file at a path, streamed, with its media type (`application/octet-stream`).
        case file(contentType: String)
    }

    /// A part of a `multipart/form-data` body.
    public struct Part: Sendable {
        /// The form field's name.
        public var name: String
        /// The Swift property name.
        public var swiftName: String
        /// The value's type for a text field; `nil` for a file (a path or bytes).
        public var type: TypeReference?
        /// Whether a value must be given.
        public var required: Bool
        /// What it is.
        public var summary: String?
    }

    /// A documented response for one status, a range of them (`4XX`), or every other status (`default`).
    public struct StatusResponse: Sendable {
        /// The status code; `nil` for a range or `default`.
        public var status: Int?
        /// The decoded body's type; `nil` when the response has no JSON body.
        public var type: TypeReference?
        /// What the response means.
        public var summary: String?
        /// For a range (`4XX`), its hundreds digit (`4`); `nil` for a status or `default`.
        public var range: Int? = nil

        /// A Swift case name: `ok`, `created`, `notFound`… or `status418`; `clientError` for `4XX` (and
        /// `informational`, `success`, `redirection`, `serverError`); `default` for any other status.
        public var caseName: String {
            if let range {
                return ["informational", "success", "redirection", "clientError", "serverError"][min(max(range, 1), 5) - 1]
            }
            guard let status else { return "`default`" }
            let names = [
                200: "ok", 201: "created", 202: "accepted", 204: "noContent", 400: "badRequest", 401: "unauthorized",
                403: "forbidden", 404: "notFound", 409: "conflict", 422: "unprocessableContent", 429: "tooManyRequests",
                500: "internalServerError", 503: "serviceUnavailable",
            ]
            return names[status] ?? "status\(status)"
        }

        /// The Swift `case` pattern that matches it: `404`, `400...499`, or `nil` for `default`.
        public var pattern: String? {
            if let range { return "\(range)00...\(range)99" }
            return status.map(String.init)
        }

        /// How it is written in the document: `404`, `4XX` or `default`.
        public var label: String {
            if let range { return "\(range)XX" }
            return status.map(String.init) ?? "default"
        }
    }

    /// A documented example response of an endpoint: what an `ExampleTransport` answers with.
    public struct Example: Sendable, Hashable {
        /// The status code.
        public var status: Int
        /// The media type, such as `application/json`.
        public var mediaType: String
        /// The body: compact JSON with sorted keys for a JSON media type, else the text as written.
        public var body: String

        /// Creates an example.
        public init(status: Int, mediaType: String, body: String) {
            self.status = status
            self.mediaType = mediaType
            self.body = body
        }

        /// A JSON value (from `JSONSerialization` or YAML) as compact JSON with sorted keys; `nil` when
        /// it is not JSON (an infinite number).
        static func canonicalJSON(_ value: Any) -> String? {
            guard JSONSerialization.isValidJSONObject([value]) else { return nil }
            let options: JSONSerialization.WritingOptions = [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes]
            return (try? JSONSerialization.data(withJSONObject: value, options: options)).map { String(decoding: $0, as: UTF8.self) }
        }

        /// JSON text written again compactly with sorted keys; `nil` when it is not JSON.
        static func canonicalJSON(text: String) -> String? {
            guard let value = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed) else { return nil }
            return canonicalJSON(value)
        }
    }

    /// How a parameter is serialized, as OpenAPI's `style` and `explode` say.
    public struct Style: Sendable, Hashable {
        /// `form`, `simple`, `spaceDelimited`, `pipeDelimited` or `deepObject`.
        public var name: String
        /// Whether arrays and objects are written as one pair per value.
        public var explode: Bool

        /// Creates a style.
        public init(name: String, explode: Bool) {
            self.name = name
            self.explode = explode
        }
    }

    /// A case of a union model.
    public struct UnionCase: Sendable {
        /// The Swift case name.
        public var name: String
        /// The associated value's type.
        public var type: TypeReference
        /// The discriminator values that select the case.
        public var tags: [String]
    }
}

extension APIDescription.Model {
    /// What kind of type a model is.
    public enum Kind: Sendable {
        /// A struct of ``APIDescription/Model/fields``.
        case structure
        /// A string enumeration with a case for values this version does not know.
        case stringEnum([String])
        /// One of several types (OpenAPI `oneOf`/`anyOf`), told apart by the discriminator property when
        /// there is one, else by trying each case in order.
        case union([APIDescription.UnionCase], discriminator: String?)
        /// Another name for a type (a named array, dictionary or scalar schema).
        case alias(TypeReference)
        /// An integer enumeration (OpenAPI `oneOf` of `const` branches) with a case for values this version
        /// does not know: the values and their case names (from the branches' titles).
        case integerEnum([Int], names: [String])
        /// Any JSON value (a free-form schema): null, a Boolean, a number, a string, an array or an object.
        case json
    }

    /// Whether the model's union cases or alias mention a scalar.
    func mentions(_ scalar: TypeReference.Scalar) -> Bool {
        switch kind {
        case .structure, .stringEnum, .integerEnum, .json: false
        case .union(let cases, _): cases.contains { $0.type.mentions(scalar) }
        case .alias(let type): type.mentions(scalar)
        }
    }
}
