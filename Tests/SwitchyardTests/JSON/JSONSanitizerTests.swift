import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTesting
import Testing

@Suite("JSON sanitizer: hand cases, errors and the null-stripping stage")
struct JSONSanitizerTests {
    private func strip(_ json: String, arrays: Bool = false, maximumDepth: Int = 512) throws -> String {
        let output = try JSONSanitizer(removeNullArrayElements: arrays, maximumDepth: maximumDepth).stripNulls(Data(json.utf8))
        return String(decoding: output, as: UTF8.self)
    }

    private func failure(_ json: String, maximumDepth: Int = 512) -> SwitchyardError? {
        do {
            _ = try JSONSanitizer(maximumDepth: maximumDepth).stripNulls(Data(json.utf8))
            return nil
        } catch {
            return error
        }
    }

    @Test("null members are dropped with their commas, wherever they stand")
    func nullMembersAndCommas() throws {
        #expect(try strip(#"{"a":null,"b":1}"#) == #"{"b":1}"#)
        #expect(try strip(#"{"a":1,"b":null}"#) == #"{"a":1}"#)
        #expect(try strip(#"{"a":1,"b":null,"c":2}"#) == #"{"a":1,"c":2}"#)
        #expect(try strip(#"{"a":null,"b":null,"c":3,"d":null,"e":4,"f":null}"#) == #"{"c":3,"e":4}"#)
    }

    @Test("objects whose members are all null become {}")
    func allNullObjects() throws {
        #expect(try strip(#"{"a":null}"#) == "{}")
        #expect(try strip(#"{"a":null,"b":null,"c":null}"#) == "{}")
        #expect(try strip(#"{"outer":{"a":null,"b":null}}"#) == #"{"outer":{}}"#)
        #expect(try strip("{}") == "{}")
    }

    @Test("nulls are dropped at every depth")
    func nullsAtDepth() throws {
        let input = #"{"a":{"b":null,"c":{"d":null,"e":{"f":null,"g":[{"h":null,"i":1}]}}},"j":null,"k":[[{"l":null}]]}"#
        #expect(try strip(input) == #"{"a":{"c":{"e":{"g":[{"i":1}]}}},"k":[[{}]]}"#)
    }

    @Test("null array elements are kept by default and dropped on request")
    func arrays() throws {
        #expect(try strip("[null,1,null]") == "[null,1,null]")
        #expect(try strip("[null,1,null]", arrays: true) == "[1]")
        #expect(try strip("[null]", arrays: true) == "[]")
        #expect(try strip("[null,null,null]", arrays: true) == "[]")
        #expect(try strip("[1,null,2,null,null,3]", arrays: true) == "[1,2,3]")
        #expect(try strip(#"[[null],null,{"a":null,"b":[null,{}]}]"#, arrays: true) == #"[[],{"b":[{}]}]"#)
        #expect(try strip(#"[[null],null,{"a":null,"b":[null,{}]}]"#) == #"[[null],null,{"b":[null,{}]}]"#)
    }

    @Test("strings that contain null, quotes, escapes and braces are kept as written")
    func trickyStrings() throws {
        let input = #"{"a":"null","b":"x\"null\"","null":1,"c":"}\"{[,:","d":"\\","e":null,"f":"\/\b\f\n\r\t"}"#
        #expect(try strip(input) == #"{"a":"null","b":"x\"null\"","null":1,"c":"}\"{[,:","d":"\\","f":"\/\b\f\n\r\t"}"#)
        #expect(try strip(#"{"\"":null,"\\":"\"","k":null}"#) == #"{"\\":"\""}"#)
    }

    @Test("numbers are kept byte for byte")
    func numbers() throws {
        let input = #"[-0.0,1E+2,1.5e-10,0,-0,12.50,1e5,2E-0,123456789012345678901234567890,-1.000]"#
        #expect(try strip(input) == input)
        #expect(try strip(#"{"x":-0.0,"y":null,"z":1E+2}"#) == #"{"x":-0.0,"z":1E+2}"#)
    }

    @Test("non-ASCII text and \\u escapes are kept verbatim")
    func unicode() throws {
        let input = #"{"名前":"張衡 🚀 é","e":"\u00e9\ud83d\ude80\u0000","gone":null,"ü":["ß",null]}"#
        #expect(try strip(input) == #"{"名前":"張衡 🚀 é","e":"\u00e9\ud83d\ude80\u0000","ü":["ß",null]}"#)
    }

