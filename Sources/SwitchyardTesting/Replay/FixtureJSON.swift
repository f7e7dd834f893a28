import Foundation

/// A JSON value as a fixture file holds it: members in any order (files are written with sorted
/// keys), numbers as integers when they are integral and fit, otherwise as doubles.
indirect enum FixtureJSON: Codable, Hashable, Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([FixtureJSON])
    case object([String: FixtureJSON])

    /// The deepest nesting a fixture's JSON may have; deeper documents are refused before decoding,
    /// so decoding (which recurses) never runs out of stack.
    static let maxDepth = 128

    /// Whether `bytes`, read as JSON, nests arrays and objects deeper than `limit` (brackets inside
    /// strings do not count).
    static func isTooDeep(_ bytes: Data, limit: Int = maxDepth) -> Bool {
        var depth = 0
        var inString = false
        var escaped = false
        for byte in bytes {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                if depth > limit { return true }
            case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
            default: break
            }
        }
        return false
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([FixtureJSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: FixtureJSON].self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// The value with every object member, at any depth, kept, removed or replaced as `rule` says
    /// for its name (a replaced member's value is not visited).
    func rewritingMembers(_ rule: (String) -> MemberRule) -> FixtureJSON {
        switch self {
        case .array(let values):
            return .array(values.map { $0.rewritingMembers(rule) })
        case .object(let members):
            var result: [String: FixtureJSON] = [:]
            for (name, value) in members {
                switch rule(name) {
                case .keep: result[name] = value.rewritingMembers(rule)
                case .remove: continue
                case .replace(let replacement): result[name] = replacement
                }
            }
            return .object(result)
        default:
            return self
        }
    }

    /// The value with every string, at any depth, passed through `transform`.
    func mappingStrings(_ transform: (String) -> String) -> FixtureJSON {
        switch self {
        case .string(let value): .string(transform(value))
        case .array(let values): .array(values.map { $0.mappingStrings(transform) })
        case .object(let members): .object(members.mapValues { $0.mappingStrings(transform) })
        default: self
        }
    }

    /// What ``rewritingMembers(_:)`` does with one member.
    enum MemberRule {
        case keep
        case remove
        case replace(FixtureJSON)
    }

    /// The dotted paths (`order.lines`) of the members whose values differ between two values, at
    /// most `limit` of them; the empty path when the values differ other than member by member.
    func differingMembers(from other: FixtureJSON, prefix: String = "", limit: Int = 8) -> [String] {
        guard self != other else { return [] }
        guard case .object(let mine) = self, case .object(let theirs) = other else { return [prefix] }
        var paths: [String] = []
        for name in Set(mine.keys).union(theirs.keys).sorted() where paths.count < limit {
            let path = prefix.isEmpty ? name : prefix + "." + name
            switch (mine[name], theirs[name]) {
            case (let left?, let right?): paths += left.differingMembers(from: right, prefix: path, limit: limit - paths.count)
            case (nil, nil): continue
            default: paths.append(path)
            }
        }
        return paths
    }
}
