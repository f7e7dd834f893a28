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
