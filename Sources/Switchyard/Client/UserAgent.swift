import Foundation
import HTTPTypes

/// The `User-Agent` a client puts on every call that has none: `<app>/<version> Switchyard/<version>
/// (<os> <os version>)`, the shape RFC 9110 asks for (product tokens, most significant first).
///
/// ``APIClient`` uses ``default`` unless you give it another; a service overrides it with its own
/// field (``ServiceDefaults/headerFields``), and an endpoint or a call with theirs.
///
/// ```swift
/// let client = APIClient(registry: registry, userAgent: UserAgent(app: "Shop", version: "4.2.0"))
/// // User-Agent: Shop/4.2.0 Switchyard/0.2.0 (Linux 6.1.0)
/// ```
public struct UserAgent: Sendable, Hashable, CustomStringConvertible {
    /// This library's version, as it appears in the field.
    public static let libraryVersion = "0.2.0"

    /// The whole field value.
    public let value: String
    /// The field itself, made (and its value checked) once rather than on every call.
    let field: HTTPField
    /// The fields of a call that carries none of its own: this one alone, and followed by
    /// `Accept: application/json` for an endpoint that decodes JSON. Made once; a call copies them
    /// into storage of its own only as it reserves room for its stages' fields.
    let fields: HTTPFields
    let fieldsAcceptingJSON: HTTPFields

    /// A field value exactly as given.
    ///
    /// - Parameter value: the `User-Agent` value.
    public init(_ value: String) {
        let field = HTTPField(name: .userAgent, value: value)
        self.value = value
        self.field = field
        // Made from the field, so its value is checked once.
        self.fields = HTTPFields([field])
        self.fieldsAcceptingJSON = HTTPFields([field, HTTPField(name: .accept, value: "application/json")])
    }

    /// Two user agents are equal when their field values are: the fields are made from the value.
    public static func == (lhs: UserAgent, rhs: UserAgent) -> Bool { lhs.value == rhs.value }

    /// Hashes the field value, which the fields are made from.
    public func hash(into hasher: inout Hasher) { hasher.combine(value) }

    /// `<app>/<version> Switchyard/<libraryVersion> (<os>)`; characters a product token cannot hold
    /// (spaces, slashes …) become `-`.
    ///
    /// - Parameters:
    ///   - app: the app's or service's name.
    ///   - version: its version, or `nil` to leave it out.
    public init(app: String, version: String?) {
        var product = Self.token(app)
        if let version, !version.isEmpty { product += "/" + Self.token(version) }
        self.init("\(product) Switchyard/\(Self.libraryVersion) (\(Self.system))")
    }

    /// The running app's name and version: the bundle's `CFBundleName` and
    /// `CFBundleShortVersionString` where there is a bundle, else the process's name.
    public static let `default`: UserAgent = {
        let info = Bundle.main.infoDictionary
        let name = info?["CFBundleName"] as? String ?? ProcessInfo.processInfo.processName
        return UserAgent(app: name.isEmpty ? "app" : name, version: info?["CFBundleShortVersionString"] as? String)
    }()

    /// The field value.
    public var description: String { value }

    /// The operating system and its version.
    private static var system: String {
        let version = ProcessInfo.processInfo.operatingSystemVersion
        #if os(iOS)
        let name = "iOS"
        #elseif os(macOS)
        let name = "macOS"
        #elseif os(tvOS)
        let name = "tvOS"
        #elseif os(watchOS)
        let name = "watchOS"
        #elseif os(visionOS)
        let name = "visionOS"
        #elseif os(Linux)
        let name = "Linux"
        #elseif os(Windows)
        let name = "Windows"
        #else
        let name = "unknown"
        #endif
        return "\(name) \(version.majorVersion).\(version.minorVersion).\(version.patchVersion)"
    }

    /// `text` with every character that is not a token character (RFC 9110 `tchar`) replaced by `-`.
    private static func token(_ text: String) -> String {
        let allowed = Set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        return String(text.map { allowed.contains($0) ? $0 : "-" })
    }
}
