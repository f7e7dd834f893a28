/// A stage that puts secrets on the wire — a token, a signature made with a key, a sealed body,
/// secret header fields or parameters — and so must never run for a request to another origin.
///
/// When a call is allowed to go to a foreign origin (`CallOptions.allowsForeignOrigin`: an absolute
/// URL taken from a response, say), the pipeline passes such stages by, so nothing secret leaves the
/// service's origin. `AuthorizationStage`, `HeadersStage` and `CommonParametersStage` are
/// credential-bearing, and so are the encryption and signing stages of `SwitchyardCrypto`.
public protocol CredentialBearingStage: Stage {}
