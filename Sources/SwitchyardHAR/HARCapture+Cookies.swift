import Foundation
import HTTPTypes
import Switchyard

extension HARCapture {
    /// The cookies of every `Cookie` field. Values are hidden when the field itself is secret (the
    /// default `Redaction` hides `Cookie`) or the cookie's name is.
    func requestCookies(_ fields: HTTPFields) -> [HAR.Cookie] {
        let hidesAll = redaction.isSensitive(.cookie)
        return fields[values: .cookie].flatMap { line in
            line.split(separator: ";").compactMap { pair -> HAR.Cookie? in
                guard let (name, value) = Self.nameAndValue(pair) else { return nil }
                return HAR.Cookie(name: name, value: hidesAll ? redaction.replacement : redaction.redactValue(value, named: name))
            }
        }
    }

    /// The cookies of every `Set-Cookie` field with their attributes. Values are hidden as for
    /// ``requestCookies(_:)``, by `Set-Cookie` being secret or the cookie's name.
    func responseCookies(_ fields: HTTPFields) -> [HAR.Cookie] {
        let hidesAll = redaction.isSensitive(.setCookie)
        return fields[values: .setCookie].compactMap { line in
            var parts = line.split(separator: ";")[...]
            guard let first = parts.popFirst(), let (name, value) = Self.nameAndValue(first) else { return nil }
            var cookie = HAR.Cookie(name: name, value: hidesAll ? redaction.replacement : redaction.redactValue(value, named: name))
            for attribute in parts {
                let (key, argument) = Self.nameAndValue(attribute) ?? (attribute.trimmingCharacters(in: .whitespaces), "")
                switch key.lowercased() {
                case "path": cookie.path = argument
                case "domain": cookie.domain = argument
                case "expires": cookie.expires = HTTPDate.parse(argument).map(HARRecorder.timestamp)
                case "httponly": cookie.httpOnly = true
                case "secure": cookie.secure = true
                default: break
                }
            }
            return cookie
        }
    }

    /// `name=value` with white space around both trimmed; `nil` without an `=` or a name.
    private static func nameAndValue(_ pair: Substring) -> (String, String)? {
        guard let equals = pair.firstIndex(of: "=") else { return nil }
        let name = pair[..<equals].trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { return nil }
        return (name, pair[pair.index(after: equals)...].trimmingCharacters(in: .whitespaces))
    }
}