    @Test("strings of every short length, with an escape or non-ASCII text anywhere, are copied whole, also at the end of the input")
    func stringLengthsAndPositions() throws {
        for length in 0..<20 {
            for special in ["", #"\""#, #"\u00e9"#, "é", "张", "🚀"] {
                for offset in 0...length {
                    var characters = [String](repeating: "x", count: length)
                    characters.insert(special, at: offset)
                    let text = "\"" + characters.joined() + "\""
                    #expect(try strip("[ " + text + " , null ] ", arrays: true) == "[" + text + "]")
                    #expect(try strip(#"{"a":null, "# + text + ": " + text + "}") == "{" + text + ":" + text + "}")
                    #expect(try strip(" " + text) == text)
                }
            }
        }
    }

    @Test("top-level scalars pass through; a top-level null stays null")
    func topLevelScalars() throws {
        #expect(try strip("null") == "null")
        #expect(try strip("null", arrays: true) == "null")
        #expect(try strip(" 42 ") == "42")
        #expect(try strip(#""text""#) == #""text""#)
        #expect(try strip("true") == "true")
        #expect(try strip("false") == "false")
        #expect(try strip("-1.5e3") == "-1.5e3")
    }

    @Test("insignificant whitespace is dropped; whitespace inside strings is kept")
    func whitespace() throws {
        #expect(try strip(" {\n\t\"a\" : null ,\r\n \"b\" : [ 1 , null ] , \"c d\" : \" x \" } \n") == #"{"b":[1,null],"c d":" x "}"#)
        #expect(try strip("[ ]") == "[]")
        #expect(try strip("{ }") == "{}")
    }

