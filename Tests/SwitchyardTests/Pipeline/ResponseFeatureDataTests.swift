import Foundation
import Switchyard
import Testing

/// What the features learn about a response (where redirects led, an unverified answer) is kept in
/// the response's metadata under keys of their own, not in the kernel's `Response`.
@Suite("Response: feature data in metadata")
struct ResponseFeatureDataTests {
    @Test("a fresh response has followed no redirect, landed nowhere else and is not marked unverified")
    func defaults() {
        let response = Response(status: .ok)
        #expect(response.redirectCount == 0)
        #expect(response.url == nil)
        #expect(!response.isUnverified)
        #expect(response.metadata.isEmpty)
    }

    @Test("the redirect count and landing URL are kept together; both reset leave no metadata behind")
    func redirectLanding() throws {
        var response = Response(status: .ok)
        response.redirectCount = 2
        let landed = try #require(URL(string: "https://api.test/landed"))
        response.url = landed
        #expect(response.redirectCount == 2)
        #expect(response.url == landed)
        response.redirectCount = 3
        #expect(response.url == landed)
        response.redirectCount = 0
        response.url = nil
        #expect(response.metadata.isEmpty)
    }

    @Test("the unverified mark can be set and cleared; clearing it leaves no metadata behind")
    func unverifiedMark() {
        var response = Response(status: .unauthorized)
        response.isUnverified = true
        #expect(response.isUnverified)
        #expect(!response.metadata.isEmpty)
        response.isUnverified = false
        #expect(!response.isUnverified)
        #expect(response.metadata.isEmpty)
    }
}
