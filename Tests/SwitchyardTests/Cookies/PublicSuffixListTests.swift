import Foundation
import Testing

@testable import Switchyard

/// The Public Suffix List compiled into the package, checked with the list project's own test cases
/// (`tests/test_psl.txt`: the registrable domain of a name, `nil` when the name is a public suffix).
@Suite("Cookies: the Public Suffix List")
struct PublicSuffixListTests {
    /// The registrable domain of `name` (its public suffix and one label more); `nil` when `name` is
    /// itself a public suffix.
    static func registrableDomain(_ name: String) -> String? {
        let labels = name.split(separator: ".")
        let suffix = PublicSuffixList.suffixLabelCount(of: Substring(name))
        guard suffix < labels.count else { return nil }
        return labels.suffix(suffix + 1).joined(separator: ".")
    }

    @Test(
        "normal, wildcard and exception rules, unlisted names and IDN labels, as the list's tests state",
        arguments: [
            // Listed and unlisted top-level domains.
            ("com", nil), ("example.com", "example.com"), ("b.example.com", "example.com"), ("a.b.example.com", "example.com"),
            ("example", nil), ("example.example", "example.example"), ("b.example.example", "example.example"),
            // Two-level rules.
            ("uk.com", nil), ("example.uk.com", "example.uk.com"), ("b.example.uk.com", "example.uk.com"), ("co.uk", nil),
            ("www.example.co.uk", "example.co.uk"),
            // Wildcards and their exceptions.
            ("c.kobe.jp", nil), ("b.c.kobe.jp", "b.c.kobe.jp"), ("a.b.c.kobe.jp", "b.c.kobe.jp"), ("city.kobe.jp", "city.kobe.jp"),
            ("www.city.kobe.jp", "city.kobe.jp"), ("ck", nil), ("test.ck", nil), ("b.test.ck", "b.test.ck"), ("www.ck", "www.ck"),
            ("www.www.ck", "www.ck"), ("mm", nil), ("c.mm", nil), ("b.c.mm", "b.c.mm"),
            // Deeper rules.
            ("us", nil), ("test.us", "test.us"), ("ak.us", nil), ("test.ak.us", "test.ak.us"), ("k12.ak.us", nil),
            ("test.k12.ak.us", "test.k12.ak.us"), ("jp", nil), ("ac.jp", nil), ("kyoto.jp", nil), ("test.kyoto.jp", "test.kyoto.jp"),
            ("ide.kyoto.jp", nil), ("b.ide.kyoto.jp", "b.ide.kyoto.jp"),
            // IDN labels, as published and in `xn--` form.
            ("公司.cn", nil), ("食狮.公司.cn", "食狮.公司.cn"), ("xn--55qx5d.cn", nil), ("shishi.xn--55qx5d.cn", "shishi.xn--55qx5d.cn"),
            ("xn--85x722f.com.cn", "xn--85x722f.com.cn"),
            // The private section counts too.
            ("herokuapp.com", nil), ("myapp.herokuapp.com", "myapp.herokuapp.com"), ("github.io", nil),
        ] as [(String, String?)]
    )
    func listCases(name: String, registrable: String?) {
        #expect(Self.registrableDomain(name) == registrable, "\(name)")
        #expect(PublicSuffixList.isPublicSuffix(name) == (registrable == nil), "\(name)")
    }

    @Test("every single-label name is a public suffix; so is one with an empty label; a trailing dot is ignored")
    func edges() {
        for name in ["localhost", "local", "internal", "", ".", "a..com", "co.uk."] {
            #expect(PublicSuffixList.isPublicSuffix(name), "\(name)")
        }
        #expect(!PublicSuffixList.isPublicSuffix("example.co.uk."))
    }

    @Test("the compiled list holds both sections and every kind of rule")
    func compiledList() {
        let rules = PublicSuffixList.rules
        #expect(rules.plain.count > 9_000)
        #expect(rules.plain.isSuperset(of: ["com", "co.uk", "herokuapp.com", "blogspot.com"]))
        #expect(rules.wildcards.contains("ck") && rules.exceptions.contains("www.ck"))
    }
}
