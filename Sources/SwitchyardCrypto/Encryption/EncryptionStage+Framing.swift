import Foundation
import HTTPTypes
import Switchyard

extension EncryptionStage {
    /// Seals and opens in a legacy backend's framing (``EncryptionFraming``): no header of ours, no
    /// associated data.
    func interceptFramed(_ request: Request, context: CallContext, next: NextStage) async throws -> Response {
        guard framing.request != .headers, framing.response != .headers else {
            throw SwitchyardError(
                code: .invalidRequest,
                message: "an encryption framing uses Switchyard's headers both ways or neither; this one mixes them"
            )
        }
        var request = request
        if let body = try request.bodyBytes(for: id), !body.isEmpty {
            let sealed = try seal(body)
            switch framing.request {
            case .headers:
                break
            case .wholeBody(let contentType):
                request.body = .bytes(sealed)
                request.headerFields[.contentType] =
                    contentType ?? (scheme.isBinary ? "application/octet-stream" : "text/plain; charset=us-ascii")
            case .formField(let name):
                let value = Self.formComponent(Self.text(sealed, binary: scheme.isBinary))
                request.body = .bytes(Data("\(Self.formComponent(name))=\(value)".utf8))
                request.headerFields[.contentType] = "application/x-www-form-urlencoded; charset=utf-8"
            case .jsonMember(let name):
                let object = [name: Self.text(sealed, binary: scheme.isBinary)]
                request.body = .bytes(try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
                request.headerFields[.contentType] = "application/json"
            }
        }
        var response = try await next(request, context)
        guard (200...299).contains(response.status.code) else {
            // A legacy backend's error page or error envelope is not sealed as a whole: pass it on
            // as an HTTP status, marked unverified. An envelope member that is sealed is opened; one
            // that is missing or null, or a body that is not a strict JSON envelope, is passed on as
            // sent (the envelope stage reads an unverified answer as an HTTP status, never as the
            // service's own words).
            if case .envelopeMember = framing.response, response.body.bytes != nil {
                _ = try openEnvelopeMember(&response)
            }
            response.isUnverified = true
            return response
        }
        // Where HTTP says there is no body — a 204, a 205, an answer to HEAD — there is nothing to open.
        let bodiless = response.status.code == 204 || response.status.code == 205 || request.method == .head
        switch framing.response {
        case .headers:
            break
        case .wholeBody(let contentType):
            let body = try response.bodyBytes(for: id)
            guard !body.isEmpty else {
                if responsePolicy == .requireEncrypted, !bodiless {
                    throw refusal(of: response, because: "this one is empty")
                }
                return response
            }
            response.body = .bytes(try open(body))
            response.headerFields[.contentType] = contentType
        case .envelopeMember(let path):
            let body = try response.bodyBytes(for: id)
            if body.isEmpty, bodiless { return response }
            // Under `requireEncrypted` a success carries its sealed member, as a whole-body success
            // carries a sealed body: an envelope that cannot be read strictly, names the member twice,
            // or lost it (`"data":null`, or no `data`) is refused — an attacker on the path can
            // turn a failure into `{"code":0,"data":null}` as easily as empty a body. An ambiguous
            // envelope (`{"data":"<sealed>","data":null}`) is refused under every policy: it may
            // carry ciphertext that another reader would take for the answer.
            guard try !openEnvelopeMember(&response) else { return response }
            if let ambiguity = JSONMemberPath.ambiguity(of: path, in: body) {
                throw SwitchyardError(
                    code: .crypto,
                    message: "an envelope must name its sealed member once, and this one carries no sealed member '\(path)' "
                        + "every reader agrees on: \(ambiguity)",
                    response: Self.unverified(response)
                )
            }
            if responsePolicy == .requireEncrypted {
                throw refusal(of: response, because: "this envelope carries no sealed member '\(path)': " + Self.reason(body))
            }
        }
        return response
    }

    /// The error for a `2xx` that was not opened under ``ResponsePolicy/requireEncrypted``, in any
    /// framing; it keeps the answer, marked unverified, so that an app can still read what arrived
    /// as what it is.
    func refusal(of response: Response, because reason: String) -> SwitchyardError {
        SwitchyardError(
            code: .crypto,
            message: "the service requires encrypted responses, and \(reason)",
            response: Self.unverified(response)
        )
    }

    /// The answer as it arrived, marked ``Switchyard/Response/isUnverified``, for a refusal's error.
    private static func unverified(_ response: Response) -> Response {
        var unverified = response
        unverified.isUnverified = true
        return unverified
    }

    /// Why an envelope's member could not be found: the strict reader's complaint (with its byte
    /// offset), or that the member is missing, `null` or named more than once.
    private static func reason(_ body: Data) -> String {
        do {
            _ = try JSONSanitizer().stripNulls(body)
            return "the member is missing or null, or named more than once"
        } catch {
            return error.message
        }
    }

    /// Replaces the envelope member holding the ciphertext with the plaintext it opens to.
    ///
    /// - Returns: whether a sealed member was found and opened; `false` when the body is not a strict
    ///   JSON object, or the member is missing, `null` or named more than once on its path.
    /// - Throws: ``Switchyard/SwitchyardError/Code/crypto`` when the member is there but is not a
    ///   sealed string, or does not open to JSON.
    private func openEnvelopeMember(_ response: inout Response) throws(SwitchyardError) -> Bool {
        guard case .envelopeMember(let path) = framing.response, var body = response.body.bytes,
            let range = JSONMemberPath.valueRange(of: path, in: body)
        else { return false }
        let value = body.subdata(in: range)
        guard value.first == UInt8(ascii: "\"") else {
            if value == Data("null".utf8) { return false }
            throw SwitchyardError(code: .crypto, message: "the envelope member '\(path)' is not a sealed string")
        }
        guard let text = try? JSONDecoder().decode(String.self, from: value) else {
            throw SwitchyardError(code: .crypto, message: "the envelope member '\(path)' is not a JSON string")
        }
        let sealed: Data
        if scheme.isBinary {
            guard let decoded = Data(base64Encoded: text) else {
                throw SwitchyardError(code: .crypto, message: "the envelope member '\(path)' is not Base64")
            }
            sealed = decoded
        } else {
            sealed = Data(text.utf8)
        }
        let plaintext = try open(sealed)
        guard (try? JSONSerialization.jsonObject(with: plaintext, options: [.fragmentsAllowed])) != nil else {
            throw SwitchyardError(code: .crypto, message: "the envelope member '\(path)' opened to something that is not JSON")
        }
        body.replaceSubrange(range, with: plaintext)
        response.body = .bytes(body)
        return true
    }

    private func seal(_ plaintext: Data) throws(SwitchyardError) -> Data {
        try SwitchyardError.crypto { () throws(CryptoError) in try scheme.seal(plaintext, key: keyRing.currentKey, aad: Data()) }
    }

    /// Opens with the current key, then the ring's other keys (a legacy frame names none).
    private func open(_ sealed: Data) throws(SwitchyardError) -> Data {
        var firstError: SwitchyardError?
        for key in [keyRing.currentKey] + keyRing.otherKeys {
            do {
                return try SwitchyardError.crypto { () throws(CryptoError) in try scheme.open(sealed, key: key, aad: Data()) }
            } catch {
                firstError = firstError ?? error
                guard scheme.isAuthenticated else { break }  // an unauthenticated scheme cannot tell a wrong key
            }
        }
        throw firstError ?? SwitchyardError(code: .crypto, message: "no key of the ring opens the body")
    }

    /// The sealed bytes as text for a field or member: Base64 of binary output, the legacy schemes'
    /// own Base64 text as it is.
    private static func text(_ sealed: Data, binary: Bool) -> String {
        binary ? sealed.base64EncodedString() : String(decoding: sealed, as: UTF8.self)
    }

    /// Percent-encoding for a form component: everything but the RFC 3986 unreserved characters.
    private static func formComponent(_ text: String) -> String {
        let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }
}
