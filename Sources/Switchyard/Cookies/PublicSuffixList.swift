/// The Public Suffix List (publicsuffix.org): the domains under which anyone can register a name —
/// `com`, `co.uk`, `herokuapp.com` — and which a cookie's `Domain` therefore may not name
/// (RFC 6265 §5.3 step 5).
///
/// The rules are compiled into the package (``rulesText``, written by
/// `Scripts/update-public-suffix-list.sh`) and parsed once, at first use. Both of the list's sections
/// count, its private domains as well as ICANN's; wildcard (`*.ck`) and exception (`!www.ck`) rules
/// are applied as the list's own algorithm says, and a domain no rule names has its last label as
/// its public suffix (the rule `*`), so every single-label domain is one.
enum PublicSuffixList {
    /// The rules by kind, each without its `*.` or `!` mark.
    struct Rules: Sendable {
        var plain: Set<String> = []
        /// `*.ck` as `ck`: every label directly under `ck` is a public suffix.
        var wildcards: Set<String> = []
        /// `!www.ck` as `www.ck`: not a public suffix, although a wildcard names it.
        var exceptions: Set<String> = []
    }

    /// The rules, parsed from ``rulesText`` by the first lookup.
    static let rules: Rules = parse(rulesText)

    /// Whether `domain` (lower-case, as a cookie's `Domain` is kept) is a public suffix. An empty
    /// label (`a..b`, a lone `.`) counts as one: such a domain names no registrable site.
    static func isPublicSuffix(_ domain: String) -> Bool {
        var name = Substring(domain)
        if name.hasSuffix(".") { name = name.dropLast() }
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        guard !labels.contains(where: \.isEmpty) else { return true }
        return suffixLabelCount(of: name) >= labels.count
    }

    /// How many labels, counted from the right, the public suffix of `name` has.
    static func suffixLabelCount(of name: Substring) -> Int {
        let rules = Self.rules
        // The suffixes of `name`, longest first: `a.b.c`, `b.c`, `c`.
        var suffixes = [name]
        var rest = name
        while let dot = rest.firstIndex(of: ".") {
            rest = rest[rest.index(after: dot)...]
            suffixes.append(rest)
        }
        let count = suffixes.count
        // An exception rule prevails over every other; its public suffix is the rule without its first label.
        if let index = suffixes.firstIndex(where: { rules.exceptions.contains(String($0)) }) {
            return count - index - 1
        }
        // Otherwise the matching rule with the most labels, else `*`.
        for index in suffixes.indices {
            if rules.plain.contains(String(suffixes[index])) { return count - index }
            if index + 1 < count, rules.wildcards.contains(String(suffixes[index + 1])) { return count - index }
        }
        return 1
    }

    /// Sorts the lines of `text` into plain, wildcard and exception rules.
    static func parse(_ text: String) -> Rules {
        var rules = Rules()
        rules.plain.reserveCapacity(10_000)
        for line in text.split(separator: "\n") {
            if line.hasPrefix("!") {
                rules.exceptions.insert(String(line.dropFirst()))
            } else if line.hasPrefix("*.") {
                rules.wildcards.insert(String(line.dropFirst(2)))
            } else {
                rules.plain.insert(String(line))
            }
        }
        return rules
    }
}
