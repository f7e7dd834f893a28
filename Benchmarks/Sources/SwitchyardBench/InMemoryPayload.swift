import Foundation

/// The response body both in-memory transports return.
enum InMemoryPayload {
    static let json = #"{"code":0,"msg":"ok","data":{"id":1,"name":"bench"}}"#
    static let data = Data(json.utf8)
}
