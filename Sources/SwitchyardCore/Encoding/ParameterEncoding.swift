public import HTTPTypes

/// Where and how a call's `Parameters` are written.
///
/// Each endpoint may choose one; otherwise the service's default (`ServiceDefaults.parameterEncoding`)
/// applies, which is ``automatic`` unless you change it.
///
/// A service default that puts parameters in a body (``json``, ``form``, ``jsonFormField(_:)``) applies
/// only to methods that carry a body: GET, HEAD, DELETE and OPTIONS calls that take the service's
/// default put their parameters in the query, so `defaults.parameterEncoding = .form` never turns
/// `GET /articles?page=2` into a GET with a form body. An endpoint (or an intensive call) that names a
/// body encoding for one of those methods gets it — servers and proxies may ignore or refuse a body
/// on them, so do it only for a backend that reads one.
public enum ParameterEncoding: Sendable, Hashable, CustomStringConvertible {
    /// In the query string, for every method.
    case query
    /// As a JSON object in the body (`Content-Type: application/json`), keys sorted.
    case json
    /// As `application/x-www-form-urlencoded` in the body.
    case form
    /// As `application/x-www-form-urlencoded` in the body with one field, `name`, whose value is
    /// the parameters as one JSON object (keys sorted) — what legacy backends expect as
    /// `data={"page":1,…}`. Common parameters added by `CommonParametersStage` go beside it as
    /// fields of their own.
    case jsonFormField(String)
    /// In the query string for GET, HEAD, DELETE and OPTIONS; as JSON in the body for every other
    /// method (POST, PUT, PATCH and custom methods).
    case automatic

    /// The concrete encoding for a method: ``automatic`` resolves to ``query`` or ``json``.
    public func resolved(for method: HTTPRequest.Method) -> ParameterEncoding {
        guard self == .automatic else { return self }
        switch method {
        case .get, .head, .delete, .options: return .query
        default: return .json
        }
    }

    /// The concrete encoding for a method when this is a service's default rather than the
    /// endpoint's own choice: GET, HEAD, DELETE and OPTIONS always resolve to ``query``.
    public func resolvedAsDefault(for method: HTTPRequest.Method) -> ParameterEncoding {
        switch method {
        case .get, .head, .delete, .options: .query
        default: resolved(for: method)
        }
    }

    /// The encoding's name.
    public var description: String {
        switch self {
        case .query: "query"
        case .json: "json"
        case .form: "form"
        case .jsonFormField(let name): "json in form field '\(name)'"
        case .automatic: "automatic"
        }
    }

}
