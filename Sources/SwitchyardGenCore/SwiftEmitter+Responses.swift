/// Outputs that differ by status, and the documented error bodies a failed call's response decodes to.
extension SwiftEmitter {
    static func emitOutputEnum(_ responses: [APIDescription.StatusResponse], access: String, into out: inout SourceWriter) {
        out.doc("What the endpoint answers, by status.", indent: 1)
        out.line("    \(access) enum Output: Sendable {")
        for response in responses {
            out.doc(statusText(response) + (response.summary.map { ": \($0)" } ?? "."), indent: 2)
            out.line("        case \(response.caseName)\(response.type.map { "(\($0.swiftType))" } ?? "")")
        }
        out.line("    }")
    }

    static func emitOutputDecoding(_ responses: [APIDescription.StatusResponse], access: String, into out: inout SourceWriter) {
        out.doc("`application/json`.", indent: 1)
        out.line("    \(access) var acceptedMediaType: String? { \"application/json\" }")
        out.doc("Decodes the body the response's status documents.", indent: 1)
        out.line("    \(access) func decode(_ response: Response, decoder: JSONDecoder) throws -> Output {")
        out.line("        switch response.status.code {")
        for response in responses {
            let value = response.type.map { "(try decoder.decode(\($0.swiftType).self, from: response.bytes))" } ?? ""
            out.line("        \(response.pattern.map { "case \($0)" } ?? "default"): return .\(response.caseName)\(value)")
        }
        if !responses.contains(where: { $0.pattern == nil }) {
            out.line("        default:")
            out.line(
                "            throw SwitchyardError(code: .decoding, message: \"status \\(response.status.code) is not documented for \\(name)\", response: response)"
            )
        }
        out.line("        }")
        out.line("    }")
    }

    static func emitErrorBodies(
        _ responses: [APIDescription.StatusResponse],
        decoder: String,
        access: String,
        into out: inout SourceWriter
    ) {
        let typed = responses.filter { $0.type != nil }
        guard !typed.isEmpty else { return }
        out.doc("The documented bodies of failed calls' responses, by status.", indent: 1)
        out.line("    \(access) enum ErrorBody: Sendable {")
        for response in typed {
            out.doc(statusText(response) + (response.summary.map { ": \($0)" } ?? "."), indent: 2)
            out.line("        case \(response.caseName)(\(response.type?.swiftType ?? ""))")
        }
        out.line("    }")
        out.doc(
            "The documented body of a failed call's response, decoded for its status; `nil` when the error is not a\n"
                + "`SwitchyardError` with a response, or its status or body is not the documented one.",
            indent: 1
        )
        out.line("    \(access) static func errorBody(of error: any Error, decoder: JSONDecoder = \(decoder)) -> ErrorBody? {")
        out.line("        guard let response = (error as? SwitchyardError)?.response else { return nil }")
        out.line("        switch response.status.code {")
        for response in typed {
            let label = response.pattern.map { "case \($0)" } ?? "default"
            out.line(
                "        \(label): return (try? decoder.decode(\(response.type?.swiftType ?? "").self, from: response.bytes)).map { .\(response.caseName)($0) }"
            )
        }
        if !typed.contains(where: { $0.pattern == nil }) { out.line("        default: return nil") }
        out.line("        }")
        out.line("    }")
    }

    /// `404`, `4XX (400 to 499)`, `Any other status`.
    private static func statusText(_ response: APIDescription.StatusResponse) -> String {
        if let range = response.range { return "\(range)XX (\(range)00 to \(range)99)" }
        return response.status.map(String.init) ?? "Any other status"
    }
}
