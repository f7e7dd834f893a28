import Foundation
import SwitchyardCrypto

/// `switchyard-crypto-tool`: seals and opens bodies with Switchyard's encryption schemes from the
/// command line, so that an independent implementation (the PyCA `cryptography` interop test in
/// `Tests/Interop`) can check the wire format both ways. Bytes are passed and printed as hex.
///
/// ```
/// switchyard-crypto-tool seal <scheme> <key> <aad> <plaintext> [<fixed iv>]   → body
/// switchyard-crypto-tool open <scheme> <key> <aad> <body> [<fixed iv>]        → plaintext
/// switchyard-crypto-tool sign-request <key> <kid> <method> <target> <timestamp> <nonce> <body>  → signature
/// switchyard-crypto-tool verify-response <key> <kid> <status> <timestamp> <nonce> <body> <signature>  → ok
/// switchyard-crypto-tool sign-legacy <md5|hmac-sha256> <secret> <name=value&…>  → signature
/// switchyard-crypto-tool aad <request|response> <scheme> <kid> <method> <target> [<request nonce>]  → AAD
/// ```
///
/// Keys, AAD, bodies and legacy secrets are hex; method, target, key id, timestamp, nonce, status and
/// signatures are text. `aad` prints the associated data of wire format 2, or of version 1 without a
/// request nonce.
///
/// Errors print `error <code>` on standard output and exit 1.
@main
struct CryptoTool {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        switch arguments.first {
        case "sign-request", "verify-response", "sign-legacy": signing(arguments)
        case "aad": associatedData(arguments)
        default: sealing(arguments)
        }
    }

    static func signing(_ arguments: [String]) {
        do {
            switch (arguments[0], arguments.count) {
            case ("sign-request", 8):
                guard let key = hex(arguments[1]), let timestamp = Int64(arguments[5]), let body = hex(arguments[7]) else { usage() }
                let canonical = SigningWireFormat.canonicalRequest(
                    method: arguments[3],
                    target: arguments[4],
                    timestamp: timestamp,
                    nonce: arguments[6],
                    keyID: arguments[2],
                    body: body
                )
                print(try SigningWireFormat.signature(of: canonical, using: SymmetricKey(key)))
            case ("verify-response", 8):
                guard let key = hex(arguments[1]), let status = Int(arguments[3]), let timestamp = Int64(arguments[4]),
                    let body = hex(arguments[6])
                else { usage() }
                let canonical = SigningWireFormat.canonicalResponse(
                    status: status,
                    timestamp: timestamp,
                    requestNonce: arguments[5],
                    keyID: arguments[2],
                    body: body
                )
                let expected = try SigningWireFormat.signature(of: canonical, using: SymmetricKey(key))
                guard ConstantTime.equals(Data(expected.utf8), Data(arguments[7].lowercased().utf8)) else {
                    print("error signatureMismatch")
                    exit(1)
                }
                print("ok")
            case ("sign-legacy", 4):
                guard let secret = hex(arguments[2]),
                    let algorithm = arguments[1] == "md5"
                        ? SortedParameterSigning.Algorithm.md5 : arguments[1] == "hmac-sha256" ? .hmacSHA256 : nil
                else { usage() }
                let parameters = arguments[3].split(separator: "&").map { item -> (name: String, value: String) in
                    let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                    return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
                }
                print(try SortedParameterSigning.signature(of: parameters, secret: SymmetricKey(secret), algorithm: algorithm))
            default:
                usage()
            }
        } catch {
            print("error \(error.code)")
            exit(1)
        }
    }

    static func associatedData(_ arguments: [String]) {
        guard arguments.count == 6 || arguments.count == 7, let direction = EncryptionWireFormat.Direction(rawValue: arguments[1]),
            let scheme = scheme(named: arguments[2], iv: nil)
        else { usage() }
        let aad = EncryptionWireFormat.associatedData(
            direction: direction,
            scheme: scheme,
            keyID: arguments[3],
            method: arguments[4],
            target: arguments[5],
            requestNonce: arguments.count == 7 ? arguments[6] : nil
        )
        print(aad.map { String(format: "%02x", $0) }.joined())
    }

    static func usage() -> Never {
        FileHandle.standardError.write(Data("usage: see the documentation of switchyard-crypto-tool\n".utf8))
        exit(2)
    }

    static func sealing(_ arguments: [String]) {
        guard arguments.count >= 5, let key = hex(arguments[2]), let aad = hex(arguments[3]), let input = hex(arguments[4]) else {
            FileHandle.standardError.write(
                Data("usage: switchyard-crypto-tool seal|open <scheme> <key hex> <aad hex> <input hex> [<iv hex>]\n".utf8)
            )
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
