package import HTTPTypes

/// The standard reason phrases of HTTP status codes (RFC 9110's, as swift-http-types spells them,
/// and the registered codes NIO also names), so that both transports report a status the same way.
///
/// Neither `URLSession` nor NIO (under AsyncHTTPClient) hands over the phrase of the server's status
/// line, so both transports report the standard phrase of a code that has one — `503 Service
/// Unavailable` — whatever the server wrote, and an empty phrase for a code without one.
package enum StandardStatus {
    /// The status for `code` with its standard reason phrase, or `nil` when it has none.
    package static func known(_ code: Int) -> HTTPResponse.Status? {
        byCode[code]
    }

    private static let byCode: [Int: HTTPResponse.Status] = Dictionary(
        uniqueKeysWithValues: all.map { ($0.code, $0) }
    )

    private static let all: [HTTPResponse.Status] =
        [
            .`continue`, .switchingProtocols, .earlyHints, .ok, .created, .accepted, .nonAuthoritativeInformation, .noContent,
            .resetContent, .partialContent, .multipleChoices, .movedPermanently, .found, .seeOther, .notModified, .temporaryRedirect,
            .permanentRedirect, .badRequest, .unauthorized, .forbidden, .notFound, .methodNotAllowed, .notAcceptable,
            .proxyAuthenticationRequired, .requestTimeout, .conflict, .gone, .lengthRequired, .preconditionFailed, .contentTooLarge,
            .uriTooLong, .unsupportedMediaType, .rangeNotSatisfiable, .expectationFailed, .misdirectedRequest, .unprocessableContent,
            .tooEarly, .upgradeRequired, .preconditionRequired, .tooManyRequests, .requestHeaderFieldsTooLarge,
            .unavailableForLegalReasons, .internalServerError, .notImplemented, .badGateway, .serviceUnavailable, .gatewayTimeout,
            .httpVersionNotSupported, .networkAuthenticationRequired,
        ]
        + [
            (102, "Processing"), (207, "Multi-Status"), (208, "Already Reported"), (226, "IM Used"), (305, "Use Proxy"),
            (402, "Payment Required"), (418, "I'm a teapot"), (423, "Locked"), (424, "Failed Dependency"),
            (506, "Variant Also Negotiates"), (507, "Insufficient Storage"), (508, "Loop Detected"), (510, "Not Extended"),
        ].map { HTTPResponse.Status(code: $0, reasonPhrase: $1) }
}
