import Foundation
import SwitchyardSupport

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
        case .int(let number): appendDecimal(number, to: &output)
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
            // Names compared as UTF-8 in place; members already in order are written as they are.
            if sortingKeys, !isOrdered(members) {
                try appendMembers(members.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }, of: name, sortingKeys, &output)
            } else {
                try appendMembers(members, of: name, sortingKeys, &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// Appends `name:value` for each member, separated by commas; an error names a member by its path.
    private static func appendMembers(
        _ members: some Collection<Parameters.Element>,
        of name: String,
        _ sortingKeys: Bool,
        _ output: inout [UInt8]
    ) throws(SwitchyardError) {
        var first = true
        for member in members {
            if !first { output.append(UInt8(ascii: ",")) }
            first = false
            JSONScan.appendString(member.name, to: &output)
            output.append(UInt8(ascii: ":"))
            try append(member.value, name: name.isEmpty ? member.name : "\(name).\(member.name)", sortingKeys: sortingKeys, to: &output)
        }
    }

    /// Whether the members' names are in byte order already.
    private static func isOrdered(_ members: Parameters) -> Bool {
        var previous: String?
        for member in members {
            if let previous, member.name.utf8.lexicographicallyPrecedes(previous.utf8) { return false }
            previous = member.name
        }
        return true
    }

    /// Appends `number` in decimal, without making a `String` of it.
    private static func appendDecimal(_ number: Int, to output: inout [UInt8]) {
        if number < 0 { output.append(UInt8(ascii: "-")) }
        let start = output.count
        var magnitude = number.magnitude
        repeat {
            output.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        // Swapped in place: reversing `output[start...]` would copy the slice out and back.
        var (low, high) = (start, output.count - 1)
        while low < high {
            output.swapAt(low, high)
            low += 1
            high -= 1
        }
    }
}
