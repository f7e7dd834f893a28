import Foundation
import Switchyard
import SwitchyardAsyncHTTPClient
import Testing

@Suite("PublicKeyPins' documentation example")
struct PublicKeyPinsExampleTests {
    /// The example as it must read in `PublicKeyPins.swift`, line by line.
    private static let example = [
        "let pins = try PublicKeyPins([",
        "    \"sha256/47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=\",  // today's key",
        "    \"sha256/8Rw90Ej3Ttt8RRkrg+WYDS9n7IS03bk5bjP/UXPtaY8=\",  // the next key",
        "])",
        "let transport = AsyncHTTPClientTransport(pinning: .init(pins: pins))",
    ]

    /// The Swift block of `PublicKeyPins`' doc comment, without the `/// ` prefixes.
    private func documentedExample() throws -> [String] {
        let source = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/SwitchyardAsyncHTTPClient/Pinning/PublicKeyPins.swift")
        let lines = try String(contentsOf: source, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex { $0 == "/// ```swift" })
        let end = try #require(lines[(start + 1)...].firstIndex { $0 == "/// ```" })
        return lines[(start + 1)..<end].map { String($0.dropFirst(4)) }
    }

    @Test("the example in the doc comment is the one compiled and run below")
    func exampleIsDocumented() throws {
        #expect(try documentedExample() == Self.example)
    }

    @Test("the example compiles and makes a pinned transport with both pins")
    func exampleRuns() async throws {
        let pins = try PublicKeyPins([
            "sha256/47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=",  // today's key
            "sha256/8Rw90Ej3Ttt8RRkrg+WYDS9n7IS03bk5bjP/UXPtaY8=",  // the next key
        ])
        let transport = AsyncHTTPClientTransport(pinning: .init(pins: pins))
        #expect(transport.pinning?.pins.digests.count == 2)
        await transport.closePinnedConnections()
    }
}
