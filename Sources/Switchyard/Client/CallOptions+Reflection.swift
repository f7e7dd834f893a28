import HTTPTypes

extension CallOptions: CustomReflectable {
    /// What `print`, `dump`, `Mirror` and the debugger show: each option the call sets, by its name,
    /// with header fields' secret values (`Authorization`, `Cookie`, a `X-Api-Key` …) hidden by
    /// ``Redaction/default``.
    public var customMirror: Mirror {
        let redaction = Redaction.default
        let children = setOptions.map { option -> Mirror.Child in
            guard let fields = option.value as? HTTPFields else { return (option.name, option.value) }
            return (option.name, redaction.render(fields))
        }
        return Mirror(self, children: children, displayStyle: .struct)
    }
}
