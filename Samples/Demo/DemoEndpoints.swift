import HTTPTypes
import Switchyard

extension ServiceID {
    /// The users module: bearer authorization, envelope success code 0.
    static let users: ServiceID = "users"
    /// The vault module: every body encrypted with AES-256-GCM, envelope success code 0.
    static let vault: ServiceID = "vault"
    /// The shop module: every built-in stage, in the documented order.
    static let shop: ServiceID = "shop"
    /// The sample backend's control routes (`/flaky`, `/counter`, `/delay`), with retries.
    static let control: ServiceID = "control"
    /// Uploads and downloads (step 13).
    static let files: ServiceID = "files"
    /// The shop's token service (plain JSON, envelope only).
    static let shopAuth: ServiceID = "shop-auth"
    /// The streamed assistant module (step 14).
    static let assistant: ServiceID = "assistant"
}

/// `GET /users/{id}` — the discrete style: one type per API with a typed output.
struct GetUser: Endpoint {
    typealias Output = User
    let id: Int
    var service: ServiceID { .users }
    var method: HTTPRequest.Method { .get }
    var path: String { "/users/{id}" }
    var pathParameters: [String: String] { ["id": String(id)] }
}

/// `POST /users` with a JSON body built from parameters.
struct CreateUser: Endpoint {
    typealias Output = User
    let name: String
    var service: ServiceID { .users }
    var method: HTTPRequest.Method { .post }
    var path: String { "/users" }
    var parameters: Parameters { ["name": .string(name)] }
}

/// `GET /session`, which needs the users module's Authorization stage.
struct GetSession: Endpoint {
    typealias Output = Session
    var service: ServiceID { .users }
    var method: HTTPRequest.Method { .get }
    var path: String { "/session" }
}

/// `POST /notes` on the encrypted vault module.
struct CreateNote: Endpoint {
    typealias Output = Note
    let text: String
    var service: ServiceID { .vault }
    var method: HTTPRequest.Method { .post }
    var path: String { "/notes" }
    var parameters: Parameters { ["text": .string(text)] }
}

/// `GET /answer?q=` on the assistant module: the answer streamed word by word as Server-Sent Events.
struct AskAssistant: Endpoint {
    typealias Output = ResponseStream
    let question: String
    /// When set, the backend drops the first connection after this many words.
    var dropAfter: Int?
    var service: ServiceID { .assistant }
    var method: HTTPRequest.Method { .get }
    var path: String { "/answer" }
    var parameters: Parameters {
        var parameters: Parameters = ["q": .string(question)]
        if let dropAfter { parameters["dropAfter"] = .int(dropAfter) }
        return parameters
    }
}

/// `GET /progress?steps=` on the assistant module: a job's progress as JSON Lines.
struct JobProgressFeed: Endpoint {
    typealias Output = ResponseStream
    let steps: Int
    var service: ServiceID { .assistant }
    var method: HTTPRequest.Method { .get }
    var path: String { "/progress" }
    var parameters: Parameters { ["steps": .int(steps)] }
}
