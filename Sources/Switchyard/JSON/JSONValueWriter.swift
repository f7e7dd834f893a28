import Foundation

/// Writes a ``ParameterValue`` as compact JSON text, byte by byte — what ``CommonParametersStage``
/// splices into a request's JSON body without re-encoding the rest of it.
enum JSONValueWriter {
    /// Appends `value`'s JSON text to `output`; with `sortingKeys`, object members at every depth
    /// are written in byte order of their names (as `JSONEncoder`'s `.sortedKeys` does).
    ///
    /// - Throws: ``SwitchyardError/Code/encoding`` for a non-finite number, which JSON cannot carry.
    static func append(_ value: ParameterValue, name: String, sortingKeys: Bool = false, to output: inout [UInt8]) throws(SwitchyardError) {
        switch value {
        case .string(let text): JSONScan.appendString(text, to: &output)
        case .int(let number): output.append(contentsOf: String(number).utf8)
        case .double(let number):
            guard number.isFinite else {
                throw SwitchyardError(code: .encoding, message: "parameter '\(name)' is \(number), which JSON cannot carry")
            }
            output.append(contentsOf: number.description.utf8)
        case .bool(let flag): output.append(contentsOf: (flag ? "true" : "false").utf8)
        case .null: output.append(contentsOf: "null".utf8)
        case .array(let values):
            output.append(UInt8(ascii: "["))
            for (index, element) in values.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                try append(element, name: name, sortingKeys: sortingKeys, to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            let ordered = sortingKeys ? members.sorted { Array($0.name.utf8).lexicographicallyPrecedes($1.name.utf8) } : Array(members)
            for (index, member) in ordered.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                JSONScan.appendString(member.name, to: &output)
                output.append(UInt8(ascii: ":"))
                try append(member.value, name: name.isEmpty ? member.name : "\(name).\(member.name)", sortingKeys: sortingKeys, to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }
}
