import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTesting

/// A token provider whose signed-in user the test changes: it hands out that user's token, refreshes
/// by suffixing it, and announces every change when `announces` is set.
final class SwitchableProvider: TokenProvider, Sendable {
    private let user: Locked<String?>
    private let signal: TokenChanges?
    let asked = Locked(0)

    init(user: String?, announces: Bool = false) {
        self.user = Locked(user)
        self.signal = announces ? TokenChanges() : nil
    }

    var changes: TokenChanges? { signal }

    func signIn(_ name: String?) {
        user.withLock { $0 = name }
        signal?.announce()
    }

    func currentToken() async throws -> String? {
        asked.withLock { $0 += 1 }
        return user.withLock { $0 }.map { "token-\($0)" }
    }

    func refreshToken(replacing expired: String) async throws -> String { expired + "-fresh" }
}

/// Answers `GET /me` with the profile of the user whose token the request carries (from the
/// `Authorization` field or an `access_token` query parameter), 401 without one.
func makeProfileTransport() -> MockTransport {
    MockTransport { request, _ in
        let bearer = request.headerFields[.authorization].map { String($0.dropFirst("Bearer token-".count)) }
        let query = request.query.flatMap { query in
            query.split(separator: "&").first { $0.hasPrefix("access_token=") }.map { String($0.dropFirst("access_token=".count)) }
        }
        guard let user = bearer ?? query else { return Response(status: .unauthorized) }
        return Response(
            status: .ok,
            headerFields: [.contentType: "application/json"],
            body: Data(#"{"id":1,"name":"\#(user)"}"#.utf8)
        )
    }
}

/// `GET /me`, cached with `cacheElseNetwork`.
struct GetMe: Endpoint {
    typealias Output = User
    var service: ServiceID { .users }
    var method: HTTPRequest.Method { .get }
    var path: String { "/me" }
    var options: CallOptions {
        var options = CallOptions()
        options.cache(.cacheElseNetwork(maxAge: .seconds(3600)))
        return options
    }
}
