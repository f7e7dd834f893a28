/// Where an ``EncryptionStage`` puts the ciphertext — for backends that will not change for us.
///
/// ``headers`` is Switchyard's own format (`X-Switchyard-Encryption` and friends, AAD binding the
/// exchange). The other framings put no header of ours on the wire in either direction, and seal
/// with **no associated data** (a legacy backend knows none): the ciphertext is the scheme's output —
/// raw bytes for binary schemes, Base64 text for the legacy Base64 schemes — and, where it travels
/// inside a form field or a JSON member, binary output is Base64-encoded there. The exact bytes of
/// each framing are in `Docs/WireFormat.md`.
///
/// ## What a framing other than ``headers`` does not protect
///
/// With no associated data, a sealed body or member is bound to **nothing** of its exchange: not the
/// method, path or query, not the user or credentials of the call, not the direction, not the time.
/// Whoever can replay traffic — an attacker on the path, a proxy or cache — can answer a call with a
/// sealed answer recorded from another endpoint, another user's call or an earlier call, and it
/// opens as this call's answer; a sealed request can be replayed to the server the same way, or
/// reflected back as its own answer (both directions share the key and the empty AAD). Nothing
/// outside the sealed text is covered: the members beside the sealed one in an envelope (`code`,
/// `msg`), the fields beside it in a form or JSON request (common parameters), the status and the
/// header fields can all be rewritten unless something else (a signature the other side checks)
/// covers them. What holds: the plaintext stays confidential, and with an authenticated scheme a
/// changed byte of the sealed text fails the call (with a legacy scheme not even that — see
/// ``EncryptionScheme``). Use ``headers`` (wire format 2, the default) where the server can change:
/// its associated data binds direction, scheme, key id, method, path, query and a fresh per-request
/// nonce, so a replayed or transplanted answer fails to open.
///
/// ```swift
/// // A backend that takes `data=<base64>` beside its common parameters and answers
/// // {"code":0,"msg":"ok","data":"<base64>"}:
/// EncryptionStage(scheme: .legacyAESECBBase64, keyRing: ring,
///                 framing: EncryptionFraming(request: .formField("data"), response: .envelopeMember("data")))
/// ```
public struct EncryptionFraming: Sendable, Hashable {
    /// How a request body travels.
    public enum RequestFraming: Sendable, Hashable {
        /// Switchyard's headers (``EncryptionWireFormat``).
        case headers
        /// The whole body is the ciphertext, sent with `contentType` (by default
        /// `application/octet-stream` for binary schemes, `text/plain; charset=us-ascii` for Base64 ones).
        case wholeBody(contentType: String? = nil)
        /// `application/x-www-form-urlencoded` with the ciphertext, in Base64, as the field `name`;
        /// stages registered inside this one (common parameters, a signature) add their fields beside it.
        case formField(String)
        /// A JSON object whose member `name` is the ciphertext in Base64: `{"data":"…"}`.
        case jsonMember(String)
    }

    /// How a response body travels.
    public enum ResponseFraming: Sendable, Hashable {
        /// Switchyard's headers (``EncryptionWireFormat``).
        case headers
        /// Every non-empty `2xx` body is the ciphertext; once opened it is given `contentType` (the
        /// app's type, `application/json` by default).
        case wholeBody(contentType: String = "application/json")
        /// The body is a JSON envelope whose member at this key path (`data`, `result.data`) is the
        /// ciphertext in Base64; it is replaced with the plaintext (which must be JSON), so the
        /// envelope stays readable for the envelope stage.
        ///
        /// Under ``EncryptionStage/ResponsePolicy/requireEncrypted`` a `2xx` must carry the member
        /// sealed, as a whole-body `2xx` must be sealed: an envelope that is not strict JSON (a byte
        /// order mark, a stray byte, truncated), that names a member of the path twice (with or
        /// without `null`), or whose member is `null` or missing is refused with
        /// ``Switchyard/SwitchyardError/Code/crypto`` — never passed on with ciphertext or `null`
        /// where the plaintext belongs. Under ``EncryptionStage/ResponsePolicy/acceptPlaintext`` such
        /// an envelope passes on unchanged unless it is ambiguous (a member of the path named twice,
        /// or any member on the way named twice with a `null`): that is refused under every policy,
        /// since one reader would take its ciphertext for the answer. An error status passes on as an
        /// HTTP status, marked ``Switchyard/Response/isUnverified``: its sealed member opened,
        /// anything else as sent.
        case envelopeMember(String)
    }

    /// How request bodies travel.
    public var request: RequestFraming
    /// How response bodies travel.
    public var response: ResponseFraming

    /// Creates a framing.
    public init(request: RequestFraming, response: ResponseFraming) {
        self.request = request
        self.response = response
    }

    /// Switchyard's own headers both ways.
    public static let headers = EncryptionFraming(request: .headers, response: .headers)
}
