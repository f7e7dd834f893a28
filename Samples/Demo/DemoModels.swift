/// A user of the sample backend's users module. Fields the backend sends as `null` are optionals.
struct User: Decodable, Sendable {
    struct Profile: Decodable, Sendable {
        let bio: String?
        let city: String?
        let tags: [String?]
    }
    let id: Int
    let name: String
    let nickname: String?
    let email: String?
    let profile: Profile?
}

/// A page of the catalog module's article list.
struct ArticlePage: Decodable, Sendable {
    struct Article: Decodable, Sendable {
        let id: Int
        let title: String
        let summary: String?
    }
    let page: Int
    let size: Int
    let total: Int
    let hasMore: Bool
    let items: [Article]
}

/// The session the users module reports for a valid token.
struct Session: Decodable, Sendable {
    let user: Int
    let expiresIn: Int
}

/// A note of the vault module; the backend sends `pinned` as `null`.
struct Note: Decodable, Sendable {
    let id: Int
    let text: String
    let length: Int?
    let pinned: Bool?
}
