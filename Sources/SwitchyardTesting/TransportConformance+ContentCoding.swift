import Foundation
import HTTPTypes
import Switchyard

/// The content-coding cases (``Switchyard/ContentCoding``), against the sample backend's
/// `/precompressed` route: a text served as gzip, deflate or itself by `Accept-Encoding`, each with
/// its own `Content-Length` and ranges, as nginx's `gzip_static` serves pre-compressed assets.
extension TransportConformance {
    /// The text itself, fetched with `Accept-Encoding: identity`, and its `ETag`.
    private func plainText(_ transport: any Transport) async throws -> (text: Data, etag: String) {
        let plain = try await transport.send(try request(.get, "/precompressed", fields: [.acceptEncoding: "identity"]), context: context())
        try expect(
            plain.status == .ok && plain.headerFields[.contentEncoding] == nil && plain.body.count > 100_000,
            "the identity text could not be fetched: \(plain.status.code), \(plain.headerFields[.contentEncoding] ?? "no coding"), "
                + "\(plain.body.count) bytes"
        )
        return (plain.bytes, plain.headerFields[.eTag] ?? "")
    }

    /// A decoded response carries no `Content-Encoding` and the decoded length.
    private func expectDecoded(_ response: Response, equalTo text: Data, _ what: String) throws {
        try expect(response.status == .ok, "\(what): status \(response.status.code)")
        try expect(
            response.headerFields[.contentEncoding] == nil,
            "\(what): the decoded response still says Content-Encoding: \(response.headerFields[.contentEncoding] ?? "")"
        )
        try expect(
            response.headerFields[.contentLength] == String(response.body.count),
            "\(what): Content-Length \(response.headerFields[.contentLength] ?? "none") for \(response.body.count) decoded bytes"
        )
        let bytes = response.body.file.map { (try? Data(contentsOf: $0.url)) ?? Data() } ?? response.bytes
        try expect(bytes == text, "\(what): \(bytes.count) bytes that are not the text (\(text.count) bytes)")
    }

    /// `accept-encoding-default`: `gzip, deflate` when the request names none; a named one as it is.
    func acceptEncodingDefault(_ transport: any Transport) async throws {
        let plain = try echo(try await transport.send(try request(.get, "/echo"), context: context()))
        try expect(
            plain.headers["accept-encoding"] == ContentCoding.defaultAcceptEncoding,
            "expected Accept-Encoding: \(ContentCoding.defaultAcceptEncoding), the server saw \(plain.headers["accept-encoding"] ?? "none")"
        )
        let named = try echo(
            try await transport.send(try request(.get, "/echo", fields: [.acceptEncoding: "identity"]), context: context())
        )
        try expect(
            named.headers["accept-encoding"] == "identity",
            "the request's own Accept-Encoding was replaced by \(named.headers["accept-encoding"] ?? "none")"
        )
    }

    /// `decoded-body-has-no-coding`: gzip (by default) and deflate (when asked) come back decoded,
    /// without `Content-Encoding` and with the decoded `Content-Length`.
    func decodedBodyHasNoCoding(_ transport: any Transport) async throws {
        let (text, _) = try await plainText(transport)
        let gzip = try await transport.send(try request(.get, "/precompressed"), context: context())
        try expectDecoded(gzip, equalTo: text, "gzip")
        let deflate = try await transport.send(
            try request(.get, "/precompressed", fields: [.acceptEncoding: "deflate"]),
            context: context()
        )
        try expectDecoded(deflate, equalTo: text, "deflate")
    }

    /// `download-asks-for-identity`: a download to a file gets the text itself, so its length and a
    /// resumed range count bytes of the file.
    func downloadAsksForIdentity(_ transport: any Transport) async throws {
        let (text, etag) = try await plainText(transport)
        try await withTemporaryFile { file in
            var observed = context()
            observed.downloadTarget = DownloadTarget(fileURL: file)
            let whole = try await transport.send(try request(.get, "/precompressed"), context: observed)
            try expect(whole.body.file != nil, "the download did not go to the file: \(whole.status.code), \(whole.body.count) bytes")
            try expectDecoded(whole, equalTo: text, "the download")

            let offset = 100_003
            try text.prefix(offset).write(to: file)
            observed.downloadTarget = DownloadTarget(fileURL: file, resumeOffset: Int64(offset))
            let fields: HTTPFields = [.range: "bytes=\(offset)-", .ifRange: etag]
            let rest = try await transport.send(try request(.get, "/precompressed", fields: fields), context: observed)
            try expect(rest.status.code == 206, "the resumed download was answered \(rest.status.code), not 206")
            try expect(try Data(contentsOf: file) == text, "the resumed file is not the text")
        }
    }

    /// `encoded-download-is-decoded-not-resumed`: a server that encodes a download anyway gets it
    /// decoded into the file, without comparing it with the encoded length, and no resume record.
    func encodedDownloadIsDecoded(_ transport: any Transport) async throws {
        let (text, _) = try await plainText(transport)
        try await withTemporaryFile { file in
            let record = URL(fileURLWithPath: file.path + ".resume")
            defer { try? FileManager.default.removeItem(at: record) }
            var observed = context()
            observed.downloadTarget = DownloadTarget(fileURL: file, recordURL: record, resource: "precompressed")
            let response = try await transport.send(try request(.get, "/precompressed?coding=gzip"), context: observed)
            try expect(
                response.body.file != nil,
                "the download did not go to the file: \(response.status.code), \(response.body.count) bytes"
            )
            try expectDecoded(response, equalTo: text, "the gzip-encoded download")
            try expect(
                !FileManager.default.fileExists(atPath: record.path),
                "a resume record was written for decoded bytes, whose offsets mean nothing to the server"
            )
        }
    }

    /// `undecodable-coding-is-typed`: a body the transport cannot decode — in `compress`, which no
    /// built-in transport decodes, or labelled `br` without being brotli, each sent whatever the request
    /// accepts — fails with ``Switchyard/SwitchyardError/Code/invalidResponse``, never handed over
    /// encoded; in memory and to a download's file, which is then not written.
    func undecodableCoding(_ transport: any Transport) async throws {
        for coding in ["compress", "br"] {
            try await expectError(.invalidResponse, mentioning: "content coding") {
                _ = try await transport.send(try request(.get, "/precompressed?coding=\(coding)"), context: context())
            }
        }
        try await withTemporaryFile { file in
            var observed = context()
            observed.downloadTarget = DownloadTarget(fileURL: file)
            try await expectError(.invalidResponse, mentioning: "content coding") {
                _ = try await transport.send(try request(.get, "/precompressed?coding=compress"), context: observed)
            }
            try expect(!FileManager.default.fileExists(atPath: file.path), "the encoded body was written to the download's file")
        }
    }
}
