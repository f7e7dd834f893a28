/// The rest of a pipeline, as seen from one stage: call it to pass the request on and receive the
/// response.
///
/// The request parameter is `consuming`: the pipeline hands the request from link to link without
/// copying it, so stages that change header fields change them in place. Calling `next(request,
/// context)` from your stage is written as usual.
public typealias NextStage = @Sendable (consuming Request, CallContext) async throws -> Response

/// One stage of a service's pipeline: a value that sees every request on its way in and every
/// response on its way out.
///
/// A stage may change the request before calling `next`, change the response `next` returns,
/// call `next` once (the normal case), not at all (a short-circuit: a cache hit, a stub, a refusal),
/// or more than once (a retry — pass ``CallContext/nextAttempt()`` so inner stages know).
///
/// ## Ordering
///
/// Stages run in **registration order on the way in** and in **reverse order on the way out** — one
/// symmetric onion around the transport. For a service registered with `[A, B, C]`:
///
/// ```
/// A.in → B.in → C.in → transport → C.out → B.out → A.out
/// ```
///
/// So a stage that must see the final bytes on the wire (signing, encryption) is registered *after*
/// the stages that change them, and a stage that must see the decrypted response (envelope checks,
/// null stripping) is registered *before* the decryption stage.
///
/// The chain is folded once, when the service is registered; per-call data travels in the
/// ``CallContext``, never in captured state.
///
/// ```swift
/// struct AddClientVersion: Stage {
///     func intercept(_ request: Request, context: CallContext, next: NextStage) async throws -> Response {
///         var request = request
///         request.headerFields[HTTPField.Name("X-Client-Version")!] = "4.2.0"
///         return try await next(request, context)
///     }
/// }
/// ```
///
/// Most stages only change the request or only the response; conform to ``RequestStage`` or
/// ``ResponseStage`` to write just that half.
public protocol Stage: Sendable {
    /// The stage's identity in its service's pipeline: what ``Pipeline/description`` prints, what
    /// calls name to skip or enable it, and what errors blame. Defaults to the type's name
    /// (``StageID/init(typeName:)``); the built-in stages use the static ids of ``StageID``.
    var id: StageID { get }

    /// Where the stage must stand relative to other stages of its pipeline, checked when its service is
    /// registered (``StageOrderRule``). None by default; the built-in stages declare theirs.
    var orderRules: [StageOrderRule] { get }

    /// Handles one request.
    ///
    /// - Parameters:
    ///   - request: the request as the stages outside this one left it.
    ///   - context: the call's context.
    ///   - next: the rest of the pipeline; call it zero, one or more times.
    /// - Returns: the response for the stages outside this one.
    /// - Throws: any error; the pipeline names this stage in the resulting ``SwitchyardError``.
    func intercept(_ request: Request, context: CallContext, next: NextStage) async throws -> Response
}

extension Stage {
    /// The type's name as a stage id.
    public var id: StageID { StageID(typeName: Self.self) }

    /// No order rules.
    public var orderRules: [StageOrderRule] { [] }
}
