/// A ``TokenProvider`` made of two closures — handy when the token lives in an app's session
/// object and the refresh is one call through an ``APIClient``.
public struct ClosureTokenProvider: TokenProvider {
    private let current: @Sendable () async throws -> String?
    private let refresh: @Sendable (String) async throws -> String

    /// Creates a provider.
    /// - Parameters:
    ///   - current: the token to use now, or `nil` for none.
    ///   - refresh: obtains a new token to replace the expired one it is given.
    public init(current: @escaping @Sendable () async throws -> String?, refresh: @escaping @Sendable (String) async throws -> String) {
        self.current = current
        self.refresh = refresh
    }

    /// Calls `current`.
    public func currentToken() async throws -> String? { try await current() }

    /// Calls `refresh`.
    public func refreshToken(replacing expired: String) async throws -> String { try await refresh(expired) }
}
