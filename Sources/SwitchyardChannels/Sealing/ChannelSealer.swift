import Foundation
import HTTPTypes
import Switchyard
import SwitchyardCrypto

/// Seals and opens one connection's messages with its service's encryption stage: the scheme and key
/// the upgrade request named in `X-Switchyard-Encryption`, bound to that request's nonce, path and
/// each message's direction and sequence number (`Docs/WireFormat.md`, *Channel messages*).
///
/// Each direction numbers its messages from 0; a message that does not open (tampered, another
/// connection's, another direction's) or does not carry the next number (replayed, reordered,
/// dropped) is refused.
struct ChannelSealer: Sendable {
    enum Direction: String, Sendable {
        case client, server
    }

    let scheme: EncryptionScheme
    let keyID: String
    let key: SymmetricKey
    let path: String
    let nonce: String
    /// The first bytes of every sealed message: the framing's version.
    static let version: UInt8 = 1

    /// The sealer for a connection whose upgrade request was `request`, or `nil` when the request
    /// was not sealed (the service has no encryption stage, or the call skipped it).
    ///
    /// - Throws: `SwitchyardError.Code.crypto` when the request names a scheme or key the
    ///   service's encryption stages do not hold, or a scheme that does not authenticate.
    static func make(for request: HTTPRequest, stages: [any Stage]) throws(SwitchyardError) -> ChannelSealer? {
        guard let named = request.headerFields[encryptionField] else { return nil }
        let parts = named.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        let schemeName = parts.first ?? ""
        let keyID = parts.dropFirst().first { $0.hasPrefix("kid=") }.map { String($0.dropFirst(4)) } ?? ""
        guard let nonce = request.headerFields[nonceField], nonce.utf8.count == 32 else {
            throw SwitchyardError(
                code: .crypto,
                message: "a sealed channel needs wire format 2: the upgrade request carries no \(nonceField)"
            )
        }
        let candidates = stages.compactMap { $0 as? EncryptionStage }.filter { $0.framing == .headers && $0.scheme.name == schemeName }
        guard let stage = candidates.first(where: { $0.keyRing.key(for: keyID) != nil }), let key = stage.keyRing.key(for: keyID) else {
            throw SwitchyardError(
                code: .crypto,
                message: "no encryption stage of the service holds scheme \(schemeName) with key id \(keyID)"
            )
        }
        guard stage.scheme.isAuthenticated else {
            throw SwitchyardError(
                code: .crypto,
                message: "channel messages are sealed only with an authenticated scheme; \(schemeName) is not"
            )
        }
        let path = String((request.path ?? "/").prefix { $0 != "?" })
        return ChannelSealer(scheme: stage.scheme, keyID: keyID, key: key, path: path, nonce: nonce)
    }

    /// The associated data of message number `sequence` of `kind` going `direction`.
    func aad(_ direction: Direction, sequence: UInt64, text: Bool) -> Data {
        let lines = [
            "switchyard-channel/1", direction.rawValue, scheme.name, keyID, path, nonce, String(sequence), text ? "text" : "binary",
        ]
        return Data(lines.joined(separator: "\n").utf8)
    }

    /// The binary frame's payload that carries `message` as the client's message number `sequence`.
    func seal(_ message: ChannelMessage, sequence: UInt64) throws(SwitchyardError) -> Data {
        let text: Bool
        if case .text = message { text = true } else { text = false }
        let sealed: Data
        do {
            sealed = try scheme.seal(message.data, key: key, aad: aad(.client, sequence: sequence, text: text))
        } catch {
            throw SwitchyardError(code: .crypto, message: "a channel message could not be sealed: \(error.message)", underlyingError: error)
        }
        var frame = Data([Self.version, text ? 1 : 2])
        frame.reserveCapacity(10 + sealed.count)
        withUnsafeBytes(of: sequence.bigEndian) { frame.append(contentsOf: $0) }
        frame.append(sealed)
        return frame
    }

    /// The server's message number `expected`, opened from a binary frame's payload.
    ///
    /// - Throws: `SwitchyardError.Code.crypto` when the payload is not a sealed message,
    ///   does not open, or carries another number than `expected`.
    func open(_ payload: Data, expected: UInt64) throws(SwitchyardError) -> ChannelMessage {
        let bytes = [UInt8](payload.prefix(10))
        guard bytes.count == 10, bytes[0] == Self.version, bytes[1] == 1 || bytes[1] == 2 else {
            throw SwitchyardError(code: .crypto, message: "a channel message is not sealed in the channel framing, version 1")
        }
        let sequence = bytes[2..<10].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let text = bytes[1] == 1
        let plaintext: Data
        do {
            plaintext = try scheme.open(Data(payload.dropFirst(10)), key: key, aad: aad(.server, sequence: sequence, text: text))
        } catch {
            throw SwitchyardError(code: .crypto, message: "a channel message did not open: \(error.message)", underlyingError: error)
        }
        guard sequence == expected else {
            throw SwitchyardError(
                code: .crypto,
                message: "a channel message came out of order: number \(sequence) where \(expected) was next (replayed or reordered)"
            )
        }
        guard text else { return .binary(plaintext) }
        guard let string = String(data: plaintext, encoding: .utf8) else {
            throw SwitchyardError(code: .crypto, message: "a sealed text message is not UTF-8")
        }
        return .text(string)
    }

    static let encryptionField = HTTPField.Name("X-Switchyard-Encryption")!
    static let nonceField = HTTPField.Name("X-Switchyard-Request-Nonce")!
}
