import Foundation
import HTTPTypes
import Logging
import Switchyard
import SwitchyardTesting
import Testing

/// A request stage that marks the request, so a test can see whether it ran.
private struct Marker: RequestStage {
    let id: StageID
    func prepare(_ request: inout Request, context: CallContext) async throws {
        request.headerFields[HTTPField.Name("X-Marker")!] = id.rawValue
    }
}

private struct PlainCall: Endpoint {
    typealias Output = Response
    var service: ServiceID { .users }
    var method: HTTPRequest.Method { .get }
    var path: String { "/plain" }
}

private struct SealedCall: Endpoint {
    typealias Output = Response
    var service: ServiceID { .users }
    var method: HTTPRequest.Method { .get }
    var path: String { "/sealed" }
    var options: CallOptions { CallOptions(enabledStages: ["Sealer"]) }
}

@Suite("Stage identity: opt-in stages, skipping and enabling by id, options that need a stage")
struct StageSelectionTests {
    private let sealer: StageID = "Sealer"
    private let marker = HTTPField.Name("X-Marker")!

    @Test("stage ids are validated like service ids and compare ignoring case")
    func stageIDValidation() {
        #expect(StageID("Retry") == .retry)
        #expect(["", "9lives", "has space"].allSatisfy { StageID($0) == nil })
        #expect(StageID(String(repeating: "a", count: 65)) == nil)
        #expect(throws: SwitchyardError.self) { try StageID(validating: "no/slash") }
        #expect(StageID(typeName: StageHarness<Marker>.self).rawValue == "StageHarness_Marker_")
    }

    @Test("an opt-in stage runs only for the endpoint that enables it")
    func optInRunsOnlyWhenEnabled() async throws {
        let transport = MockTransport(.status(.ok))
        let client = try makeClient(stages: [Marker(id: sealer).optIn()], transport: transport)
        _ = try await client.send(PlainCall())
        _ = try await client.send(SealedCall())
        _ = try await client.send(PlainCall(), options: CallOptions(enabledStages: [sealer]))
        #expect(transport.requests.map { $0.headerFields[marker] } == [nil, "Sealer", "Sealer"])
    }

    @Test("the pipeline's description marks opt-in stages")
    func descriptionMarksOptIn() throws {
        let pipeline = Pipeline(
            serviceID: .users,
            stages: [Marker(id: .headers), Marker(id: sealer).optIn()],
            transport: MockTransport(.status(.ok))
        )
        #expect(pipeline.optInStageIDs == [sealer])
        #expect(pipeline.description.contains("[2] Sealer (opt-in)"))
    }

