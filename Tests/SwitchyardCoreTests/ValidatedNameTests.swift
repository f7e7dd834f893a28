import Foundation
import SwitchyardCore
import Testing

@Suite("Validated names: one shape for service ids, stage ids and environments")
struct ValidatedNameTests {
    @Test("a literal is the same value as the checked initializer gives")
    func literals() {
        let service: ServiceID = "Users"
        let stage: StageID = "Signing"
        let environment: ServerEnvironment = "UAT"
        #expect(service == ServiceID(String("users")))
        #expect(stage == StageID(String("signing")))
        #expect(environment == ServerEnvironment(String("uat")) && environment.rawValue == "uat")
    }

    @Test("every kind refuses the same invalid names at run time")
    func sameRules() {
        let invalid = ["", "9lives", "has space", "slash/name", "名字", String(repeating: "a", count: 65)]
        for name in invalid {
            #expect(ServiceID(name) == nil && StageID(name) == nil && ServerEnvironment(name) == nil, "\(name)")
        }
        let valid = ["a", "Users.v2_beta-1", String(repeating: "a", count: 64)]
        for name in valid {
            #expect(ServiceID(name) != nil && StageID(name) != nil && ServerEnvironment(name) != nil, "\(name)")
        }
    }

    @Test("validating throws the kind's own code and names the kind")
    func validating() {
        let service = #expect(throws: SwitchyardError.self) { try ServiceID(validating: "bad id") }
        #expect(service?.code == .invalidServiceID && service?.message.contains("service identifier") == true)
        let stage = #expect(throws: SwitchyardError.self) { try StageID(validating: "bad id") }
        #expect(stage?.code == .invalidRequest && stage?.message.contains("stage id") == true)
        let environment = #expect(throws: SwitchyardError.self) { try ServerEnvironment(validating: "bad id") }
        #expect(environment?.code == .invalidRequest && environment?.message.contains("environment") == true)
    }

    @Test("a name round-trips through JSON, and an invalid one is refused with a DecodingError")
    func coding() throws {
        let encoded = try JSONEncoder().encode(["Signing" as StageID])
        #expect(String(decoding: encoded, as: UTF8.self) == #"["Signing"]"#)
        #expect(try JSONDecoder().decode([StageID].self, from: encoded) == ["signing"])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([ServiceID].self, from: Data(#"["bad id"]"#.utf8)) }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([StageID].self, from: Data(#"["9"]"#.utf8)) }
    }
}
