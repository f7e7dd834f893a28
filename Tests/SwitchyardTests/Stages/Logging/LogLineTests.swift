import Foundation
import HTTPTypes
import Testing

@testable import Switchyard

@Suite("Logged call lines, written at their final size")
struct LogLineTests {
    @Test("the request line is the method and the target")
    func requestLine() {
        #expect(LogLine.request(method: "POST", target: "/orders?x=1") == "→ POST /orders?x=1")
        #expect(LogLine.request(method: "GET", target: "/名/%E5") == "→ GET /名/%E5")
    }

    @Test(
        "the response line reads as an interpolation of the same parts would",
        arguments: [Duration.zero, .nanoseconds(50_000), .microseconds(12_449), .seconds(86_400 * 365), .milliseconds(-3)]
    )
    func responseLine(elapsed: Duration) {
        let response = Response(status: .created, headerFields: [:], body: Data(repeating: 1, count: 310))
        let expected = "← 201 Created POST /orders \(LogLine.milliseconds(elapsed)) 310 B"
        #expect(LogLine.response(response, method: "POST", path: "/orders", elapsed: elapsed) == expected)
    }

    @Test(
        "a duration is written in milliseconds to the tenth, truncated, as every logged line shows it",
        arguments: [
            (Duration.zero, "0.0 ms"), (.nanoseconds(50_000), "0.0 ms"), (.microseconds(12_449), "12.4 ms"),
            (.seconds(86_400 * 365), "31536000000.0 ms"), (.milliseconds(-3), "-3.0 ms"),
        ]
    )
    func milliseconds(elapsed: Duration, text: String) {
        #expect(LogLine.milliseconds(elapsed) == text)
    }

    @Test("a status without a usual reason, a long path and an empty body fit")
    func unusualParts() {
        let path = "/" + String(repeating: "é", count: 300)
        let response = Response(status: HTTPResponse.Status(code: 599, reasonPhrase: "Ünknown"), headerFields: [:], body: Data())
        #expect(
            LogLine.response(response, method: "PATCH", path: path, elapsed: .milliseconds(1)) == "← 599 Ünknown PATCH \(path) 1.0 ms 0 B"
        )
    }
}
