import Synchronization

/// The names of endpoint types, made once per type: `String(describing:)` looks the type's metadata
/// up and builds a new string, which the default ``Endpoint/name`` would otherwise do on every call.
enum TypeNames {
    private static let names = Mutex<[ObjectIdentifier: String]>([:])

    /// `String(describing: type)`, remembered.
    static func name(of type: Any.Type) -> String {
        let key = ObjectIdentifier(type)
        if let name = names.withLock({ $0[key] }) { return name }
        let name = String(describing: type)
        names.withLock { $0[key] = name }
        return name
    }
}
