import Foundation
import HTTPTypes

/// Turns what a ``HARRecordingStage`` sees into HAR values, every secret passed through its
/// ``Redaction`` first and every body cut at the recorder's limit.
struct HARCapture {
    let redaction: Redaction
    let bodies: HARRecordingStage.Bodies
    let maxBodyBytes: Int

    /// The request as it passed the stage.
    func request(_ request: Request) -> HAR.Request {
        let scheme = request.head.scheme ?? "https"
        let authority = request.head.authority ?? "localhost"
        var recorded = HAR.Request(
            method: request.method.rawValue,
            url: "\(scheme)://\(authority)\(redaction.redactTarget(request.path))",
            cookies: requestCookies(request.headerFields),
            headers: headers(request.headerFields),
            queryString: queryString(request.query)
        )
        let mimeType = request.headerFields[.contentType] ?? ""
        switch request.body {
        case nil:
            break
        case .bytes(let data):
            recorded.bodySize = data.count
            let body = content(data, contentType: mimeType)
            recorded.postData = HAR.PostData(mimeType: mimeType, text: body.text, encoding: body.encoding, comment: body.comment)
        case .stream(let stream):
            recorded.bodySize = Int(stream.length)
            let comment = "\(stream.length) bytes streamed from \(stream.segments.count) segments: not recorded"
            recorded.postData = HAR.PostData(mimeType: mimeType, comment: comment)
        }
        return recorded
    }

    /// The response as it came back.
    func response(_ response: Response) -> HAR.Response {
        let mimeType = response.headerFields[.contentType] ?? ""
        let fromCache = response.source == .memoryCache || response.source == .diskCache
        var recorded = HAR.Response(
            status: response.status.code,
            statusText: response.status.reasonPhrase,
            cookies: responseCookies(response.headerFields),
            headers: headers(response.headerFields),
            content: HAR.Content(size: response.body.count, mimeType: mimeType),
            redirectURL: response.headerFields[.location].map(redactLocation) ?? "",
            bodySize: fromCache ? 0 : response.body.count,
            source: response.source.rawValue
        )
        switch response.body {
        case .bytes(let data):
            let body = content(data, contentType: mimeType)
            recorded.content.text = body.text
            recorded.content.encoding = body.encoding
            recorded.content.comment = body.comment
        case .file(let file):
            recorded.content.comment = "\(file.byteCount) bytes written to a file by a download: not recorded"
        }
        return recorded
    }

    /// What a failed call brought back: the response the error carries, if any, or status 0; with
    /// the error's code, redacted message and stage as `_error`.
    func failure(_ error: SwitchyardError) -> HAR.Response {
        var recorded =
            error.response.map(response)
            ?? HAR.Response(status: 0, content: HAR.Content(size: 0, mimeType: "x-unknown"), bodySize: -1)
        let stage = error.stage.map { " (stage \($0))" } ?? ""
        recorded.error = "\(error.code): \(redaction.redactMessage(of: error))\(stage)"
        return recorded
    }

    /// Header fields in order, secret values replaced, the URL-valued `Location` and
    /// `Content-Location` redacted as URLs (relative ones too) and absolute URLs in the others redacted.
    func headers(_ fields: HTTPFields) -> [HAR.NameValue] {
        fields.map { field in
            let value: String
            if redaction.isSensitive(field.name) {
                value = redaction.replacement
            } else if field.name == .location || field.name == .contentLocation {
                value = redactLocation(field.value)
            } else {
                value = redaction.redactURLs(in: field.value)
            }
            return HAR.NameValue(name: field.name.rawName, value: value)
        }
    }

    /// A `Location` value, absolute or relative, redacted.
    private func redactLocation(_ location: String) -> String {
        location.contains("://") ? redaction.redactURLs(in: location) : redaction.redactTarget(location)
    }

    /// The query's pairs, percent-decoded, each value shown as ``Redaction/redactValue(_:named:)`` allows.
    func queryString(_ query: Substring?) -> [HAR.NameValue] {
        guard let query, !query.isEmpty else { return [] }
        return query.split(separator: "&").map { pair in
            let equals = pair.firstIndex(of: "=")
            let name = PercentEncoding.decode(equals.map { pair[..<$0] } ?? pair)
            let value = equals.map { PercentEncoding.decode(pair[pair.index(after: $0)...]) } ?? ""
            return HAR.NameValue(name: name, value: redaction.redactValue(value, named: name))
        }
    }

    /// What of a body is recorded: redacted text, base64 of binary bytes, or nothing, with a comment
    /// when it is cut or left out.
    func content(_ body: Data, contentType: String) -> (text: String?, encoding: String?, comment: String?) {
        guard !body.isEmpty else { return ("", nil, nil) }
        guard bodies != .none else { return (nil, nil, "body not recorded (HARRecordingStage bodies: .none)") }
        if let text = redaction.redactBody(body, contentType: contentType) {
            let cut = Self.prefix(text, maxBytes: maxBodyBytes)
            let comment = cut.utf8.count < text.utf8.count ? "text cut to its first \(cut.utf8.count) bytes, after redaction" : nil
            return (cut, nil, comment)
        }
        guard Redaction.text(body) == nil else {
            let type = contentType.isEmpty ? "no type" : contentType
            return (nil, nil, "text of \(type) not recorded: redaction reads JSON, form pairs and text/ types only")
        }
        guard bodies == .all else { return (nil, nil, "\(body.count) binary bytes not recorded (HARRecordingStage bodies: .text)") }
        let kept = body.prefix(maxBodyBytes)
        let comment = kept.count < body.count ? "binary body cut to its first \(kept.count) of \(body.count) bytes" : nil
        return (kept.base64EncodedString(), "base64", comment)
    }

    /// The longest prefix of `text` of at most `maxBytes` UTF-8 bytes that ends on a character boundary.
    static func prefix(_ text: String, maxBytes: Int) -> String {
        let utf8 = text.utf8
        guard utf8.count > maxBytes else { return text }
        var end = utf8.index(utf8.startIndex, offsetBy: maxBytes)
        // Back off continuation bytes (10xxxxxx) so the cut never splits a scalar.
        while end > utf8.startIndex, utf8[end] & 0xC0 == 0x80 { end = utf8.index(before: end) }
        return String(text[..<end])
    }
}
