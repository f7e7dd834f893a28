import HTTPTypes
import Testing

@testable import Switchyard

@Suite("Setting several fields in one pass")
struct HTTPFieldsSetTests {
    static let nonce = HTTPField.Name("X-Nonce")!
    static let stamp = HTTPField.Name("X-Stamp")!

    /// The fields in order, each with its name as written: what `==` on `HTTPFields` does not check.
    static func listed(_ fields: HTTPFields) -> [String] {
        fields.map { "\($0.name.rawName): \($0.value)" }
    }

    /// What setting `fields` one by one with the subscript leaves.
    static func oneByOne(_ start: HTTPFields, _ fields: [HTTPField]) -> HTTPFields {
        var result = start
        for field in fields { result[field.name] = field.value }
        return result
    }

    static func check(_ start: HTTPFields, _ fields: [HTTPField], _ expected: [String]) {
        var set = start
        set.set(fields)
        #expect(listed(set) == expected)
        #expect(listed(set) == listed(oneByOne(start, fields)))
    }

    @Test("names not there yet are appended in their order")
    func appendsNewNames() {
        Self.check(
            [.accept: "*/*"],
            [HTTPField(name: Self.nonce, value: "n1"), HTTPField(name: Self.stamp, value: "1")],
            ["Accept: */*", "X-Nonce: n1", "X-Stamp: 1"]
        )
    }

    @Test("a name there once is replaced where it stands, whatever its case, and keeps the new spelling")
    func replacesInPlace() {
        var start = HTTPFields()
        start.append(HTTPField(name: HTTPField.Name("x-stamp")!, value: "old"))
        start.append(HTTPField(name: .accept, value: "*/*"))
        Self.check(
            start,
            [HTTPField(name: Self.nonce, value: "n1"), HTTPField(name: Self.stamp, value: "2")],
            ["X-Stamp: 2", "Accept: */*", "X-Nonce: n1"]
        )
    }

    @Test("a name there twice falls back to the sets one by one, which remove the second")
    func nameTwiceFallsBack() {
        var start = HTTPFields()
        start.append(HTTPField(name: Self.stamp, value: "a"))
        start.append(HTTPField(name: .accept, value: "*/*"))
        start.append(HTTPField(name: Self.stamp, value: "b"))
        Self.check(
            start,
            [HTTPField(name: Self.stamp, value: "3"), HTTPField(name: Self.nonce, value: "n1")],
            ["X-Stamp: 3", "Accept: */*", "X-Nonce: n1"]
        )
    }

    @Test("a name given twice falls back to the sets one by one: the last value stays")
    func duplicateInputFallsBack() {
        Self.check(
            [.accept: "*/*"],
            [HTTPField(name: Self.stamp, value: "1"), HTTPField(name: Self.nonce, value: "n1"), HTTPField(name: Self.stamp, value: "2")],
            ["Accept: */*", "X-Stamp: 2", "X-Nonce: n1"]
        )
    }

    @Test("names of the same length are told apart by their text")
    func sameLengthNames() {
        let other = HTTPField.Name("X-Stomp")!
        Self.check(
            [other: "kept"],
            [HTTPField(name: Self.stamp, value: "1")],
            ["X-Stomp: kept", "X-Stamp: 1"]
        )
    }

    @Test("no fields leave the list as it is")
    func nothingToSet() {
        Self.check([.accept: "*/*"], [], ["Accept: */*"])
    }
}
