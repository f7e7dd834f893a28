import HTTPTypes
import Testing

@testable import Switchyard

@Suite("Merging an endpoint's options with a call's")
struct CallOptionsMergeTests {
    private enum Marker: CallContextKey {
        typealias Value = Int
    }

    private static let probe: ServiceID = "probe"

    @Test("options that adjust nothing leave the other side exactly as it was")
    func emptySideIsIdentity() {
        var endpoint = CallOptions(timeout: .seconds(3), tags: [RequestTag("a")], headerFields: [.accept: "text/plain"])
        endpoint.setContextValue(7, for: Marker.self)
        for merged in [endpoint.applying(CallOptions()), CallOptions().applying(endpoint)] {
            #expect(merged.timeout == .seconds(3))
            #expect(merged.tags == [RequestTag("a")])
            #expect(merged.headerFields[.accept] == "text/plain")
            var context = CallContext(serviceID: Self.probe)
            merged.writeValues(into: &context)
            #expect(context[Marker.self] == 7)
        }
    }

    @Test("both sides adjusting: the call's values win, sets are joined, fields replaced per name")
    func bothSidesMerge() {
        let endpoint = CallOptions(
            timeout: .seconds(3),
            tags: [RequestTag("a")],
            headerFields: [.accept: "text/plain", .acceptLanguage: "en"]
        )
        let call = CallOptions(timeout: .seconds(1), tags: [RequestTag("b")], headerFields: [.accept: "application/json"])
        let merged = endpoint.applying(call)
        #expect(merged.timeout == .seconds(1))
        #expect(merged.tags == [RequestTag("a"), RequestTag("b")])
        #expect(merged.headerFields[.accept] == "application/json")
        #expect(merged.headerFields[.acceptLanguage] == "en")
    }

    @Test("every kind of adjustment counts: none is mistaken for nothing")
    func everyAdjustmentIsSeen() {
        var adjustments: [CallOptions] = []
        func adjusted(_ change: (inout CallOptions) -> Void) {
            var options = CallOptions()
            change(&options)
            adjustments.append(options)
        }
        let scope = RequestScope()
        adjusted { $0.timeout = .seconds(1) }
        adjusted { $0.deadline = .seconds(1) }
        adjusted { $0.tags = [RequestTag("t")] }
        adjusted { $0.headerFields = [.accept: "*/*"] }
        adjusted { $0.additionalStages = [ClosureStage.request(id: "extra") { _, _ in }] }
        adjusted { $0.skippedStages = [.logging] }
        adjusted { $0.enable(.logging) }
        adjusted { $0.logLevel(.debug) }
        adjusted { $0.acceptableStatusCodes = 200...201 }
        adjusted { $0.logger = CallContext.disabledLogger }
        adjusted { $0.allowsForeignOrigin = true }
        adjusted { $0.account = "someone" }
        adjusted { $0.sameRequest = .coalesce }
        adjusted { $0.uploadProgress = { _ in } }
        adjusted { $0.downloadProgress = { _ in } }
        adjusted { $0.cache(.cacheOnly) }
        adjusted { $0.scope = scope }
        adjusted { $0.recordsStageTimings = true }
        adjusted { $0.setContextValue(1, for: Marker.self) }
        #expect(CallOptions().isEmpty)
        for (index, options) in adjustments.enumerated() {
            #expect(!options.isEmpty, "adjustment \(index) was taken for none")
        }
    }
}
