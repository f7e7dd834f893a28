import Foundation
import HTTPTypes
import Switchyard
import SwitchyardSupport

/// Turns what a ``HARRecordingStage`` sees into HAR values, every secret passed through its
/// `Redaction` first and every body cut at the recorder's limit.
struct HARCapture {
    let redaction: Redaction
    let bodies: HARRecordingStage.Bodies
    let maxBodyBytes: Int

    /// The request as it passed the stage; `template` is the call's endpoint name, which may carry its
    /// path template (see `Redaction.redactTarget(_:)`).
    func request(_ request: Request, template: String) -> HAR.Request {
        let scheme = request.head.scheme ?? "https"
        let authority = request.head.authority ?? "localhost"
        var recorded = HAR.Request(
            method: request.method.rawValue,
            url: "\(scheme)://\(authority)\(redaction.redactedTarget(request.path, template: template).whole)",
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
        case .stream:
            recorded.content.comment = "a streamed body: not recorded"
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

    /// The query's pairs, percent-decoded, each value shown as `Redaction.redactValue(_:named:)` allows.
    func queryString(_ query: Substring?) -> [HAR.NameValue] {
        guard let query, !query.isEmpty else { return [] }
        return query.split(separator: "&").map { pair in
            let equals = pair.firstIndex(of: "=")
            let name = PercentEncoding.decode(equals.map { pair[..<$0] } ?? pair)
            let value = equals.map { PercentEncoding.decode(pair[pair.index(after: $0)...]) } ?? ""
            return HAR.NameValue(name: name, value: redaction.redactValue(value, named: name))
        }
    }
}
