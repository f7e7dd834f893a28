/// How arrays are flattened into a query string or a form body.
public enum QueryArrayStyle: Sendable, Hashable {
    /// `ids[]=1&ids[]=2` (as Rails and PHP read it).
    case brackets
    /// `ids=1&ids=2` (Go, Java servlets, most API gateways).
    case repeated
    /// `ids=1,2`.
    case commaSeparated
}
