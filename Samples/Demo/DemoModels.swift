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

/// A shop order as the app sees it: the envelope gone, nulls stripped, the decrypted payload decoded.
struct ShopOrder: Decodable, Sendable {
    let id: Int
    let status: String
    let coupon: String?
    /// The top-level string members the shop received (the common parameters among them).
    let received: [String: String]

    enum CodingKeys: String, CodingKey { case id, status, coupon, received }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int.self, forKey: .id)
        status = try container.decode(String.self, forKey: .status)
        coupon = try container.decodeIfPresent(String.self, forKey: .coupon)
        let raw = try container.decodeIfPresent([String: Member].self, forKey: .received) ?? [:]
        received = raw.compactMapValues(\.text)
    }

    /// One received member: its text when it is a string.
    struct Member: Decodable, Sendable {
        let text: String?
        init(from decoder: any Decoder) throws {
            text = try? decoder.singleValueContainer().decode(String.self)
        }
    }
}

/// One line of the assistant module's JSON Lines progress feed.
struct JobProgress: Decodable, Sendable {
    let step: Int
    let steps: Int
    let percent: Int
    let state: String
}
