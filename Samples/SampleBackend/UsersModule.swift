#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The "users" module under `/users-api`: envelope success code `0`, message `"ok"`.
enum UsersModule {
    /// The bearer token `/users-api/session` accepts.
    static let demoToken = "Bearer demo-token"

    /// Answers a request below `/users-api`; `nil` when no route matches.
    static func route(_ request: LoopbackRequest, segments: ArraySlice<Substring>) -> LoopbackResponse? {
        let segments = Array(segments)
        let isRead = request.isRead
        if segments.count == 2, segments[0] == "users", isRead {
            return Self.user(idSegment: segments[1])
        }
        if segments == ["users"], request.method == .POST {
            return Self.createUser(body: request)
        }
        if segments == ["session"], isRead {
            return Self.session(authorization: request.head.headers.first(name: "authorization"))
        }
        return nil
    }

    private static func user(idSegment: Substring) -> LoopbackResponse {
        guard let id = Int(idSegment) else {
            return .envelope(code: 400, msg: "user id must be an integer", status: .badRequest)
        }
        guard let user = Self.users[id] else {
            return .envelope(code: 4004, msg: "user not found")
        }
        return .envelope(code: 0, msg: "ok", data: user)
    }

    private static func createUser(body request: LoopbackRequest) -> LoopbackResponse {
        guard let payload = try? JSONDecoder().decode(NewUser.self, from: Data(request.body.readableBytesView)) else {
            return .envelope(code: 400, msg: "body must be a JSON object with a name", status: .badRequest)
        }
        let created: JSONValue = .object([("id", 100), ("name", .string(payload.name)), ("nickname", nil)])
        return .envelope(code: 0, msg: "ok", data: created, status: .created)
    }

    private static func session(authorization: String?) -> LoopbackResponse {
        guard authorization == Self.demoToken else {
            return .envelope(code: 401_001, msg: "login expired, please log in again")
        }
        return .envelope(code: 0, msg: "ok", data: .object([("user", 1), ("expiresIn", 3600)]))
    }

    /// The body `POST /users-api/users` expects.
    private struct NewUser: Decodable {
        let name: String
    }

    /// The three known users; their payloads carry nulls at several depths on purpose.
    private static let users: [Int: JSONValue] = [
        1: .object([
            ("id", 1), ("name", "Ada Lovelace"), ("nickname", nil), ("email", "ada@example.com"),
            ("profile", .object([("bio", nil), ("city", "London"), ("tags", .array(["math", nil, "poetry"]))])),
        ]),
        2: .object([
            ("id", 2), ("name", "Grace Hopper"), ("nickname", "Amazing Grace"), ("email", nil),
            ("profile", .object([("bio", "Rear admiral and compiler pioneer"), ("city", nil), ("tags", .array([nil, "cobol"]))])),
        ]),
        3: .object([
            ("id", 3), ("name", "Zhang Heng"), ("nickname", "张衡"), ("email", "zhang.heng@example.com"),
            ("profile", .object([("bio", nil), ("city", nil), ("tags", .array([]))])),
        ]),
    ]
}