    @Test("skipping an id the service does not have is an invalidRequest naming it")
    func skippingUnknownStage() async throws {
        let client = try makeClient(stages: [Marker(id: .headers)], transport: MockTransport(.status(.ok)))
        let error = await #expect(throws: SwitchyardError.self) {
            _ = try await client.send(PlainCall(), options: CallOptions(skippedStages: ["Hedaers"]))
        }
        #expect(error?.code == .invalidRequest)
        #expect(error?.message.contains("'Hedaers'") == true)
        #expect(error?.serviceID == .users)
    }

    @Test("enabling an id the service does not have is an invalidRequest naming it")
    func enablingUnknownStage() async throws {
        let transport = MockTransport(.status(.ok))
        let client = try makeClient(stages: [], transport: transport)
        let error = await #expect(throws: SwitchyardError.self) { _ = try await client.send(SealedCall()) }
        #expect(error?.code == .invalidRequest)
        #expect(error?.message.contains("'Sealer'") == true)
        #expect(transport.requests.isEmpty)
    }

    /// Every call option that only one stage can honour, with that stage.
    private static let stageDependentOptions: [(name: String, stage: StageID, apply: @Sendable (inout CallOptions) -> Void)] = [
        ("retry(maxAttempts:)", .retry, { $0.retry(maxAttempts: 3) }),
        ("allowRetryingNonIdempotent()", .retry, { $0.allowRetryingNonIdempotent() }),
        ("cache(_:)", .cache, { $0.cache(.networkOnly) }),
        ("invalidateCache(onSuccess:)", .cache, { $0.invalidateCache(onSuccess: [(.users, nil)]) }),
        ("omitHeaders(_:)", .headers, { $0.omitHeaders([.userAgent]) }),
        ("omitCommonParameters(_:)", .commonParameters, { $0.omitCommonParameters(["appid"]) }),
        ("validate(_:)", .validation, { $0.validate(ValidationStage.Rules()) }),
        ("logLevel(_:)", .logging, { $0.logLevel(.trace) }),
    ]

    @Test("every stage-dependent option without its stage fails with invalidRequest naming the stage and option", arguments: 0..<8)
    func optionWithoutItsStage(index: Int) async throws {
        let option = Self.stageDependentOptions[index]
        let transport = MockTransport(.status(.ok))
        let client = try makeClient(stages: [Marker(id: "Unrelated")], transport: transport)
        var options = CallOptions()
        option.apply(&options)
        let error = await #expect(throws: SwitchyardError.self) { _ = try await client.send(PlainCall(), options: options) }
        #expect(error?.code == .invalidRequest)
        #expect(error?.message.contains("'\(option.stage)'") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains(option.name) == true, "\(error?.message ?? "")")
        #expect(transport.requests.isEmpty)
    }

    @Test("with several options missing their stages, the error always names the first stage in order")
    func severalMissingStagesNameTheFirst() async throws {
        let client = try makeClient(stages: [Marker(id: "Unrelated")], transport: MockTransport(.status(.ok)))
        let requirements: [@Sendable (inout CallOptions) -> Void] = [
            { $0.retry(maxAttempts: 3) }, { $0.logLevel(.trace) }, { $0.cache(.networkOnly) }, { $0.omitHeaders([.userAgent]) },
        ]
        // Each options value has a dictionary of its own, and so an iteration order of its own:
        // an unsorted walk would name another stage for some of them.
        var all: [CallOptions] = []
        for round in 0..<24 {
            var options = CallOptions()
            for offset in 0..<requirements.count { requirements[(round + offset) % requirements.count](&options) }
            all.append(options)
        }
        for options in all {
            let error = await #expect(throws: SwitchyardError.self) { _ = try await client.send(PlainCall(), options: options) }
            #expect(error?.message.contains("'\(StageID.cache)'") == true, "\(error?.message ?? "")")
        }
    }

    @Test("an option whose stage the call skips is an error too")
    func optionWhoseStageIsSkipped() async throws {
        let client = try makeClient(stages: [RetryStage()], transport: MockTransport(.status(.ok)))
        var options = CallOptions(skippedStages: [.retry])
        options.retry(maxAttempts: 4)
        let error = await #expect(throws: SwitchyardError.self) { _ = try await client.send(PlainCall(), options: options) }
        #expect(error?.code == .invalidRequest && error?.message.contains("skips") == true)
    }

    @Test("an option whose stage is opt-in needs the call to enable it")
    func optionWhoseStageIsOptIn() async throws {
        let transport = MockTransport(.status(.ok))
        let client = try makeClient(stages: [LoggingStage().optIn()], transport: transport)
        var options = CallOptions()
        options.logLevel(.debug)
        let error = await #expect(throws: SwitchyardError.self) { _ = try await client.send(PlainCall(), options: options) }
        #expect(error?.code == .invalidRequest && error?.message.contains("opt-in") == true)
        options.enable(.logging)
        _ = try await client.send(PlainCall(), options: options)
        #expect(transport.requests.count == 1)
    }

    @Test("an option is satisfied by the service's stage or by a stage the call adds")
    func optionSatisfied() async throws {
        let transport = MockTransport(.status(.ok))
        let client = try makeClient(stages: [HeadersStage([CommonHeader]())], transport: transport)
        var options = CallOptions()
        options.omitHeaders([.userAgent])
        _ = try await client.send(PlainCall(), options: options)
        var added = CallOptions(additionalStages: [LoggingStage()])
        added.logLevel(.trace)
        _ = try await client.send(PlainCall(), options: added)
        #expect(transport.requests.count == 2)
    }
}
