import Foundation
import Switchyard
import Testing

@Suite("Null stripping never changes what a payload means: duplicate member names")
struct DuplicateNamesTests {
    private func strip(_ json: String, _ rule: JSONSanitizer.DuplicateNames = .refuse) throws(SwitchyardError) -> String {
        String(decoding: try JSONSanitizer(duplicateNames: rule).stripNulls(Data(json.utf8)), as: UTF8.self)
    }

    @Test(
        "a name repeated in one object with a null among its values is refused with ambiguousJSON, naming it",
        arguments: [
            (#"{"a":1,"a":null}"#, "a"), (#"{"nickname":null,"nickname":"new"}"#, "nickname"),
            (#"{"x":{"b":[1],"c":null,"c":2}}"#, "c"), (#"[{"k":null,"k":null}]"#, "k"),
        ]
    )
    func refused(json: String, name: String) {
        let error = #expect(throws: SwitchyardError.self) { try strip(json) }
        #expect(error?.code == .ambiguousJSON)
        #expect(error?.message.contains("'\(name)'") == true)
    }

    @Test(
        "duplicates without a null, and equal names in different objects, are kept byte for byte",
        arguments: [
            (#"{"a":1,"a":2,"b":null}"#, #"{"a":1,"a":2}"#), (#"{"a":{"n":null},"b":{"n":1}}"#, #"{"a":{},"b":{"n":1}}"#),
            (#"{"a":"a","b":null,"c":["a","a"]}"#, #"{"a":"a","c":["a","a"]}"#),
        ]
    )
    func kept(json: String, expected: String) throws {
        #expect(try strip(json) == expected)
    }

    @Test(
        "names are compared as a decoder's dictionary compares them: canonically equivalent spellings are one name",
        arguments: [
            // KELVIN SIGN is canonically equivalent to "K"; "é" precomposed and decomposed are one name.
            #"{"K":null,"\u212a":1}"#, "{\"K\":null,\"\u{212A}\":1}", "{\"caf\u{E9}\":null,\"cafe\u{301}\":1}",
        ]
    )
    func canonicallyEquivalent(json: String) {
        let error = #expect(throws: SwitchyardError.self) { try strip(json) }
        #expect(error?.code == .ambiguousJSON)
    }

    @Test("plain names that share a prefix or a length are different names")
    func plainNamesDiffer() throws {
        #expect(try strip(#"{"ab":null,"abc":1,"ba":2,"a":3}"#) == #"{"abc":1,"ba":2,"a":3}"#)
    }

    @Test("names that are not plain are still different names when their texts differ")
    func otherNamesDiffer() throws {
        #expect(try strip("{\"\u{E9}\":null,\"\u{FC}\":1,\"e\\u0301x\":2,\"\u{EB}x\":null}") == "{\"\u{FC}\":1,\"e\\u0301x\":2}")
    }

    @Test("names are compared decoded: an escaped spelling of a name is the same name")
    func escapedSpelling() {
        let error = #expect(throws: SwitchyardError.self) { try strip(#"{"a":null,"\u0061":1}"#) }
        #expect(error?.code == .ambiguousJSON)
    }

    /// An object with `count` distinct names `m0`, `m1`, … (every third one null), then `tail`.
    private func wide(_ count: Int, tail: String) -> String {
        "{" + (0..<count).map { #""m\#($0)":\#($0 % 3 == 0 ? "null" : "\($0)")"# }.joined(separator: ",") + tail + "}"
    }

    @Test(
        "objects wider than the linear scan's bound are checked as fully as narrow ones",
        arguments: [JSONDuplicateNamesBound.below, .at, .above, .far]
    )
    func wideObjects(width: JSONDuplicateNamesBound) throws {
        // A repeat of the first name (whose value was null), after every other name.
        let repeated = #expect(throws: SwitchyardError.self) { try strip(wide(width.names, tail: #","m0":5"#)) }
        #expect(repeated?.code == .ambiguousJSON)
        #expect(repeated?.message.contains("'m0'") == true)
        // A repeat of the last null-valued name, which came after the object outgrew the linear scan.
        let late = (width.names - 1) / 3 * 3
        let lateRepeat = #expect(throws: SwitchyardError.self) { try strip(wide(width.names, tail: #","m\#(late)":5"#)) }
        #expect(lateRepeat?.message.contains("'m\(late)'") == true)
        // A repeat of a name whose values are both not null is kept.
        let kept = try strip(wide(width.names, tail: #","m1":7"#))
        #expect(kept.hasSuffix(#","m1":7}"#))
        // The same names in a sibling object are not duplicates.
        let siblings = "[" + wide(width.names, tail: "") + "," + wide(width.names, tail: "") + "]"
        #expect(try strip(siblings).hasPrefix("[{"))
    }

    @Test("a wide object holding a wide object: each checks its own names, before and after the inner one")
    func nestedWideObjects() throws {
        let inner = wide(20, tail: "")
        // The outer object's first (null) name repeated after the inner object closed: refused.
        let outerRepeat = #expect(throws: SwitchyardError.self) {
            try strip(wide(20, tail: #","inner":\#(inner),"m0":1"#))
        }
        #expect(outerRepeat?.message.contains("'m0'") == true)
        // A name of the inner object (null there) given again in the outer object is not a duplicate.
        let separate = try strip(#"{"inner":\#(inner),"m3":5}"#)
        #expect(separate.hasSuffix(#","m3":5}"#))
    }

    @Test(
        "a name dropped and named again is refused however many members were dropped before it",
        arguments: [1, 7, 8, 9, 40]
    )
    func manyDroppedMembers(dropped: Int) {
        let nulls = (0..<dropped).map { #""n\#($0)":null"# }.joined(separator: ",")
        // The last dropped name repeated with a value, and the first one repeated as a null.
        let last = #expect(throws: SwitchyardError.self) { try strip("{" + nulls + #","n\#(dropped - 1)":1}"#) }
        #expect(last?.message.contains("'n\(dropped - 1)'") == true)
        let first = #expect(throws: SwitchyardError.self) { try strip("[1,{" + nulls + #","n0":null}]"#) }
        #expect(first?.message.contains("'n0'") == true)
    }

    @Test(
        "a dropped name is looked for as a name, not as text: colons and names inside strings and other objects",
        arguments: [
            (#"{"a":null,"b":"12:30","c":"a"}"#, #"{"b":"12:30","c":"a"}"#), (#"{"a":null,"b":"\"a\":1"}"#, #"{"b":"\"a\":1"}"#),
            (#"[{"a":null},{"a":null},{"a":1}]"#, #"[{},{},{"a":1}]"#), (#"{"x":{"a":null},"a":1}"#, #"{"x":{},"a":1}"#),
            (#"{"ab":null,"b":1,"a":2}"#, #"{"b":1,"a":2}"#),
        ]
    )
    func droppedNamesAsNames(json: String, expected: String) throws {
        #expect(try strip(json) == expected)
    }

    @Test("spacing around a repeated name does not hide it", arguments: [#"{ "a" : null , "a" : 1 }"#, "{\n\t\"a\":1,\r\n\"a\" :null}"])
    func spacedRepeat(json: String) {
        let error = #expect(throws: SwitchyardError.self) { try strip(json) }
        #expect(error?.code == .ambiguousJSON)
    }

    @Test("a document without nulls is not checked at all: duplicates pass unchanged")
    func noNullsUnchecked() throws {
        #expect(try strip(#"{"a":1,"a":2}"#) == #"{"a":1,"a":2}"#)
    }

    @Test("the rule exists because decoders disagree: Foundation's JSONDecoder reads the first member")
    func whyItMatters() throws {
        struct Profile: Decodable { let nickname: String? }
        let before = try JSONDecoder().decode(Profile.self, from: Data(#"{"nickname":null,"nickname":"new"}"#.utf8))
        let after = try JSONDecoder().decode(Profile.self, from: Data(try strip(#"{"nickname":null,"nickname":"new"}"#, .ignore).utf8))
        #expect(before.nickname == nil)
        #expect(after.nickname == "new")
    }
}

/// Object widths around the duplicate-name check's linear bound (16 names).
enum JSONDuplicateNamesBound: Int, CaseIterable, Sendable, CustomTestStringConvertible {
    case below = 15
    case at = 16
    case above = 17
    case far = 200

    var names: Int { rawValue }
    var testDescription: String { "\(rawValue) names" }
}
