import Foundation
import SwitchyardCrypto

/// `switchyard-crypto-tool`: seals and opens bodies with Switchyard's encryption schemes from the
/// command line, so that an independent implementation (the PyCA `cryptography` interop test in
/// `Tests/Interop`) can check the wire format both ways. Bytes are passed and printed as hex.
///
/// ```
/// switchyard-crypto-tool seal <scheme> <key> <aad> <plaintext> [<fixed iv>]   → body
/// switchyard-crypto-tool open <scheme> <key> <aad> <body> [<fixed iv>]        → plaintext
/// ```
///
/// Errors print `error <code>` on standard output and exit 1.
@main
struct CryptoTool {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard arguments.count >= 5, let key = hex(arguments[2]), let aad = hex(arguments[3]), let input = hex(arguments[4]) else {
            FileHandle.standardError.write(Data("usage: switchyard-crypto-tool seal|open <scheme> <key hex> <aad hex> <input hex> [<iv hex>]\n".utf8))
            exit(2)
        }
        let iv = arguments.count > 5 ? hex(arguments[5]) : nil
        guard let scheme = scheme(named: arguments[1], iv: iv) else {
            FileHandle.standardError.write(Data("unknown scheme \(arguments[1])\n".utf8))
            exit(2)
        }
        do {
            let output: Data
            switch arguments[0] {
            case "seal": output = try scheme.seal(input, key: SymmetricKey(key), aad: aad)
            case "open": output = try scheme.open(input, key: SymmetricKey(key), aad: aad)
            default:
                FileHandle.standardError.write(Data("unknown command \(arguments[0])\n".utf8))
                exit(2)
            }
            print(output.map { String(format: "%02x", $0) }.joined())
        } catch {
            print("error \(error.code)")
            exit(1)
        }
    }

    static func scheme(named name: String, iv: Data?) -> EncryptionScheme? {
        switch name {
        case EncryptionScheme.aes256GCM.name: .aes256GCM
        case EncryptionScheme.aes256CBCHMACSHA256.name: .aes256CBCHMACSHA256
        case EncryptionScheme.legacyAESECBBase64.name: .legacyAESECBBase64
        case EncryptionScheme.legacyAESCBCKeyIVBase64.name: .legacyAESCBCKeyIVBase64
        case "legacy-aes-cbc-fixed-iv-base64": iv.map { EncryptionScheme.legacyAESCBCBase64(fixedIV: $0) }
        default: nil
        }
    }

    static func hex(_ text: String) -> Data? {
        guard text.count % 2 == 0 else { return nil }
        var bytes = Data(capacity: text.count / 2)
        var index = text.startIndex
        while index != text.endIndex {
            let next = text.index(index, offsetBy: 2)
            guard let byte = UInt8(text[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return bytes
    }
}
