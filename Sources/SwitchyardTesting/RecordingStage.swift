public import Switchyard

/// A stage that records `"<name> in"` before calling `next` and `"<name> out"` (or
/// `"<name> threw"`) after, and passes everything through unchanged.
public struct RecordingStage: Stage {
    /// The name recorded in events.
    public let name: String
    /// The stage's id: the name when it is a valid ``StageID``.
    public var id: StageID { StageID(name) ?? StageID(typeName: Self.self) }
    /// Where events go.
    public let recorder: EventRecorder

    /// Creates a recording stage.
    public init(_ name: String, _ recorder: EventRecorder) {
        self.name = name
        self.recorder = recorder
    }

    /// Records, passes on, records.
    public func intercept(_ request: Request, context: CallContext, next: NextStage) async throws -> Response {
        recorder.record("\(name) in")
        do {
            let response = try await next(request, context)
            recorder.record("\(name) out")
            return response
        } catch {
            recorder.record("\(name) threw")
            throw error
        }
    }
}
