import Foundation
import HTTPTypes
import SwitchyardSupport

/// One credential a request carries, as ``CredentialPartition`` reads it: a credential header field
/// (``CredentialPartition/isCredential(_:)``), or a query parameter, form field or top-level JSON
/// member whose name ``Redaction/default`` marks as secret.
struct CredentialPart: Hashable, Sendable {
    /// The header field's or parameter's name, lower-cased.
    let name: String
    /// Where it is, its name and its value: `header:authorization=Bearer …`, `query:access_token=…`.
    let text: String
    /// The value, percent-decoded for parameters (a JSON member's value as written).
    let value: String

    /// The credentials `request` carries.
    static func parts(of request: Request) -> [CredentialPart] {
        var parts: [CredentialPart] = []
        for field in request.headerFields where CredentialPartition.isCredential(field.name) {
            let name = field.name.canonicalName
            parts.append(CredentialPart(name: name, text: "header:" + name + "=" + field.value, value: field.value))
        }
        if let query = request.query { appendPairs(of: query, kind: "query:", to: &parts) }
        guard case .bytes(let body) = request.body, !body.isEmpty else { return parts }
        let contentType = request.headerFields[.contentType]?.lowercased() ?? ""
        if contentType.hasPrefix("application/x-www-form-urlencoded") {
            appendPairs(of: String(decoding: body, as: UTF8.self)[...], kind: "form:", to: &parts)
        } else if contentType.hasPrefix("application/json") || contentType.contains("+json"),
            let members = try? JSONMembers.ordered(of: body)
        {
            let bytes = [UInt8](body)
            for member in members where Redaction.default.isSensitive(member.name) {
                let value = String(decoding: bytes[member.member.valueRange], as: UTF8.self)
                let text = member.member.isString ? JSONScan.stringValue(bytes, member.member.valueRange) : value
                parts.append(CredentialPart(name: member.name.lowercased(), text: "json:" + member.name + "=" + value, value: text))
            }
        }
        return parts
    }

    /// The `name=value` pairs of `text` whose decoded name is secret.
    private static func appendPairs(of text: Substring, kind: String, to parts: inout [CredentialPart]) {
        for pair in text.split(separator: "&") {
            let separator = pair.firstIndex(of: "=")
            let name = PercentEncoding.decode(separator.map { pair[..<$0] } ?? pair)
            guard Redaction.default.isSensitive(name) else { continue }
            let value = separator.map { PercentEncoding.decode(pair[pair.index(after: $0)...]) } ?? ""
            parts.append(CredentialPart(name: name.lowercased(), text: kind + pair, value: value))
        }
    }
}
