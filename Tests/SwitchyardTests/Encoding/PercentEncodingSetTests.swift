import SwitchyardCore
import SwitchyardSupport
import Testing

/// The percent-encoder's allowed-byte masks against RFC 3986's sets, spelled out here as the RFC
/// writes them, for every byte value.
@Suite("Percent-encoding keeps exactly RFC 3986's sets")
struct PercentEncodingSetTests {
    /// `ALPHA / DIGIT / "-" / "." / "_" / "~"`.
    private static func isUnreserved(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || Array("-._~".utf8).contains(byte)
    }

    /// `"!" / "$" / "&" / "'" / "(" / ")" / "*" / "+" / "," / ";" / "="`.
    private static func isSubDelimiter(_ byte: UInt8) -> Bool { Array("!$&'()*+,;=".utf8).contains(byte) }

    @Test("a component keeps the unreserved set only; literals add sub-delimiters, : @ / and, in a query, ?")
    func masksMatchTheRFC() {
        for value in 0...255 {
            let byte = UInt8(value)
            let literal = Self.isUnreserved(byte) || Self.isSubDelimiter(byte) || Array(":@/".utf8).contains(byte)
            #expect(PercentEncoding.Allowed.component.allows(byte) == Self.isUnreserved(byte), "byte \(value)")
            #expect(PercentEncoding.Allowed.pathLiteral.allows(byte) == literal, "byte \(value)")
            #expect(PercentEncoding.Allowed.queryLiteral.allows(byte) == (literal || byte == UInt8(ascii: "?")), "byte \(value)")
        }
    }
}
