/// Streamed endpoints: `Output = ResponseStream`, the type of the stream's values (`Element`), the media
/// type to accept, and `elements(of:)`, which decodes the values with the runtime's decoder for the
/// media type (`serverSentEvents()`, `jsonLines(of:)`, `jsonSequence(of:)`).
extension SwiftEmitter {
    /// `typealias Output = ResponseStream` and `typealias Element`. The runtime's types are written with
    /// their module (`Switchyard.ResponseStream`), so that a model of the document named like one does
    /// not stand in for it; in a namespace the element's models are written with it (a model `Element`).
    static func emitStreamTypes(
        mediaType: String,
        element: TypeReference?,
        namespace: String?,
        access: String,
        into out: inout SourceWriter
    ) {
        out.doc(
            "What the endpoint answers: the body as it arrives (`\(mediaType)`); ``elements(of:\(element == nil ? "" : "decoder:"))``"
                + " decodes its values.",
            indent: 1
        )
        out.line("    \(access) typealias Output = Switchyard.ResponseStream")
        let elementType: String
        if let element {
            // At module scope a model named `Element` cannot be named from inside the endpoint; the values
            // then keep their type in `elements(of:decoder:)` only.
            guard namespace != nil || !element.modelNames.contains("Element") else { return }
            elementType = qualified(element, namespace: namespace)
        } else {
            elementType = "Switchyard.ServerSentEvent"
        }
        out.doc("A value of the answer: \(valueText(mediaType: mediaType, typed: element != nil)).", indent: 1)
        out.line("    \(access) typealias Element = \(elementType)")
    }

    /// `acceptedMediaType` and `static func elements(of:decoder:)`.
    static func emitStreamDecoding(
        mediaType: String,
        element: TypeReference?,
        decoder: String,
        access: String,
        into out: inout SourceWriter
    ) {
        out.doc("`\(mediaType)`: the answer streams.", indent: 1)
        out.line("    \(access) var acceptedMediaType: String? { \(SwiftSource.literal(mediaType)) }")
        var doc = [
            "The values of an answer of this endpoint, decoded as they arrive: \(valueText(mediaType: mediaType, typed: element != nil)).",
            "",
            "```swift",
            "for try await value in Self.elements(of: try await client.send(endpoint).value) { … }",
            "```",
        ]
        if mediaType == "text/event-stream" {
            doc += [
                "",
                "To reconnect when the connection drops, read the events with `client.events(endpoint, reconnect:)`"
                    + (element == nil ? "." : " and decode each one's data with `decodeData(as: Element.self)`."),
            ]
        }
        doc += ["", "- Parameters:", "  - stream: the answer's body."]
        if element != nil { doc.append("  - decoder: the JSON decoder of the values.") }
        doc.append(
            "- Returns: the values, in order; one that is too large\(element == nil ? "" : " or does not decode") ends them with a"
                + " `SwitchyardError`, as does a failure of the stream."
        )
        out.doc(doc.joined(separator: "\n"), indent: 1)
        let stream = "Switchyard.ResponseStream"
        guard let element else {
            out.line(
                "    \(access) static func elements(of stream: \(stream)) -> Switchyard.DecodedStream<\(stream), Switchyard.ServerSentEvent> {"
            )
            out.line("        stream.serverSentEvents()")
            out.line("    }")
            return
        }
        let type = element.swiftType
        let parameters = "of stream: \(stream), decoder: JSONDecoder = \(decoder)"
        switch mediaType {
        case "text/event-stream":
            out.line("    \(access) static func elements(\(parameters)) -> some AsyncSequence<\(type), any Error> & Sendable {")
            out.line("        stream.serverSentEvents().map { event in try event.decodeData(as: \(type).self, decoder: decoder) }")
        case "application/json-seq":
            out.line("    \(access) static func elements(\(parameters)) -> Switchyard.DecodedStream<\(stream), \(type)> {")
            out.line("        stream.jsonSequence(of: \(type).self, decoder: decoder)")
        default:
            out.line("    \(access) static func elements(\(parameters)) -> Switchyard.DecodedStream<\(stream), \(type)> {")
            out.line("        stream.jsonLines(of: \(type).self, decoder: decoder)")
        }
        out.line("    }")
    }

    /// Whether the endpoint's values are decoded from JSON (its `elements(of:decoder:)` takes a `JSONDecoder`).
    static func decodesStream(_ response: APIDescription.Response) -> Bool {
        if case .stream(_, _?) = response { true } else { false }
    }

    /// What one value of a stream is, for the documentation.
    static func valueText(mediaType: String, typed: Bool) -> String {
        switch mediaType {
        case "text/event-stream": typed ? "the JSON data of one of its Server-Sent Events" : "one of its Server-Sent Events"
        case "application/json-seq": "one JSON text of its sequence (RFC 7464)"
        default: "one line of its JSON Lines"
        }
    }

    /// A type's Swift spelling with its models named through `namespace`, when there is one.
    private static func qualified(_ type: TypeReference, namespace: String?) -> String {
        guard let namespace else { return type.swiftType }
        switch type {
        case .scalar: return type.swiftType
        case .model(let name): return namespace + "." + name
        case .array(let element): return "[\(qualified(element, namespace: namespace))]"
        case .optional(let wrapped): return qualified(wrapped, namespace: namespace) + "?"
        case .dictionary(let value): return "[String: \(qualified(value, namespace: namespace))]"
        }
    }
}
