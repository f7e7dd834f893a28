import Foundation
public import HTTPTypes
public import Switchyard

extension Request {
    /// Makes a request for tests from a method and an absolute URL string.
    ///
    /// - Throws: ``SwitchyardError/Code/invalidRequest`` when `url` is not an absolute http(s) URL.
    public static func fixture(
        _ method: HTTPRequest.Method,
        _ url: String,
        headerFields: HTTPFields = [:],
        body: String? = nil
    ) throws(SwitchyardError) -> Request {
        guard let parsed = URL(string: url),
            let request = Request(method: method, url: parsed, headerFields: headerFields, body: body.map { .bytes(Data($0.utf8)) })
        else {
            throw SwitchyardError(code: .invalidRequest, message: "'\(url)' is not an absolute http(s) URL")
        }
        return request
    }
}
