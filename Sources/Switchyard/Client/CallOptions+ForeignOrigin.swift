extension CallOptions {
    /// The option under which ``CallOptions/allowsForeignOrigin`` lets a call leave the service's
    /// origin; allowed when either side allows it.
    enum ForeignOriginAllowed: ClientOptionKey {
        typealias Value = Bool
        static let name = "allowsForeignOrigin"
        static func merge(_ earlier: Bool, _ later: Bool) -> Bool { earlier || later }
    }

    /// Whether the call may go to an absolute URL on another origin than the service's base URL (a
    /// `next` or download link taken from a response). Such a call never carries the service's
    /// secrets — credential-bearing stages (``CredentialBearingStage``) do not run for it — and never
    /// goes over plain `http` from an `https` service. Without it, such a call fails with
    /// ``SwitchyardError/Code/invalidRequest``. `false` by default.
    public var allowsForeignOrigin: Bool {
        get { self[option: ForeignOriginAllowed.self] ?? false }
        set { self[option: ForeignOriginAllowed.self] = newValue ? true : nil }
    }
}
