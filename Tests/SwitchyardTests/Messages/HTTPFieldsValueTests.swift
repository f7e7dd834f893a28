import HTTPTypes
import Testing

@testable import Switchyard

@Suite("Reading one field's value")
struct HTTPFieldsValueTests {
    @Test("a single field's value is returned as it is")
    func singleField() {
        let fields: HTTPFields = [.contentType: "application/json", .accept: "*/*"]
        #expect(fields.value(.contentType) == "application/json")
    }

    @Test("an absent field is nil")
    func absentField() {
        let fields: HTTPFields = [.accept: "*/*"]
        #expect(fields.value(.contentType) == nil)
    }

    @Test("several fields of one name read as the subscript reads them, joined")
    func severalFieldsJoin() {
        var fields = HTTPFields()
        fields.append(HTTPField(name: .acceptLanguage, value: "en"))
        fields.append(HTTPField(name: .accept, value: "*/*"))
        fields.append(HTTPField(name: .acceptLanguage, value: "fr"))
        #expect(fields.value(.acceptLanguage) == "en, fr")
        #expect(fields.value(.acceptLanguage) == fields[.acceptLanguage])
    }

    @Test("names match without regard to case, as HTTP says")
    func caseInsensitiveNames() {
        var fields = HTTPFields()
        fields.append(HTTPField(name: HTTPField.Name("X-Switchyard-Nonce")!, value: "abc"))
        #expect(fields.value(HTTPField.Name("x-switchyard-nonce")!) == "abc")
    }

    @Test("names of the same length are told apart by their text, before and after the one asked for")
    func sameLengthNames() {
        var fields = HTTPFields()
        fields.append(HTTPField(name: HTTPField.Name("X-Stomp")!, value: "before"))
        fields.append(HTTPField(name: HTTPField.Name("X-Stamp")!, value: "asked"))
        fields.append(HTTPField(name: HTTPField.Name("X-Stump")!, value: "after"))
        #expect(fields.value(HTTPField.Name("x-stamp")!) == "asked")
        #expect(fields.value(HTTPField.Name("X-Stemp")!) == nil)
        fields.append(HTTPField(name: HTTPField.Name("x-STAMP")!, value: "again"))
        #expect(fields.value(HTTPField.Name("X-Stamp")!) == "asked, again")
    }
}
