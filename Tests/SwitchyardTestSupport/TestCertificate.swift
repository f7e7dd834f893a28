package import Foundation

/// A self-signed certificate made for one test run by the `openssl` command-line tool, with its
/// public-key pin computed by OpenSSL too (not by the code under test). Shared by the pinning tests
/// of the AsyncHTTPClient transport and of the channels.
package struct TestCertificate: Sendable {
    /// The directory holding the files; removed by ``remove()``.
    package let directory: URL
    /// The certificate, PEM.
    package let certificatePath: String
    /// The private key, PEM.
    package let keyPath: String
    /// `sha256/<Base64>` of the certificate's `SubjectPublicKeyInfo`, from `openssl pkey | openssl dgst`.
    package let pin: String

    /// Makes a P-256 certificate for `names` (a subjectAltName list), valid for two days.
    package static func make(names: String = "DNS:localhost,IP:127.0.0.1") async throws -> TestCertificate {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("switchyard-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let certificate = directory.appendingPathComponent("cert.pem").path
        let key = directory.appendingPathComponent("key.pem").path
        try await shell(
            "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 -subj /CN=localhost "
                + "-addext subjectAltName=\(names) -keyout '\(key)' -out '\(certificate)' 2>/dev/null"
        )
        let pin = try await shell(
            "openssl x509 -in '\(certificate)' -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64"
        )
        return TestCertificate(directory: directory, certificatePath: certificate, keyPath: key, pin: "sha256/" + pin)
    }

    /// Removes the certificate's files.
    package func remove() {
        try? FileManager.default.removeItem(at: directory)
    }

    @discardableResult
    private static func shell(_ command: String) async throws -> String {
        let run = try await ToolRun.run("/bin/sh", ["-c", command])
        guard run.succeeded else {
            throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "openssl failed: \(command)"])
        }
        return run.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
