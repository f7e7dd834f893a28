import Foundation
import SwitchyardGenCore
import Testing

@Suite("Generated code follows the description's per-endpoint encrypted flag")
struct PerEndpointEncryptionTests {
    private let yaml = """
        version: 1
        services:
          wallet:
            environments: { develop: "http://127.0.0.1:8080/wallet" }
            endpoints:
              Balance:
                method: GET
                path: /balance
                response: raw
              Transfer:
                method: POST
                path: /transfers
                response: raw
                options: { encrypted: true }
        """

    @Test("an encrypted endpoint of a plain service enables the opt-in Encryption stage; the others do not")
    func enablesOnlyEncrypted() throws {
        let swift = try SwitchyardGenerator.generate(yaml: yaml, file: "Wallet.switchyard.yaml").swift
        let transfer = try #require(swift.range(of: "struct Transfer"))
        let balance = try #require(swift.range(of: "struct Balance"))
        let enable = "options.enabledStages.insert(StageID(\"Encryption\"))"
        #expect(swift.components(separatedBy: enable).count == 2, "exactly one endpoint enables it")
        let enableAt = try #require(swift.range(of: enable))
        #expect(enableAt.lowerBound > transfer.lowerBound)
        #expect(balance.lowerBound < transfer.lowerBound || enableAt.lowerBound < balance.lowerBound)
    }

    @Test("registration refuses a pipeline without an Encryption stage when an endpoint is encrypted")
    func registrationRequiresTheStage() throws {
        let swift = try SwitchyardGenerator.generate(yaml: yaml, file: "Wallet.switchyard.yaml").swift
        #expect(swift.contains("are described as encrypted, but innerStages has no Encryption stage"))
    }
}
