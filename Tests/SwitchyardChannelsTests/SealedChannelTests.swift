import Foundation
import HTTPTypes
import Switchyard
import SwitchyardCrypto
import Testing

@testable import SwitchyardChannels

/// Hex to bytes.
private func hex(_ text: String) -> Data {
    let digits = Array(text.filter { !$0.isWhitespace }.utf8)
    return Data(stride(from: 0, to: digits.count, by: 2).map { UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16)! })
}

@Suite("Channels: sealed messages follow Docs/WireFormat.md's vectors")
struct ChannelVectorTests {
    private let sealer = ChannelSealer(
        scheme: .aes256GCM,
        keyID: "k1",
        key: SymmetricKey(Data(0..<32)),
        path: "/v1/quotes",
        nonce: "a0a1a2a3a4a5a6a7a8a9aaabacadaeaf"
    )

    @Test("vector channel/aes-256-gcm/server-0 opens to its text")
    func serverText() throws {
        let frame = hex(
            "01010000000000000000d0d1d2d3d4d5d6d7d8d9dadb5785951705c59ecd7a650afeb59bc2c3e3282da729fedd6409a87fa63e1d1cf2fe6afe81eab7a43e71494ae601d1a479c2fc"
        )
        #expect(try sealer.open(frame, expected: 0) == .text(#"{"symbol":"ACME","price":"101.25"}"#))
    }

    @Test("vector channel/aes-256-gcm/server-1 opens to its bytes as the second message, not as the first")
    func serverBinary() throws {
        let frame = hex("01020000000000000001e0e1e2e3e4e5e6e7e8e9eaeb34c3cb800a734ff5b036fc275e52b2c4fdbc365d71")
        #expect(try sealer.open(frame, expected: 1) == .binary(Data([0, 1, 2, 3, 255])))
        let error = #expect(throws: SwitchyardError.self) { try sealer.open(frame, expected: 0) }
        #expect(error?.code == .crypto)
    }

    @Test("the client's own message (vector client-0) does not open as the server's")
    func directionBound() throws {
        let frame = hex(
            "01010000000000000000c0c1c2c3c4c5c6c7c8c9cacb7b6a5412150bf52cf1bb9880088ea9150136c14241a8a06bdbf85fb47ec52e068ee1983b"
        )
        let error = #expect(throws: SwitchyardError.self) { try sealer.open(frame, expected: 0) }
        #expect(error?.code == .crypto)
    }

    @Test("the client seals with a fresh nonce, the vector's layout and AAD: a sealed message is the vector's length")
    func sealLayout() throws {
        let frame = try sealer.seal(.text(#"{"subscribe":"ACME"}"#), sequence: 0)
        #expect(
            frame.count
                == hex(
                    "01010000000000000000c0c1c2c3c4c5c6c7c8c9cacb7b6a5412150bf52cf1bb9880088ea9150136c14241a8a06bdbf85fb47ec52e068ee1983b"
                ).count
        )
        #expect(Array(frame.prefix(10)) == [1, 1, 0, 0, 0, 0, 0, 0, 0, 0])
    }
}

@Suite(
    "Channels: an encrypted channel interoperates with a Python peer written from Docs/WireFormat.md",
    .enabled(if: ChannelServers.enabled, "python3 with websockets and cryptography is needed: pip install websockets cryptography"),
    .timeLimit(.minutes(1))
)
struct SealedChannelTests {
    private func client() async throws -> APIClient {
        let ring = try KeyRing(keyID: ChannelServers.keyID, key: SymmetricKey(ChannelServers.key))
        return try ChannelServers.client(try await ChannelServers.sealedURL(), stages: [EncryptionStage(keyRing: ring)])
    }

    @Test("text and binary messages are sealed both ways and echo back")
    func echoes() async throws {
        let channel = try await client().channel(endpoint("/v1/quotes"))
        #expect(channel.isSealed)
        var messages = channel.messages.makeAsyncIterator()
        try await channel.send(.text("héllo"))
        #expect(try await messages.next() == .text("echo:héllo"))
        try await channel.send(.binary(Data([9, 8, 7])))
        #expect(try await messages.next() == .binary(Data("echo:".utf8) + Data([9, 8, 7])))
        try await channel.send(.text("again"))
        #expect(try await messages.next() == .text("echo:again"))
        await channel.close()
    }

    @Test(
        "a tampered, replayed, reordered or misdirected message is refused with crypto, never delivered",
        arguments: ["tamper", "replay", "reorder", "direction"]
    )
    func refused(_ attack: String) async throws {
        let channel = try await client().channel(endpoint("/v1/quotes"))
        var messages = channel.messages.makeAsyncIterator()
        try await channel.send(.text("first"))
        #expect(try await messages.next() == .text("echo:first"))
        try await channel.send(.text(attack))
        try await channel.send(.text("second"))
        var delivered: [ChannelMessage] = []
        let error = await #expect(throws: SwitchyardError.self) {
            while let message = try await messages.next() { delivered.append(message) }
        }
        #expect(error?.code == .crypto)
        // A replay delivers the genuine copy first; nothing after the refused one arrives.
        #expect(delivered == (attack == "replay" ? [.text("echo:second")] : []))
        await channel.close()
    }
}