    @Test("a document with nothing to drop comes back as the very same bytes")
    func unchangedInput() throws {
        let input = Data(#"{"a":[1,2,{"b":"c"}],"d":true}"#.utf8)
        #expect(try JSONSanitizer().stripNulls(input) == input)
    }

    @Test(
        "malformed input is rejected with what was wrong and the byte offset",
        arguments: [
            (#"{"a":1,}"#, "unexpected character '}' at byte 7, expected a member name in double quotes"),
            ("[1,2,]", "unexpected character ']' at byte 5, expected a value"),
            ("[1,2", "unexpected end of input at byte 4, expected ',' or ']'"),
            (#"{"a" 1}"#, "unexpected character '1' at byte 5, expected ':'"),
            ("[01]", "number with a leading zero at byte 1"),
            ("[-]", "unexpected character ']' at byte 2, expected a digit"),
            ("[1.]", "unexpected character ']' at byte 3, expected a digit"),
            (#"["\x"]"#, "invalid escape sequence: character 'x' after a backslash at byte 3"),
            (#"["\u12G4"]"#, "unexpected character 'G' at byte 6, expected a hexadecimal digit"),
            ("[1]x", "unexpected character 'x' at byte 3, expected the end of the input"),
            (#""abc"#, "unexpected end of input at byte 4, expected the closing '\"' of a string"),
            ("[\"a\tb\"]", "unescaped control character 0x09 in a string at byte 3"),
            ("", "unexpected end of input at byte 0, expected a value"),
            ("  ", "unexpected end of input at byte 2, expected a value"),
            (#"{"a":nul}"#, "unexpected character '}' at byte 8, expected 'null'"),
            ("[tru", "unexpected end of input at byte 4, expected 'true'"),
            ("[fals3]", "unexpected character '3' at byte 5, expected 'false'"),
            ("\u{0C}[]", "unexpected byte 0x0C at byte 0, expected a value"),
            ("{'a':1}", "unexpected character ''' at byte 1, expected a member name in double quotes"),
        ]
    )
    func malformed(input: String, message: String) throws {
        let error = try #require(failure(input))
        #expect(error.code == .invalidJSON)
        #expect(error.message == "invalid JSON: " + message)
    }

    @Test("invalid UTF-8 is rejected at the offending byte")
    func invalidUTF8() throws {
        let cases: [([UInt8], String)] = [
            ([0x22, 0xFF, 0x22], "invalid UTF-8 byte 0xFF at byte 1"),
            ([0x22, 0xC0, 0xAF, 0x22], "invalid UTF-8 byte 0xC0 at byte 1"),  // overlong '/'
            ([0x22, 0xED, 0xA0, 0x80, 0x22], "invalid UTF-8 byte 0xA0 at byte 2"),  // encoded surrogate
            ([0x22, 0xE6, 0x22], "invalid UTF-8 byte 0x22 at byte 2"),  // truncated sequence
            ([0xEF, 0xBB, 0xBF, 0x7B, 0x7D], "unexpected byte 0xEF at byte 0, expected a value"),  // byte order mark
        ]
        for (bytes, message) in cases {
            let error = #expect(throws: SwitchyardError.self) { try JSONSanitizer().stripNulls(Data(bytes)) }
            #expect(error?.message == "invalid JSON: " + message)
        }
    }

    @Test("nesting beyond the limit is refused; within it, deep documents work without recursion")
    func depthLimit() throws {
        #expect(try strip("[[1]]", maximumDepth: 2) == "[[1]]")
        #expect(failure("[[[1]]]", maximumDepth: 2)?.message == "invalid JSON: nesting deeper than 2 levels at byte 2")
        #expect(failure(#"{"a":{"b":{}}}"#, maximumDepth: 2)?.code == .invalidJSON)
        #expect(try strip("7", maximumDepth: 0) == "7")
        // 300 levels alternating objects and arrays, past the 64 levels kept in a machine word.
        let levels = 300
        var input = ""
        var expected = ""
        for level in 0..<levels {
            input += level.isMultiple(of: 2) ? #"{"n":null,"a":"# : "[null,"
            expected += level.isMultiple(of: 2) ? #"{"a":"# : "["
        }
        input += "1"
        expected += "1"
        for level in (0..<levels).reversed() {
            input += level.isMultiple(of: 2) ? #","z":null}"# : ",null]"
            expected += level.isMultiple(of: 2) ? "}" : "]"
        }
        #expect(try strip(input, arrays: true, maximumDepth: levels) == expected)
        #expect(failure(input, maximumDepth: levels - 1)?.message.contains("nesting deeper than \(levels - 1) levels") == true)
    }

    @Test(
        "the stage strips nulls from JSON bodies",
        arguments: ["application/json", "application/json; charset=utf-8", "application/problem+json", "Application/JSON"]
    )
    func stageStripsJSON(contentType: String) async throws {
        let run = await StageHarness(NullStrippingStage()).run(
            try .fixture(.get, "https://api.test/users/1"),
            respond: .json(#"{"id":1,"avatar":null,"tags":["a",null]}"#, headerFields: [.contentType: contentType])
        )
        #expect(run.response?.bodyText == #"{"id":1,"tags":["a",null]}"#)
    }

    @Test(
        "the stage leaves bodies whose content type only starts like JSON's alone",
        arguments: ["application/jsonx", "application/json-seq", "application/json5; charset=utf-8", "application/json x"]
    )
    func stageSkipsNearJSON(contentType: String) async throws {
        let run = await StageHarness(NullStrippingStage()).run(
            try .fixture(.get, "https://api.test/users/1"),
            respond: .json(#"{"id":1,"avatar":null}"#, headerFields: [.contentType: contentType])
        )
        #expect(run.response?.bodyText == #"{"id":1,"avatar":null}"#)
    }

    @Test("the stage sniffs bodies without a content type, honours its sanitizer, and leaves other bodies alone")
    func stageSelection() async throws {
        let request = try Request.fixture(.get, "https://api.test/users/1")
        let sniffed = await StageHarness(NullStrippingStage(sanitizer: JSONSanitizer(removeNullArrayElements: true)))
            .run(request, respond: .status(.ok, body: " \n[{\"a\":null},null,2]"))
        #expect(sniffed.response?.bodyText == "[{},2]")
        let text = await StageHarness(NullStrippingStage()).run(
            request,
            respond: .status(.ok, body: #"{"a":null}"#, headerFields: [.contentType: "text/plain"])
        )
        #expect(text.response?.bodyText == #"{"a":null}"#)
        let plain = await StageHarness(NullStrippingStage()).run(request, respond: .status(.ok, body: "null, not JSON {"))
        #expect(plain.response?.bodyText == "null, not JSON {")
        let empty = await StageHarness(NullStrippingStage()).run(request, respond: .json(""))
        #expect(empty.response?.bytes.isEmpty == true)
        #expect(NullStrippingStage().id == .nullStripping)
    }

    @Test("malformed JSON fails the call with an error naming the NullStripping stage")
    func stageMalformed() async throws {
        let run = await StageHarness(NullStrippingStage()).run(
            try .fixture(.get, "https://api.test/users/1"),
            respond: .json(#"{"id":1,"name":"x",}"#, status: .created)
        )
        let error = try #require(run.error)
        #expect(error.code == .invalidJSON)
        #expect(error.stage == StageID("NullStripping"))
        #expect(error.status == .created)
        #expect(error.message == "invalid JSON: unexpected character '}' at byte 19, expected a member name in double quotes")
        #expect(error.response?.bodyText == #"{"id":1,"name":"x",}"#)
    }
}
