import Foundation

/// A user name and password for HTTP Basic authentication (RFC 7617), as a ``TokenProvider`` for
/// ``AuthorizationStage/basic(_:)``.
///
/// The pair is the stage's "token": `Authorization: Basic base64(user:password)` on every call. The
/// account is the user name, so caches and shared calls are partitioned per user. Basic credentials
/// cannot be refreshed: a refused call returns its `401` as it is.
public struct BasicCredentials: TokenProvider {
    /// The user name; it must not contain a colon.
    public let user: String
    private let password: String

    /// Creates credentials.
    ///
    /// - Parameters:
    ///   - user: the user name (no colon, by RFC 7617).
    ///   - password: the password.
    public init(user: String, password: String) {
        self.user = user
        self.password = password
    }

    /// `user:password`, which ``AuthorizationStage/basic(_:)`` encodes.
    public func currentToken() async throws -> String? { "\(user):\(password)" }

    /// Refuses: Basic credentials have nothing to refresh with.
    public func refreshToken(replacing expired: String) async throws -> String {
        throw SwitchyardError(code: .authentication, message: "the server refused the Basic credentials of user '\(user)'")
    }

    /// The user name.
    public func account() async throws -> String? { user }
}

extension AuthorizationStage {
    /// An authorization stage for HTTP Basic authentication: `Authorization: Basic
    /// base64(user:password)` on every call, UTF-8 encoded, and no refresh — a `401` is returned to
    /// the call as it is (``SwitchyardError/Code/httpStatus``), promptly.
    ///
    /// ```swift
    /// let stages: [any Stage] = [AuthorizationStage.basic(BasicCredentials(user: "ada", password: "s3cret"))]
    /// ```
    ///
    /// - Parameter credentials: the user name and password.
    /// - Returns: the stage.
    public static func basic(_ credentials: BasicCredentials) -> AuthorizationStage {
        AuthorizationStage(provider: credentials, trigger: Trigger(statuses: [])) { pair in
            "Basic " + Data(pair.utf8).base64EncodedString()
        }
    }
}
