/// Query strings written by the endpoint itself, in the `style` and `explode` each OpenAPI parameter
/// declares (`ids=1&ids=2`, `ids=1,2`, `ids=1%202`, `ids=1%7C2`, `filter%5Blang%5D=zh`), carried in the
/// path so that the service's own array style does not apply.
extension SwiftEmitter {
    static func emitPathWithQuery(
        _ endpoint: APIDescription.Endpoint,
        models: [APIDescription.Model],
        access: String,
        into out: inout SourceWriter
    ) {
        out.doc("`\(endpoint.path)`, with the query parameters in their described styles.", indent: 1)
        out.line("    \(access) var path: String {")
        out.line("        var query = QueryWriter()")
        for parameter in endpoint.parameters where parameter.location == .query {
            let name = SwiftNames.property(parameter.swiftName)
            let optional = !(parameter.required || parameter.defaultLiteral != nil)
            // Properties are read through `self.`, so that no parameter (`query`, `value`) is shadowed by
            // the getter's own locals.
            let value = optional ? "value" : "self." + name
            let style = parameter.style ?? APIDescription.Style(name: "form", explode: true)
            let styleArguments = "style: \(SwiftSource.literal(style.name)), explode: \(style.explode)"
            let field = SwiftSource.literal(parameter.name)
            let call: String
            switch parameter.type {
            case .array(let element):
                let texts = element == .scalar(.string) ? value : "\(value).map { \(textExpression(element, "$0")) }"
                call = "query.array(\(field), \(texts), \(styleArguments))"
            case .model(let modelName):
                if let model = models.first(where: { $0.name == modelName }), case .structure = model.kind {
                    let members = model.fields.map { member -> String in
                        let property = "\(value).\(SwiftNames.property(member.swiftName))"
                        if member.type.isOptional {
                            return
                                "\(property).map { (\(SwiftSource.literal(member.key)), \(textExpression(member.type.unwrapped, "$0"))) }"
                        }
                        return "(\(SwiftSource.literal(member.key)), \(textExpression(member.type, property)))"
                    }
                    let list = "[\(members.joined(separator: ", "))]"
                    let pairs = model.fields.contains(where: \.type.isOptional) ? list + ".compactMap { $0 }" : list
                    call = "query.object(\(field), \(pairs), \(styleArguments))"
                } else {
                    call = "query.scalar(\(field), \(textExpression(parameter.type, value)))"
                }
            default:
                call = "query.scalar(\(field), \(textExpression(parameter.type, value)))"
            }
            out.line(optional ? "        if let value = self.\(name) { \(call) }" : "        \(call)")
        }
        out.line("        return \(SwiftSource.literal(endpoint.path)) + query.suffix")
        out.line("    }")
    }

    /// The query writer the endpoints of this file share.
    static func emitQueryWriter(into out: inout SourceWriter) {
        out.line()
        out.doc("Writes query parameters in their OpenAPI styles, names and values percent-encoded.", indent: 0)
        out.line("private struct QueryWriter {")
        out.line("    private var pairs: [String] = []")
        out.line()
        out.line("    /// `?` and the pairs, or nothing when there are none.")
        out.line("    var suffix: String { pairs.isEmpty ? \"\" : \"?\" + pairs.joined(separator: \"&\") }")
        out.line()
        out.line("    mutating func scalar(_ name: String, _ value: String) {")
        out.line("        pairs.append(Self.encode(name) + \"=\" + Self.encode(value))")
        out.line("    }")
        out.line()
        out.line("    mutating func array(_ name: String, _ values: [String], style: String, explode: Bool) {")
        out.line("        if style == \"form\" && explode {")
        out.line("            for value in values { scalar(name, value) }")
        out.line("            return")
        out.line("        }")
        out.line("        let separator = style == \"spaceDelimited\" ? \"%20\" : style == \"pipeDelimited\" ? \"%7C\" : \",\"")
        out.line("        pairs.append(Self.encode(name) + \"=\" + values.map(Self.encode).joined(separator: separator))")
        out.line("    }")
        out.line()
        out.line("    mutating func object(_ name: String, _ members: [(String, String)], style: String, explode: Bool) {")
        out.line("        if style == \"deepObject\" {")
        out.line(
            "            for (key, value) in members { pairs.append(Self.encode(name) + \"%5B\" + Self.encode(key) + \"%5D=\" + Self.encode(value)) }"
        )
        out.line("        } else if explode {")
        out.line("            for (key, value) in members { scalar(key, value) }")
        out.line("        } else {")
        out.line(
            "            pairs.append(Self.encode(name) + \"=\" + members.map { Self.encode($0.0) + \",\" + Self.encode($0.1) }.joined(separator: \",\"))"
        )
        out.line("        }")
        out.line("    }")
        out.line()
        out.line("    /// RFC 3986: everything but the unreserved characters as `%XX`.")
        out.line("    static func encode(_ text: String) -> String {")
        out.line("        let digits = Array(\"0123456789ABCDEF\".unicodeScalars)")
        out.line("        var result = \"\"")
        out.line("        for byte in text.utf8 {")
        out.line("            switch byte {")
        out.line(
            "            case UInt8(ascii: \"A\")...UInt8(ascii: \"Z\"), UInt8(ascii: \"a\")...UInt8(ascii: \"z\"), UInt8(ascii: \"0\")...UInt8(ascii: \"9\"),"
        )
        out.line("                UInt8(ascii: \"-\"), UInt8(ascii: \".\"), UInt8(ascii: \"_\"), UInt8(ascii: \"~\"):")
        out.line("                result.unicodeScalars.append(Unicode.Scalar(byte))")
        out.line("            default:")
        out.line("                result += \"%\"")
        out.line("                result.unicodeScalars.append(digits[Int(byte >> 4)])")
        out.line("                result.unicodeScalars.append(digits[Int(byte & 0x0F)])")
        out.line("            }")
        out.line("        }")
        out.line("        return result")
        out.line("    }")
        out.line("}")
    }
}
