public import Switchyard

/// A position in a service's stage list, where ``FixtureRecorder`` records a module's traffic and
/// ``Fixtures`` replays it.
///
/// A stage inserted at a cut sees the request as it enters the stage the cut names (or the
/// transport) and the response as that stage (or the transport) returned it. Every stage outside
/// the cut runs for real; a replay answers at the cut, so the stages inside it never run.
///
/// ```swift
/// // The vault module: [Envelope, Encryption]. Outside Encryption is where the plaintext is.
/// let recorded = try recorder.record(vault, at: .outside(.encryption))
/// ```
public enum PipelineCut: Sendable, Hashable, CustomStringConvertible {
    /// Innermost, just before the transport: the request exactly as sent, the response as received.
    case wire
    /// Immediately outside the named stage: the request as that stage receives it, the response as
    /// it returns it (for an encrypted module, outside its encryption stage: the plaintext).
    case outside(StageID)

    /// `wire` or `outside <stage>`, as fixture files name the cut they were recorded at.
    public var description: String {
        switch self {
        case .wire: "wire"
        case .outside(let stage): "outside \(stage)"
        }
    }
}

extension Service {
    /// The service with `stage` inserted at `cut`: last in ``stages`` for ``PipelineCut/wire``, just
    /// before the named stage for ``PipelineCut/outside(_:)``.
    ///
    /// ```swift
    /// let traced = try service.inserting(TranscriptStage(), at: .outside(.encryption))
    /// try registry.register(traced)
    /// ```
    ///
    /// - Parameters:
    ///   - stage: the stage to insert.
    ///   - cut: where to insert it.
    /// - Returns: a copy of the service with the stage inserted.
    /// - Throws: ``SwitchyardError/Code/invalidRequest`` naming the service's stages when it has no
    ///   stage with the cut's id.
    public func inserting(_ stage: any Stage, at cut: PipelineCut) throws(SwitchyardError) -> Service {
        var service = self
        switch cut {
        case .wire:
            service.stages.append(stage)
        case .outside(let id):
            guard let index = stages.firstIndex(where: { $0.id == id }) else {
                let names = stages.map(\.id.rawValue).joined(separator: ", ")
                var error = SwitchyardError(
                    code: .invalidRequest,
                    message: "service '\(self.id)' has no stage '\(id)' to cut outside of; its stages are: "
                        + (names.isEmpty ? "none" : names)
                )
                error.serviceID = self.id
                throw error
            }
            service.stages.insert(stage, at: index)
        }
        return service
    }
}
