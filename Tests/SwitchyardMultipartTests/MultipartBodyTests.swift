import Foundation
import Switchyard
import SwitchyardCrypto
import SwitchyardMultipart
import SwitchyardTestSupport
import Testing

@Suite("Multipart bodies")
struct MultipartBodyTests {
    /// Parses `body` with Python's `email` package (an independent RFC 2046 parser) and reports each
    /// part's name, file name, media type, size and SHA-256.
    static func parseWithPython(_ body: Data, contentType: String) async throws -> [[String: String]] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("switchyard-multipart-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let bodyFile = directory.appendingPathComponent("body.bin")
        try body.write(to: bodyFile)
        let script = """
            import sys, json, hashlib, email
            from email import policy
            body = open(sys.argv[2], 'rb').read()
            message = email.message_from_bytes(b'Content-Type: ' + sys.argv[1].encode() + b'\\r\\nMIME-Version: 1.0\\r\\n\\r\\n' + body, policy=policy.HTTP)
            assert message.is_multipart(), 'not multipart'
            assert not message.defects, str(message.defects)
            parts = []
            for part in message.iter_parts():
                payload = part.get_payload(decode=True)
                parts.append({'name': part.get_param('name', header='content-disposition') or '', 'filename': part.get_filename() or '',
                              'type': part.get('Content-Type') or '', 'size': str(len(payload)), 'sha256': hashlib.sha256(payload).hexdigest()})
            print(json.dumps(parts))
            """
        let run = try await ToolRun.run("python3", ["-c", script, contentType, bodyFile.path])
        guard run.succeeded else { throw SwitchyardError(code: .invalidResponse, message: "python: \(run.errors)") }
        return try JSONDecoder().decode([[String: String]].self, from: Data(run.output.utf8))
    }

    @Test("fields and files parsed back by Python's email package match field for field and byte for byte")
    func roundTripThroughAnIndependentParser() async throws {
        // A binary file full of CR, LF and dashes, written to disk and appended by path.
        var bytes = [UInt8](repeating: 0, count: 300_000)
        for index in bytes.indices { bytes[index] = [0x0D, 0x0A, 0x2D, 0x00, 0xFF, UInt8(truncatingIfNeeded: index)][index % 6] }
        let binary = Data(bytes)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("switchyard-upload-\(UUID().uuidString).png")
        try binary.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }

        var form = MultipartBody()
        form.append(field: "title", "Holiday 张衡 \r\n--not-a-boundary")
        form.append(field: "empty", "")
        try form.append(fileAt: file, field: "photo")
        form.append(file: Data("a,b\n1,2\n".utf8), field: "table", fileName: "data.csv")
        let (body, contentType) = try form.encoded()
        #expect(contentType.hasPrefix("multipart/form-data; boundary=switchyard-"))

        let parts = try await Self.parseWithPython(body, contentType: contentType)
        #expect(parts.count == 4)
        let expected: [(String, String, String, Data)] = [
            ("title", "", "", Data("Holiday 张衡 \r\n--not-a-boundary".utf8)),
            ("empty", "", "", Data()),
            ("photo", file.lastPathComponent, "image/png", binary),
            ("table", "data.csv", "text/csv", Data("a,b\n1,2\n".utf8)),
        ]
        for (part, (name, fileName, type, data)) in zip(parts, expected) {
            #expect(part["name"] == name)
            #expect(part["filename"] == fileName)
            #expect(part["type"] == type)
            #expect(part["size"] == String(data.count))
            #expect(part["sha256"] == Digest.hex(Digest.sha256(data)))
        }
    }

    @Test("names are escaped per RFC 7578; a boundary inside a part is refused; an unreadable file is a typed error")
    func edges() async throws {
        var form = MultipartBody()
        form.append(field: "a\"b\r\nc", "x")
        let text = String(decoding: try form.encoded(boundary: "B0UNDARY").data, as: UTF8.self)
        #expect(text == "--B0UNDARY\r\nContent-Disposition: form-data; name=\"a%22b%0D%0Ac\"\r\n\r\nx\r\n--B0UNDARY--\r\n")
        var clash = MultipartBody()
        clash.append(field: "f", "text with --B0UNDARY inside")
        #expect(throws: SwitchyardError.self) { _ = try clash.encoded(boundary: "B0UNDARY") }
        var missing = MultipartBody()
        #expect(throws: SwitchyardError.self) { try missing.append(fileAt: URL(fileURLWithPath: "/nonexistent/file.bin"), field: "f") }
    }

    @Test("the streamed body is byte for byte what multipart-kit serialises, and Python's email package parses it the same")
    func streamedMatchesSerialised() async throws {
        var bytes = [UInt8](repeating: 0, count: 200_003)
        for index in bytes.indices { bytes[index] = [0x0D, 0x0A, 0x2D, UInt8(truncatingIfNeeded: index)][index % 4] }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("switchyard-upload-\(UUID().uuidString).bin")
        try Data(bytes).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        var form = MultipartBody()
        form.append(field: "title", "张衡 \"quoted\"")
        try form.append(fileAt: file, field: "blob", fileName: "a b.bin")
        form.append(file: Data("x".utf8), field: "tiny", fileName: "t.txt")
        let (serialised, contentType) = try form.encoded(boundary: "sy-fixed-boundary")
        let (streamed, streamedType) = try form.streamedBody(boundary: "sy-fixed-boundary")
        #expect(streamedType == contentType)
        var collected = Data()
        for try await chunk in streamed.chunks(size: 4_096) { collected += chunk }
        #expect(collected == serialised)
        #expect(streamed.length == Int64(serialised.count))

        let (random, randomType) = try form.streamedBody()
        var body = Data()
        for try await chunk in random.chunks() { body += chunk }
        let parts = try await Self.parseWithPython(body, contentType: randomType)
        #expect(parts.map { $0["name"] } == ["title", "blob", "tiny"])
        #expect(
            parts[1]["filename"] == "a b.bin" && parts[1]["size"] == "200003"
                && parts[1]["sha256"] == Digest.hex(Digest.sha256(Data(bytes)))
        )
    }

    @Test("a chosen boundary found inside a file part is refused before anything is sent")
    func boundaryInsideAFile() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("switchyard-upload-\(UUID().uuidString).txt")
        try Data((String(repeating: "x", count: (1 << 20) - 3) + "--EDGE-boundary-here").utf8).write(to: file)  // straddles a 1 MiB read
        defer { try? FileManager.default.removeItem(at: file) }
        var form = MultipartBody()
        try form.append(fileAt: file, field: "f")
        #expect { _ = try form.streamedBody(boundary: "EDGE-boundary") } throws: { ($0 as? SwitchyardError)?.code == .encoding }
        #expect(throws: Never.self) { _ = try form.streamedBody(boundary: "other-boundary") }
    }
}
