import HTTPTypes
import Switchyard

extension ServiceID {
    /// The sample backend's request-control routes.
    static let control: ServiceID = "control"
}

/// What `/counter/{key}` answers: how many times the key has been asked for.
struct Counter: Decodable, Sendable {
    let key: String
    let hits: Int
}

/// `GET /counter/{key}`: a resource that changes on every request (its hit count), answered after
/// `delay` milliseconds — stored and shown cached first, then fresh.
struct GetCounter: Endpoint {
    typealias Output = Counter
    let key: String
    var delay = 250
    var service: ServiceID { .control }
    var method: HTTPRequest.Method { .get }
    var path: String { "/counter/{key}" }
    var pathParameters: [String: String] { ["key": key] }
    var parameters: Parameters { ["delay": .int(delay)] }
    var options: CallOptions {
        var options = CallOptions()
        options.cache(.cacheThenNetwork)
        return options
    }
}

/// One page of `/pages/{key}`: a 45-item list.
struct NumberPage: Decodable, Sendable {
    let page: Int
    let items: [Int]
    let hasMore: Bool
}

/// `GET /pages/{key}?page=&size=`, answered after `delay` milliseconds.
struct ListNumbers: Endpoint {
    typealias Output = NumberPage
    let page: Int
    let size: Int
    var service: ServiceID { .control }
    var method: HTTPRequest.Method { .get }
    var path: String { "/pages/numbers" }
    var parameters: Parameters { ["page": .int(page), "size": .int(size), "delay": 150] }
}

/// `GET /status/503`: a resource whose server is down.
struct GetUnavailable: Endpoint {
    typealias Output = Counter
    var service: ServiceID { .control }
    var method: HTTPRequest.Method { .get }
    var path: String { "/status/503" }
}
