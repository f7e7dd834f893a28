import Foundation
import HTTPTypes

/// One call's use of its ``CookieJar`` partition: what the ``CookieStage`` puts in the call's context
/// so that redirects the service follows (inside every stage) store each hop's `Set-Cookie` fields
/// and send the cookies of the hop's own URL, as a browser does.
struct CookieExchange: Sendable {
    /// The context key it travels under.
    enum Key: CallContextKey {
        typealias Value = CookieExchange
    }

    let jar: CookieJar
    let partition: CookieJar.Partition
    let now: @Sendable () -> Date
    /// The `Cookie` value the request carried before the stage added the jar's: the app's own.
    let own: String?

    /// Sets the request's `Cookie` field to the app's own cookies (when the field survived — a
    /// cross-origin redirect drops it) followed by the jar's for the request's URL.
    func attach(to request: inout Request) {
        guard let url = request.url else { return }
        let own = request.headerFields[.cookie] == nil ? nil : own
        let stored = jar.header(for: url, in: partition, now: now())
        let value = [own, stored].compactMap { $0 }.joined(separator: "; ")
        request.headerFields[.cookie] = value.isEmpty ? nil : value
    }

    /// Stores the `Set-Cookie` fields of a response that came from the network for a request to `url`.
    func store(_ response: Response, from url: URL?) {
        guard response.source == .network, let url = response.url ?? url else { return }
        let fields = response.headerFields[values: .setCookie]
        guard !fields.isEmpty else { return }
        jar.store(fields, from: url, in: partition, now: now())
    }
}

extension CallContext {
    /// The call's cookie exchange, when its service has a ``CookieStage``.
    var cookieExchange: CookieExchange? {
        get { self[CookieExchange.Key.self] }
        set { self[CookieExchange.Key.self] = newValue }
    }
}
