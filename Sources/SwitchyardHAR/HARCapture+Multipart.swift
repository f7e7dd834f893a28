import Foundation
import Switchyard

extension HARCapture {
    /// A multipart body written out again as multipart text under its own boundary, each part with
    /// its `Content-Disposition` (name and file name) and `Content-Type` alone: a field named like a
    /// secret as the replacement, any other field through redaction as text (read leniently only
    /// under a declared text type), and a file — or a part that is not text — as a line giving its
    /// size and type, never its bytes.
    func multipart(_ body: Data, contentType: String) -> Recorded {
        guard let form = MultipartForm(body, contentType: contentType) else {
            return (nil, nil, "\(body.count) bytes of multipart not recorded: its parts could not be read")
        }
        var text = ""
        for part in form.parts {
            text += "--\(form.boundary)\r\nContent-Disposition: \(part.disposition)"
            if let name = part.name { text += "; name=\(Self.quoted(name))" }
            if let filename = part.filename { text += "; filename=\(Self.quoted(filename))" }
            text += "\r\n"
            if let type = part.contentType { text += "Content-Type: \(type)\r\n" }
            text += "\r\n\(recordedText(of: part))\r\n"
        }
        text += "--\(form.boundary)--\r\n"
        return cut(text, note: "multipart: fields redacted, files and binary parts described by size and type")
    }

    /// What of one part is written: the replacement, redacted text, or its description.
    private func recordedText(of part: MultipartForm.Part) -> String {
        // RFC 7578: a part without a type is text, a file without one is octet-stream.
        let type = part.contentType ?? (part.filename == nil ? "text/plain" : "application/octet-stream")
        let mediaType = MediaType.of(type)
        let described = "<\(part.filename == nil ? "" : "file: ")\(part.body.count) bytes of \(mediaType), not recorded>"
        if part.filename != nil { return described }
        if let name = part.name, redaction.isSensitive(name) { return redaction.replacement }
        guard !part.body.isEmpty else { return "" }
        guard !mediaType.hasPrefix("multipart/"), !Self.isBinary(mediaType) else { return described }
        // Only a declared text type is read leniently: bytes that are not text under none are described.
        guard part.contentType != nil || Redaction.text(part.body) != nil else { return described }
        switch redactedText(part.body, contentType: type) {
        case .shown(let text, _): return text
        case .hidden: return described
        }
    }

    /// `value` in double quotes, with `"` and `\` escaped and line breaks dropped, so a name cannot
    /// break the head it is written into.
    private static func quoted(_ value: String) -> String {
        var quoted = "\""
        for character in value where character != "\r" && character != "\n" {
            if character == "\"" || character == "\\" { quoted.append("\\") }
            quoted.append(character)
        }
        return quoted + "\""
    }
}
