/// The documented example responses: a static `examples` list per endpoint, and per service the list
/// of its operations that an `ExampleTransport` answers from.
extension SwiftEmitter {
    /// `static let examples: [Response]`, when the endpoint documents examples.
    static func emitExamples(_ examples: [APIDescription.Example], access: String, into out: inout SourceWriter) {
        guard !examples.isEmpty else { return }
        let listed = examples.map { "\($0.status) `\($0.mediaType)`" }.joined(separator: ", ")
        out.doc("The documented example responses (\(listed)), in document order, for an `ExampleTransport`.", indent: 1)
        out.line("    \(access) static let examples: [Response] = [")
        for example in examples {
            let type = SwiftSource.literal(example.mediaType)
            out.line(
                "        Response(status: \(example.status), headerFields: [.contentType: \(type)], body: Data(\(SwiftSource.literal(example.body)).utf8)),"
            )
        }
        out.line("    ]")
    }

    /// `static let <service>Examples: [ExampleTransport.Operation]`, when an endpoint of the service
    /// documents examples.
    static func emitExampleOperations(_ service: APIDescription.Service, access: String, into out: inout SourceWriter) {
        let endpoints = service.endpoints.filter { !$0.examples.isEmpty }
        guard !endpoints.isEmpty else { return }
        out.line()
        out.doc(
            "The endpoints of `\(service.id)` that document example responses, for an `ExampleTransport`: previews, UI\n"
                + "tests and demo mode (``ServerEnvironment/demo``).",
            indent: 1
        )
        out.line("    \(access) static let \(service.swiftName)Examples: [ExampleTransport.Operation] = [")
        for endpoint in endpoints {
            let method = "." + SwiftNames.property(endpoint.method.lowercased())
            out.line(
                "        ExampleTransport.Operation(\(method), \(SwiftSource.literal(endpoint.path)), examples: \(endpoint.name).examples),"
            )
        }
        out.line("    ]")
    }
}
