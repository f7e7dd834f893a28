import Foundation
import SwitchyardSupport

extension Redaction {
    /// A request target (`/path?query`) with its secret path segments and secret query values
    /// replaced. Text before the first `/` (a method, a scheme) is kept as it is, so an endpoint name
    /// such as `POST /reset/abc` is redacted like its target.
    ///
    /// A path segment is hidden when one of ``pathRules`` hides it, or when the segment before it is
    /// named like a secret by ``nameFragments`` and ``names`` — the way a parameter's name hides its
    /// value: `/password-reset/<redacted>`, `/users/42/tokens/<redacted>`, `/sessions/<redacted>`.
    /// A whole-segment placeholder of a path template (`{token}`) is never a value and is kept.
    public func redactTarget(_ target: String) -> String {
        redactedTarget(target).whole
    }

    /// ``redactTarget(_:)``'s result, and its path alone (what precedes the `?`), from one pass.
    ///
    /// `template` is the call's endpoint name: when it carries a path template with placeholders
    /// (`GET /users/{id}/tokens/{token}`, the name of a call made at the call site) whose literal
    /// segments match the end of the path, the value of every placeholder named like a secret is
    /// hidden too, wherever it sits (`/users/{apiKey}`). A template only ever hides more: its literal
    /// segments are not spared, because a value interpolated into a call's path string is a literal
    /// of that "template".
    package func redactedTarget(_ target: String, template: String = "") -> (path: String, whole: String) {
        let (pathPart, query) = Request.split(target: target)
        let path = pathRules.isEmpty && !hidesNames ? String(pathPart) : redactPath(pathPart, template: template)
        guard let query else { return (path, path) }
        return (path, path + "?" + redactPairs(query))
    }

    /// `path` with every segment that a rule, the name before it or its template's placeholder hides
    /// replaced.
    private func redactPath(_ path: Substring, template: String) -> String {
        // Split on the `/` byte (not on Characters), and join again only when a segment was hidden.
        var segments = path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).map { Substring($0) }
        guard segments.count > 1 else { return String(path) }
        let secretPlaceholders = hidesNames ? secretPlaceholderIndices(of: segments, template: template) : []
        var previous = PercentEncoding.decode(segments[0], plusIsSpace: false)
        // Whether `previous` names a secret; a placeholder names nothing.
        var afterSecretName = isSensitive(previous)
        var hidden = false
        for index in segments.indices.dropFirst() {
            let segment = PercentEncoding.decode(segments[index], plusIsSpace: false)
            let isPlaceholder = Self.isPlaceholder(segments[index])
            if !segment.isEmpty, !isPlaceholder,
                afterSecretName || secretPlaceholders.contains(index) || pathRules.contains(where: { $0.hides(segment, after: previous) })
            {
                segments[index] = replacement[...]
                hidden = true
            }
            afterSecretName = !isPlaceholder && isSensitive(segment)
            previous = segment
        }
        return hidden ? segments.joined(separator: "/") : String(path)
    }

    /// The indices of `segments` that fill a placeholder named like a secret in `template`, aligned
    /// at the end of the path (the base URL's own segments come first); none when the template has no
    /// placeholder, is longer than the path or its literal segments do not match it.
    private func secretPlaceholderIndices(of segments: [Substring], template: String) -> Set<Int> {
        guard let templateSegments = Self.templateSegments(template), templateSegments.count < segments.count else { return [] }
        let offset = segments.count - templateSegments.count
        var indices: Set<Int> = []
        for (position, literal) in templateSegments.enumerated() {
            let index = offset + position
            let names = Self.placeholderNames(literal)
            if names.isEmpty {
                guard literal == segments[index] || literal == PercentEncoding.decode(segments[index], plusIsSpace: false) else {
                    return []
                }
            } else if names.contains(where: { isSensitive($0) }) {
                indices.insert(index)
            }
        }
        return indices
    }

    /// The segments of the path template an endpoint name carries (`GET /users/{id}` gives `users`
    /// and `{id}`; an absolute template's path only), or `nil` when it carries no placeholder.
    private static func templateSegments(_ name: String) -> [Substring]? {
        guard name.utf8.contains(UInt8(ascii: "{")) else { return nil }
        var rest = Substring(name)
        if let scheme = rest.range(of: "://") { rest = rest[scheme.upperBound...] }
        guard let slash = rest.firstIndex(of: "/") else { return nil }
        let path = Request.split(target: String(rest[slash...])).path
        // What precedes the leading `/` is no segment of the template.
        return path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).dropFirst().map { Substring($0) }
    }

    /// The names of the `{name}` placeholders in one template segment.
    private static func placeholderNames(_ segment: Substring) -> [Substring] {
        var names: [Substring] = []
        var rest = segment[...]
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            names.append(rest[rest.index(after: open)..<close])
            rest = rest[rest.index(after: close)...]
        }
        return names
    }

    /// Whether a raw segment is a whole template placeholder (`{id}`): a request's own path never
    /// holds one, since `{` and `}` are percent-encoded in a target.
    private static func isPlaceholder(_ segment: Substring) -> Bool {
        let utf8 = segment.utf8
        guard utf8.count > 2, utf8.first == UInt8(ascii: "{"), utf8.last == UInt8(ascii: "}") else { return false }
        return !utf8.dropFirst().dropLast().contains { $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "}") || $0 == UInt8(ascii: "%") }
    }
}
