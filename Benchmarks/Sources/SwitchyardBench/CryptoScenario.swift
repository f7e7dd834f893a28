import ArgumentParser
import CEVPLoop
import Foundation
import SwitchyardCrypto

/// `crypto`: AES-256-GCM seal/open and HMAC-SHA256 throughput of SwitchyardCrypto against a plain
/// OpenSSL EVP loop in C doing the same one-shot work per message, rounds interleaved.
struct CryptoScenario: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "crypto", abstract: "Cipher and MAC throughput against plain EVP loops.")

    @Option(help: "Message size in bytes.") var bytes = 16384
    @Option(help: "Messages per round.") var messages = 20_000
    @Option(help: "Rounds per contender (the median is reported).") var rounds = 5

    func run() async throws {
        let key = try SymmetricKey.random(byteCount: 32)
        let keyBytes = key.withUnsafeBytes { Array($0) }
        let message = Data((0..<bytes).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let messageBytes = Array(message)
        let aad = Data(count: 16)
        let sealed = try AESGCM.seal(message, using: key, authenticating: aad)

        let nonce = Data(count: 12)
        var fixed: [Double] = []
        var evpGCM: [Double] = []
        var seal: [Double] = []
        var open: [Double] = []
        var evpHMAC: [Double] = []
        var hmac: [Double] = []
        for _ in 0..<rounds {
            evpGCM.append(
                try rate {
                    guard switchyard_evp_gcm_seal_loop(keyBytes, messageBytes, messageBytes.count, messages) == messages else {
                        throw ValidationError("EVP GCM loop failed")
                    }
                }
            )
            seal.append(
                try rate {
                    for _ in 0..<messages { _ = try AESGCM.seal(message, using: key, authenticating: aad) }
                }
            )
            fixed.append(
                try rate {
                    for _ in 0..<messages { _ = try AESGCM.seal(message, using: key, nonce: nonce, authenticating: aad) }
                }
            )
            open.append(
                try rate {
                    for _ in 0..<messages { _ = try AESGCM.open(sealed, using: key, authenticating: aad) }
                }
            )
            evpHMAC.append(
                try rate {
                    guard switchyard_evp_hmac_loop(keyBytes, messageBytes, messageBytes.count, messages) == messages else {
                        throw ValidationError("EVP HMAC loop failed")
                    }
                }
            )
            hmac.append(
                try rate {
                    for _ in 0..<messages { _ = try HMAC.authenticationCode(for: message, using: key) }
                }
            )
        }
        let results = [
            ("openssl-evp aes-256-gcm", evpGCM), ("switchyard aes-256-gcm seal", seal), ("switchyard aes-256-gcm open", open),
            ("openssl-evp hmac-sha256", evpHMAC), ("switchyard hmac-sha256", hmac),
        ]
        for (label, values) in results {
            print("\(label) bytes=\(bytes) \(Statistics.format(Statistics.median(values))) MB/s")
        }
        let randStart = ContinuousClock.now
        _ = switchyard_evp_rand_loop(1_000_000)
        let cRand = Statistics.seconds(ContinuousClock.now - randStart) * 1e3
        let swiftStart = ContinuousClock.now
        for _ in 0..<1_000_000 { _ = try SecureRandom.bytes(count: 12) }
        let swiftRand = Statistics.seconds(ContinuousClock.now - swiftStart) * 1e3
        print("diagnostic rand-bytes-12 openssl-evp \(Statistics.format(cRand)) ns switchyard \(Statistics.format(swiftRand)) ns")
        print("diagnostic switchyard aes-256-gcm seal fixed-nonce bytes=\(bytes) \(Statistics.format(Statistics.median(fixed))) MB/s")
        print("ratio seal/evp \(Statistics.format(Statistics.median(seal) / Statistics.median(evpGCM), decimals: 3))")
        print("ratio open/evp \(Statistics.format(Statistics.median(open) / Statistics.median(evpGCM), decimals: 3))")
        print("ratio hmac/evp \(Statistics.format(Statistics.median(hmac) / Statistics.median(evpHMAC), decimals: 3))")
    }

    /// Megabytes (10^6 bytes) per second of `messages` messages of `bytes` bytes processed by `work`.
    private func rate(_ work: () throws -> Void) throws -> Double {
        let start = ContinuousClock.now
        try work()
        return Double(bytes) * Double(messages) / Statistics.seconds(ContinuousClock.now - start) / 1e6
    }
}
