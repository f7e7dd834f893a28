import NIOCore
import NIOHTTP1

/// `GET /auth/{basic|digest|bearer}`: a `401 Unauthorized` carrying a `WWW-Authenticate` challenge
/// of that scheme and a JSON body — what a client must hand back as a response, promptly, instead of
/// answering the challenge itself. `/auth/basic` answers `200` to `Authorization: Basic` with the
/// user `switchyard` and the password `secret`.
enum AuthRoutes {
    /// The challenge of each scheme.
    static let challenges = [
        "basic": #"Basic realm="switchyard-sample", charset="UTF-8""#,
        "digest":
            #"Digest realm="switchyard-sample", qop="auth", nonce="dcd98b7102dd2f0e8b11d0f600bfb0c0", opaque="5ccc069c403ebaf9f0171e9517f40e41""#,
        "bearer": #"Bearer realm="switchyard-sample", error="invalid_token""#,
    ]

    /// `switchyard:secret`, as a Basic credential.
    static let basicCredential = "Basic c3dpdGNoeWFyZDpzZWNyZXQ="

    /// Answers the route; `nil` for an unknown scheme.
    static func respond(to request: LoopbackRequest, scheme: Substring) -> LoopbackResponse? {
        guard let challenge = challenges[String(scheme)] else { return nil }
        if scheme == "basic", request.head.headers.first(name: "authorization") == basicCredential {
            return .json(.object([("authenticated", true), ("user", "switchyard")]))
        }
        var response = LoopbackResponse.json(
            .object([("error", "unauthorized"), ("scheme", .string(String(scheme)))]),
            status: .unauthorized
        )
        response.extraHeaders = [("WWW-Authenticate", challenge)]
        return response
    }
}
