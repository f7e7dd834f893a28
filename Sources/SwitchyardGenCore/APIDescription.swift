/// A parsed and validated description file: services with their endpoints, and the models their
/// responses use. Made by ``DescriptionParser``; turned into code by ``SwiftEmitter`` and into an API
/// reference by ``MarkdownEmitter``.
public struct APIDescription: Sendable {
    /// The access level of the generated declarations.
    public enum Access: String, Sendable {
        /// `internal` (the default): for an app target.
        case `internal`
        /// `public`: for a library target whose users call the endpoints.
        case `public`
    }

    /// The file the description came from.
    public var file: String
    /// The name of the generated namespace (`<Name>API`), from `name:` or the file name.
    public var name: String
    /// The access level of the generated code.
    public var access: Access
    /// The services, in file order.
    public var services: [Service]
    /// The models, in file order.
    public var models: [Model]
    /// Whether the endpoints and models are declared in the `<Name>API` namespace rather than at module
    /// scope: so for OpenAPI documents (unless their configuration says `namespaced: false`), so that one
    /// module can hold several APIs; description files keep module scope.
    public var namespaced = false
    /// Problems that did not stop generation (constructs the generator leaves out), in file order.
    public var warnings: [DescriptionWarning] = []
    /// Whether the models' date-time members are `Date`s: the registration helpers then give the
    /// service an ISO 8601 JSON coder (``DescriptionFormat``).
    public var usesDates: Bool {
        models.contains { model in model.fields.contains { $0.type.mentions(.dateTime) } || model.mentions(.dateTime) }
    }

    /// A backend service and its endpoints.
    public struct Service: Sendable {
        /// The service identifier (a `ServiceID`).
        public var id: String
        /// The Swift name of the `ServiceID` constant.
        public var swiftName: String
        /// What the service is.
        public var summary: String?
        /// Base URLs by environment name (`develop`, `test`, `prerelease`, `release`, `hotfix`, `custom`).
        public var environments: [(name: String, url: String)]
        /// The default per-attempt timeout in seconds.
        public var timeout: Double?
        /// The envelope the service wraps payloads in, when it has one.
        public var envelope: Envelope?
        /// Whether every call must be encrypted: registration then requires an `Encryption` stage.
        public var encrypted: Bool
        /// The endpoints, in file order.
        public var endpoints: [Endpoint]
        /// Where the service is declared.
        public var location: SourceLocation
        /// Whether query parameters go in the service's default array style (`ids[]=1`) or are written by
        /// each endpoint in the OpenAPI style and explode its parameters declare.
        public var writesOwnQueries: Bool = false
    }

    /// A `{code, message, data}` envelope.
    public struct Envelope: Sendable {
        /// The key of the business code.
        public var code: String
        /// The key of the message.
        public var message: String
        /// The key of the payload.
        public var data: String
        /// The success codes, as numbers …
        public var successCodes: [Int]
        /// … or as text (`"SUCCESS"`).
        public var successTexts: [String]
    }

    /// One API.
    public struct Endpoint: Sendable {
        /// The Swift type name.
        public var name: String
        /// The HTTP method, upper-case.
        public var method: String
        /// The path template, with `{name}` placeholders.
        public var path: String
        /// A one-line summary.
        public var summary: String?
        /// A longer description.
        public var details: String?
        /// The parameters, in file order.
        public var parameters: [Parameter]
        /// How body parameters are encoded: `json` (default) or `form`.
        public var bodyEncoding: String
        /// What the endpoint answers.
        public var response: Response
        /// Per-call options.
        public var options: Options
        /// Where the endpoint is declared.
        public var location: SourceLocation
        /// An explicit body (a model, an upload), instead of or beside body parameters.
        public var body: Body? = nil
        /// The documented responses other than the output's, by status, for decoding error bodies.
        public var errorResponses: [StatusResponse] = []
        /// The documented successful responses when they differ by status (the output is then an enum).
        public var successResponses: [StatusResponse] = []
        /// The documented example responses, by status and media type, in document order.
        public var examples: [Example] = []
    }

    /// What an endpoint answers.
    public enum Response: Sendable, Hashable {
        /// Nothing to decode (`NoContent`).
        case none
        /// The raw bytes (`Data`).
        case raw
        /// A decoded type.
        case decoded(TypeReference)
        /// A body read as it arrives (`ResponseStream`) in a streaming media type — `text/event-stream`,
        /// `application/jsonl`, `application/x-ndjson` or `application/json-seq` — whose values are of
        /// `element`: for an event stream the JSON of each event's data, or `nil` for the events themselves
        /// (`ServerSentEvent`).
        case stream(mediaType: String, element: TypeReference?)
    }

    /// A parameter of an endpoint.
    public struct Parameter: Sendable {
        /// Where a parameter goes.
        public enum Location: String, Sendable, CaseIterable {
            /// A `{name}` placeholder in the path.
            case path
            /// The query string.
            case query
            /// The body (JSON or form).
            case body
            /// A header field.
            case header
        }

        /// The wire name.
        public var name: String
        /// The Swift property name.
        public var swiftName: String
        /// The type (scalars, or arrays of scalars outside headers and paths).
        public var type: TypeReference
        /// Where it goes.
        public var location: Location
        /// Whether a value must be given.
        public var required: Bool
        /// The default, as a Swift literal, when one is declared.
        public var defaultLiteral: String?
        /// The default as written, for the reference.
        public var defaultText: String?
        /// What it means.
        public var summary: String?
        /// Where the parameter is declared.
        public var sourceLocation: SourceLocation
        /// The OpenAPI `style` and `explode` of a query, path or header parameter; `nil` for the
        /// description format's own serialization.
        public var style: Style? = nil
    }

    /// Per-call options of an endpoint.
    public struct Options: Sendable {
        /// `false` to skip the service's `Encryption` stage for this endpoint.
        public var encrypted: Bool?
        /// The cache policy: `networkOnly`, `cacheElseNetwork`, `networkElseCache`, `revalidate`, `cacheOnly`.
        public var cachePolicy: String?
        /// The maximum age for `cacheElseNetwork`, in seconds.
        public var cacheMaxAge: Double?
        /// How many times a failed attempt is retried (the service needs a `RetryStage`).
        public var retries: Int?
        /// The per-attempt timeout in seconds.
        public var timeout: Double?
        /// Tags for cancellation and metrics.
        public var tags: [String]
        /// The same-request policy: `allow`, `coalesce`, `cancelPrevious`, `refuseNew`.
        public var sameRequest: String?

        /// No options.
        public init() {
            tags = []
        }
    }

    /// A model: a struct of fields, or (from OpenAPI schemas) a string enumeration, a union or an alias.
    public struct Model: Sendable {
        /// The Swift type name.
        public var name: String
        /// What it is.
        public var summary: String?
        /// The fields, in file order (a struct's).
        public var fields: [Field]
        /// Where the model is declared.
        public var location: SourceLocation
        /// What kind of type the model is.
        public var kind: Kind = .structure
        /// A struct's other members (OpenAPI `additionalProperties` beside `properties`): the type of
        /// their values, kept in an `additionalProperties` dictionary; `nil` when there are none.
        public var additionalProperties: TypeReference? = nil
    }

    /// A field of a model.
    public struct Field: Sendable {
        /// The JSON key.
        public var key: String
        /// The Swift property name.
        public var swiftName: String
        /// The type; optional types may be `null` or absent.
        public var type: TypeReference
        /// What it means.
        public var summary: String?
        /// Where the field is declared.
        public var location: SourceLocation
    }
}
