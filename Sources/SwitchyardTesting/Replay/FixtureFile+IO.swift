import Foundation
import HTTPTypes
import Switchyard

extension FixtureFile {
    /// The file of `service` in `directory`: `<service id>.json`.
    static func url(for service: ServiceID, in directory: URL) -> URL {
        directory.appendingPathComponent(service.rawValue + ".json")
    }

    /// Reads and checks a fixture file: at most `maxSize` bytes, the current format, the expected
    /// service, well-formed entries.
    ///
    /// - Throws: ``SwitchyardError/Code/storage`` when the file cannot be read or is malformed,
    ///   ``SwitchyardError/Code/limitExceeded`` when it is larger than `maxSize`.
    static func load(from url: URL, service: ServiceID, maxSize: Int) throws(SwitchyardError) -> FixtureFile {
        let name = url.lastPathComponent
        let data: Data
        do {
            // Read at most one byte past the limit: a huge file is refused without being read whole.
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            data = try handle.read(upToCount: maxSize + 1) ?? Data()
        } catch {
            throw SwitchyardError(code: .storage, message: "cannot read fixture file \(name)", underlyingError: error)
        }
        guard data.count <= maxSize else {
            throw SwitchyardError(code: .limitExceeded, message: "fixture file \(name) is larger than the limit of \(maxSize) bytes")
        }
        guard !FixtureJSON.isTooDeep(data) else {
            throw SwitchyardError(code: .storage, message: "fixture file \(name) nests deeper than \(FixtureJSON.maxDepth) levels")
        }
        let file: FixtureFile
        do {
            file = try JSONDecoder().decode(FixtureFile.self, from: data)
        } catch {
            throw SwitchyardError(code: .storage, message: "fixture file \(name) is not a fixture file: \(Self.reason(error))")
        }
        guard file.format == currentFormat else {
            throw SwitchyardError(
                code: .storage,
                message: "fixture file \(name) has format \(file.format); this version reads \(currentFormat)"
            )
        }
        guard file.service == service.rawValue else {
            throw SwitchyardError(code: .storage, message: "fixture file \(name) holds service '\(file.service)', not '\(service)'")
        }
        return file
    }

    /// The encoded file: pretty-printed, keys sorted, slashes unescaped.
    func encoded() throws(SwitchyardError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            var data = try encoder.encode(self)
            data.append(UInt8(ascii: "\n"))
            return data
        } catch {
            throw SwitchyardError(code: .storage, message: "cannot encode the fixtures of '\(service)'", underlyingError: error)
        }
    }

    /// Where decoding failed, without the file's content.
    private static func reason(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "malformed JSON" }
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context), .dataCorrupted(let context):
            let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
            if case .keyNotFound(let key, _) = error { return "member '\(key.stringValue)' missing at '\(path)'" }
            return path.isEmpty ? "malformed JSON" : "unexpected value at '\(path)'"
        @unknown default:
            return "malformed JSON"
        }
    }
}

extension FixtureResponse {
    /// The response a replay answers with.
    ///
    /// - Throws: ``SwitchyardError/Code/storage`` when the entry is malformed: a status outside
    ///   100–599, a header line that is not `name: value` with a valid name, a body with other than
    ///   exactly one member, or base64 that does not decode.
    func response(entry: Int, file: String) throws(SwitchyardError) -> Response {
        func malformed(_ reason: String) -> SwitchyardError {
            SwitchyardError(code: .storage, message: "fixture file \(file), entry \(entry): \(reason)")
        }
        guard (100...599).contains(status) else { throw malformed("status \(status) is not an HTTP status") }
        var fields = HTTPFields()
        for line in headers {
            guard let colon = line.firstIndex(of: ":"), let name = HTTPField.Name(String(line[..<colon])) else {
                throw malformed("a response header line is not 'name: value'")
            }
            fields.append(HTTPField(name: name, value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        let bytes: Data
        switch (body?.json, body?.form, body?.text, body?.base64) {
        case (nil, nil, nil, nil):
            bytes = Data()
        case (let json?, nil, nil, nil):
            guard let encoded = try? JSONEncoder().encode(json) else { throw malformed("the JSON body cannot be encoded") }
            bytes = encoded
        case (nil, let form?, nil, nil):
            bytes = Data(form.joined(separator: "&").utf8)
        case (nil, nil, let text?, nil):
            bytes = Data(text.utf8)
        case (nil, nil, nil, let base64?):
            guard let decoded = Data(base64Encoded: base64) else { throw malformed("the base64 body does not decode") }
            bytes = decoded
        default:
            throw malformed("a body holds exactly one of json, form, text and base64")
        }
        return Response(status: HTTPResponse.Status(code: status), headerFields: fields, body: bytes, source: .stub)
    }
}
