/// An ordered collection of named parameters.
///
/// Parameters keep the order they were written in; setting a name that is already present replaces
/// its value in place. Order never changes what a parameter *means*, and code that needs a canonical
/// form (signing, cache keys) sorts by name.
///
/// ```swift
/// var parameters: Parameters = ["page": 1, "size": 20]
/// parameters["q"] = "café"
/// ```
public struct Parameters: Sendable, Hashable, Encodable, ExpressibleByDictionaryLiteral, RandomAccessCollection {
    /// One named parameter.
    public struct Element: Sendable, Hashable {
        /// The parameter's name.
        public var name: String
        /// The parameter's value.
        public var value: ParameterValue
    }

    private var elements: [Element]

    /// Creates parameters from name/value pairs; a repeated name keeps its first position and its last value.
    public init(_ pairs: some Sequence<(String, ParameterValue)>) {
        elements = []
        for (name, value) in pairs { self[name] = value }
    }

    /// Creates empty parameters.
    public init() { elements = [] }

    /// Creates parameters from a dictionary literal, keeping the literal's order.
    public init(dictionaryLiteral elements: (String, ParameterValue)...) { self.init(elements) }

    /// The position of the first parameter.
    public var startIndex: Int { elements.startIndex }
    /// The position past the last parameter.
    public var endIndex: Int { elements.endIndex }
    /// The parameter at a position.
    public subscript(position: Int) -> Element { elements[position] }

    /// The value for a name; setting `nil` removes the parameter (to send `null`, set `.null`).
    public subscript(name: String) -> ParameterValue? {
        get { elements.first { $0.name == name }?.value }
        set {
            let index = elements.firstIndex { $0.name == name }
            switch (index, newValue) {
            case (let index?, let value?): elements[index].value = value
            case (let index?, nil): elements.remove(at: index)
            case (nil, let value?): elements.append(Element(name: name, value: value))
            case (nil, nil): break
            }
        }
    }

    /// Adds the parameters of `other` that this collection does not have yet (the receiver wins).
    public func merging(defaults other: Parameters) -> Parameters {
        var merged = self
        for element in other where merged[element.name] == nil { merged.elements.append(element) }
        return merged
    }

    /// Encodes the parameters as a JSON object.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: NameKey.self)
        for element in elements { try container.encode(element.value, forKey: NameKey(element.name)) }
    }

    private struct NameKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
