import Foundation
import NIOCore
import NIOHTTP1

/// `GET|HEAD /precompressed`: a 226,000-byte text served the way nginx's `gzip_static` serves a
/// pre-compressed asset — as gzip (1,085 bytes) or deflate (1,073 bytes, zlib format) when the
/// request's `Accept-Encoding` allows it, as the text itself otherwise — each representation with
/// its own `Content-Length`, strong `ETag`, `Range` and `If-Range` (ranges count bytes of the
/// representation sent, as nginx's do), and `Vary: Accept-Encoding`.
///
/// `?coding=gzip` or `?coding=deflate` sends that coding whatever the request accepts: a server
/// that ignores `Accept-Encoding: identity`.
///
/// The text is ``paragraph`` 1,000 times; the encoded bytes are Python's
/// `gzip.compress(text, 9, mtime=0)` and `zlib.compress(text, 9)`.
enum PrecompressedText {
    /// The paragraph the text repeats.
    static let paragraph =
        "Switchyard sends every call through its service's stages and ends in a transport. "
        + "This paragraph repeats so that gzip and deflate shrink it to a few kilobytes, "
        + "as a pre-compressed asset served by nginx's gzip_static would be.\n"

    /// The text: ``paragraph`` 1,000 times.
    static let text = Data(String(repeating: paragraph, count: 1000).utf8)

    /// The gzip representation.
    static let gzip = Data(base64Encoded: gzipBase64) ?? Data()

    /// The deflate (zlib) representation.
    static let deflate = Data(base64Encoded: deflateBase64) ?? Data()

    private static let gzipBase64 =
        "H4sIAAAAAAACA+3PPXLcMAwG0D6nQJfG2cs4vYeWaIljWdKQXG/Wpw+9vW/wKv5g8AHv+Vb6tN5TnaPlfW6RP3O9x5S2Lfpaj+uyRultFOtnmfLvcetp"
        + "yS3SPsejoeyRote0t/Oo/RJ/19LiTDUtNZ1r1Hzm9B1wjLzUY/kq56N5zm9b6jnaWsv+PoZEP0bSW77Fe9mO13vP7SnSmBRnzX+m42McreV5/LXcHxuN"
        + "x+s99qXs/8Zm39EvY71eprgd120U8+XXMyEh" + String(repeating: "ISEh", count: 290) + "ISHhD8L/crneN9ByAwA="

    private static let deflateBase64 =
        "eNrtzz1y3DAMBtA+p0CXxtnLOL2HlmiJY1nSkFxv1qcPvb1v8Cr+YPAB7/lW+rTeU52j5X1ukT9zvceUti36Wo/rskbpbRTrZ5ny73Hrackt0j7Ho6Hs"
        + "kaLXtLfzqP0Sf9fS4kw1LTWda9R85vQdcIy81GP5Kuejec5vW+o52lrL/j6GRD9G0lu+xXvZjtd7z+0p0pgUZ81/puNjHK3lefy13B8bjcfrPfal7P/G"
        + "Zt/RL2O9Xqa4HddtFPPl1zMh" + String(repeating: "ISEh", count: 291) + "4Q/C/+54kXc="

    /// Answers the route.
    static func respond(to request: LoopbackRequest) -> LoopbackResponse {
        let forced = request.queryItem(named: "coding")
        let coding = forced ?? preferredCoding(request.head.headers.first(name: "accept-encoding"))
        let bytes: Data
        switch coding {
        case "gzip": bytes = gzip
        case "deflate": bytes = deflate
        default: bytes = text
        }
        let etag = "\"precompressed-\(coding ?? "identity")\""
        var headers: [(name: String, value: String)] = [
            ("ETag", etag), ("Last-Modified", BlobRoute.lastModified), ("Accept-Ranges", "bytes"), ("Vary", "Accept-Encoding"),
        ]
        if let coding { headers.append(("Content-Encoding", coding)) }
        var status = HTTPResponseStatus.ok
        var body = bytes
        let ifRange = request.head.headers.first(name: "if-range")
        if let range = request.head.headers.first(name: "range"), ifRange == nil || ifRange == etag {
            guard let (start, end) = BlobRoute.parseRange(range, size: Int64(bytes.count)) else {
                var unsatisfiable = LoopbackResponse.json(.object([("error", "range not satisfiable")]), status: .rangeNotSatisfiable)
                unsatisfiable.extraHeaders = [("Content-Range", "bytes */\(bytes.count)")]
                return unsatisfiable
            }
            status = .partialContent
            body = bytes.subdata(in: Int(start)..<Int(end))
            headers.append(("Content-Range", "bytes \(start)-\(end - 1)/\(bytes.count)"))
        }
        var response = LoopbackResponse(status: status, contentType: "text/plain; charset=utf-8", body: ByteBuffer(bytes: body))
        response.extraHeaders = headers
        return response
    }

    /// The coding nginx would pick: gzip when accepted, then deflate, else none (the identity).
    static func preferredCoding(_ acceptEncoding: String?) -> String? {
        guard let acceptEncoding else { return nil }
        var accepted: Set<String> = []
        for item in acceptEncoding.lowercased().split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let name = parts.first, !name.isEmpty else { continue }
            let quality = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            if quality > 0 { accepted.insert(name) }
        }
        if accepted.contains("gzip") || accepted.contains("*") { return "gzip" }
        if accepted.contains("deflate") { return "deflate" }
        return nil
    }
}
