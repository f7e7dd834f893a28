public import Foundation

extension Response {
    /// How many redirects the client followed to get this response under the service's
    /// ``RedirectPolicy``; 0 when it followed none.
    public var redirectCount: Int {
        get { metadata[RedirectLanding.self]?.count ?? 0 }
        set {
            var landing = metadata[RedirectLanding.self] ?? RedirectLanding()
            landing.count = newValue
            metadata[RedirectLanding.self] = landing.isEmpty ? nil : landing
        }
    }

    /// The URL the response came from after the redirects the client followed (``redirectCount``),
    /// or `nil` when it followed none.
    public var url: URL? {
        get { metadata[RedirectLanding.self]?.url }
        set {
            var landing = metadata[RedirectLanding.self] ?? RedirectLanding()
            landing.url = newValue
            metadata[RedirectLanding.self] = landing.isEmpty ? nil : landing
        }
    }
}

/// Where the redirects a response followed led: the response's metadata under its own key, as any
/// feature keeps what it learns about a response.
private struct RedirectLanding: ResponseMetadataKey {
    typealias Value = RedirectLanding
    var count = 0
    var url: URL?
    /// Nothing followed: kept as no metadata at all.
    var isEmpty: Bool { count == 0 && url == nil }
}
