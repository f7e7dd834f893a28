import Foundation
import Switchyard

/// A sample response stage: checks the `{"code":…,"msg":…,"data":…}` envelope and hands the
/// `data` payload to the stages outside it and to decoding. A code outside `successCodes` becomes a
/// ``SwitchyardError`` with the code `business` and the backend's message.
struct EnvelopeStage: ResponseStage {
    let successCodes: Set<Int>
    var name: String { "Envelope" }

    func process(_ response: inout Response, for request: Request, context: CallContext) async throws {
        guard let object = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any],
              let code = object["code"] as? Int
        else {
            throw SwitchyardError(code: .invalidResponse, message: "the response is not a {code, msg, data} envelope")
        }
        guard successCodes.contains(code) else {
            var error = SwitchyardError(code: SwitchyardError.Code("business"), message: "\(object["msg"] as? String ?? "no message") (code \(code))")
            error.status = response.status
            error.responseBody = response.body
            throw error
        }
        let payload = object["data"] ?? NSNull()
        response.body = try JSONSerialization.data(withJSONObject: payload, options: [.fragmentsAllowed])
    }
}
