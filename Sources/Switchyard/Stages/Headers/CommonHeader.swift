public import HTTPTypes

/// One header field that ``HeadersStage`` adds to every call of a service: a fixed value, or one
/// computed for each call (possibly asynchronously).
public struct CommonHeader: Sendable {
    /// Where the value comes from.
    enum Source: Sendable {
        case fixed(String)
        case dynamic(@Sendable (CallContext) async throws -> String?)
    }

    /// The field's name.
    public let name: HTTPField.Name
    let source: Source

    /// A field with the same value on every call.
    public static func fixed(_ name: HTTPField.Name, _ value: String) -> CommonHeader {
        CommonHeader(name: name, source: .fixed(value))
    }

    /// A field computed for each call and each attempt; return `nil` to leave it out. A thrown error
    /// ends the call before anything is sent.
    public static func dynamic(_ name: HTTPField.Name, _ value: @escaping @Sendable (CallContext) async throws -> String?) -> CommonHeader {
        CommonHeader(name: name, source: .dynamic(value))
    }

    /// This call's value, or `nil` to leave the field out.
    func value(for context: CallContext) async throws -> String? {
        switch source {
        case .fixed(let value): value
        case .dynamic(let make): try await make(context)
        }
    }
}
