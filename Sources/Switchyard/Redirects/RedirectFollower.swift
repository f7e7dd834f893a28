import Foundation
import HTTPTypes

/// Follows, for a service, the `3xx` answers its transport returns under a ``RedirectPolicy`` — or
/// refuses a redirect with ``SwitchyardError/Code/redirect``, naming ``StageID/redirects`` as the
/// stage that failed (the stages around the exchange then keep that name rather than their own).
///
/// The registry gives it to the service's pipeline as the follower of its exchanges: it is not one
/// of the listed stages, and a call counts one attempt however many redirects it follows.
struct RedirectFollower: ExchangeFollower {
    /// The service's policy; its maximum is above zero (a policy that follows none needs no follower).
    let policy: RedirectPolicy

    func follows(_ response: Response) -> Bool {
        let code = response.status.code
        return code >= 300 && code <= 399
    }

    func follow(_ response: Response, for request: Request, context: CallContext, send: NextStage) async throws -> Response {
        var response = response
        var current = request
        var hops = 0
        // With a cookie stage, each hop's Set-Cookie is stored and the next hop carries its own cookies.
        let cookies = context.cookieExchange
        while var redirected = try Self.next(after: response, for: current, hops: hops, policy: policy) {
            cookies?.store(response, from: current.url)
            cookies?.attach(to: &redirected)
            hops += 1
            current = redirected
            response = try await send(current, context)
            response.redirectCount = hops
            response.url = current.url
        }
        return response
    }

    /// The statuses that redirect a request to their `Location`.
    static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]

    /// The request to send after `response`, `nil` when it is not a redirect to follow.
    ///
    /// - Parameters:
    ///   - response: the answer to `request`.
    ///   - request: the request that was answered.
    ///   - hops: how many redirects the call has followed so far.
    ///   - policy: the service's policy.
    /// - Throws: ``SwitchyardError/Code/redirect`` when the policy refuses it.
    static func next(after response: Response, for request: Request, hops: Int, policy: RedirectPolicy) throws(SwitchyardError) -> Request?
    {
        let status = response.status.code
        guard redirectStatuses.contains(status), let location = response.headerFields[.location] else { return nil }
        guard hops < policy.maximum else {
            throw refusal("the call was redirected more than \(policy.maximum) times", response)
        }
        guard let current = request.url, let target = URL(string: location, relativeTo: current)?.absoluteURL,
            let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https", target.host != nil
        else {
            throw refusal("the redirect's location is not an http or https URL", response)
        }
        guard !(request.head.scheme?.lowercased() == "https" && scheme == "http") else {
            throw refusal("the call was redirected from https to http, which is never followed", response)
        }
        guard var next = Request(method: request.method, url: target, headerFields: request.headerFields, body: request.body) else {
            throw refusal("the redirect's location cannot be requested", response)
        }
        // 303, and 301/302 after a POST, go on as a GET without the body (as every user agent does);
        // 307 and 308 repeat the method and the body.
        if status == 303 || ((status == 301 || status == 302) && request.method == .post) {
            if next.method != .head { next.method = .get }
            next.body = nil
            next.headerFields[.contentType] = nil
            next.headerFields[.contentLength] = nil
        }
        let sameOrigin =
            next.head.scheme?.lowercased() == request.head.scheme?.lowercased()
            && next.head.authority?.lowercased() == request.head.authority?.lowercased()
        if !sameOrigin {
            guard policy.crossOrigin == .followWithoutCredentials else {
                throw refusal(
                    "the call was redirected to another origin (\(scheme)://\(next.head.authority ?? "?")), which the service's "
                        + "redirect policy refuses",
                    response
                )
            }
            guard next.body == nil else {
                throw refusal("a \(status) redirect to another origin would have to resend the body, which is never done", response)
            }
            next.headerFields = HTTPFields(next.headerFields.filter { RedirectPolicy.safeHeaderFields.contains($0.name.canonicalName) })
        }
        return next
    }

    private static func refusal(_ message: String, _ response: Response) -> SwitchyardError {
        var error = SwitchyardError(code: .redirect, message: message, response: response)
        error.stage = .redirects
        return error
    }
}
