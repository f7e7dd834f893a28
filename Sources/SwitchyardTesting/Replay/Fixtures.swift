public import Foundation
public import Switchyard

/// Recorded exchanges, replayed at a cut of a service's pipeline (``PipelineCut``): the stages outside
/// the cut run for real, the stages inside it and the transport never run.
///
/// A call is matched to a recorded one by method, endpoint name (the discrete endpoint's type name or
/// the intensive call's path template), path, query parameters (sorted) and body (JSON compared
/// member by member whatever their order, forms field by field) — leaving out the fields named in
/// `ignoring` (nonces, timestamps, signatures) wherever they appear. Header fields are not matched.
/// A secret (a field ``Redaction`` names) was written as the redaction's placeholder, so it matches
/// by presence: any value of the same field matches.
///
/// Identical calls replay their recorded answers in the order they were recorded. In strict mode
/// (the default) a call that matches no recorded one, or comes after the last recorded answer of its
/// sequence, fails with ``SwitchyardError/Code/noFixture`` naming the nearest fixture and the parts
/// that differ (never their values); otherwise the last answer repeats and an unmatched call is
/// passed on to the stages inside the cut.
///
/// ```swift
/// let fixtures = Fixtures(directory: fixturesURL, ignoring: ["ts", "nonce"])
/// try registry.register(try fixtures.replay(vault, at: .outside(.encryption)))
/// ```
public struct Fixtures: Sendable {
    /// The directory holding one `<service id>.json` file per module.
    public let directory: URL
    /// Whether an unmatched call, or one past its sequence, fails instead of passing through.
    public let isStrict: Bool
    let rules: FixtureRules
    let maxFileSize: Int

    /// Creates fixtures read from `directory`.
    ///
    /// - Parameters:
    ///   - directory: the directory a ``FixtureRecorder`` wrote.
    ///   - ignoredFields: names of query parameters, form fields and JSON members (at any depth) left
    ///     out of matching, ignoring case.
    ///   - redaction: the rules the recorder hid secrets by; a secret matches by presence.
    ///   - strict: whether an unmatched call fails (`true`, the default) or passes through.
    ///   - maxFileSize: the largest fixture file read, in bytes (64 MiB by default).
    public init(
        directory: URL,
        ignoring ignoredFields: Set<String> = [],
        redaction: Redaction = .default,
        strict: Bool = true,
        maxFileSize: Int = 64 << 20
    ) {
        self.directory = directory
        self.isStrict = strict
        self.rules = FixtureRules(redaction: redaction, ignoring: ignoredFields)
        self.maxFileSize = maxFileSize
    }

    /// The service with a replay stage inserted at `cut`, answering from its fixture file, which is
    /// read and checked now. Each call of this method starts the file's sequences afresh.
    ///
    /// - Parameters:
    ///   - service: the service as the app registers it.
    ///   - cut: where to answer; the cut the file was recorded at.
    /// - Returns: the service to register.
    /// - Throws: ``SwitchyardError/Code/storage`` for a missing or malformed file,
    ///   ``SwitchyardError/Code/limitExceeded`` for one above `maxFileSize`,
    ///   ``SwitchyardError/Code/invalidRequest`` when the file was recorded at another cut or the
    ///   service has no stage the cut names.
    public func replay(_ service: Service, at cut: PipelineCut) throws(SwitchyardError) -> Service {
        let url = FixtureFile.url(for: service.id, in: directory)
        let file = try FixtureFile.load(from: url, service: service.id, maxSize: maxFileSize)
        guard file.cut == cut.description else {
            var error = SwitchyardError(
                code: .invalidRequest,
                message: "\(url.lastPathComponent) was recorded at the cut '\(file.cut)', not '\(cut)'"
            )
            error.serviceID = service.id
            throw error
        }
        let book = try FixtureBook(file: file, name: url.lastPathComponent, rules: rules)
        return try service.inserting(FixtureReplayStage(book: book, rules: rules, isStrict: isStrict), at: cut)
    }
}

extension StageID {
    /// The stage ``Fixtures/replay(_:at:)`` inserts.
    public static let fixtureReplay: StageID = "FixtureReplay"
    /// The stage ``FixtureRecorder/record(_:at:)`` inserts: skip it for a streamed call or a download,
    /// whose bodies it cannot record.
    public static let fixtureRecorder: StageID = "FixtureRecorder"
}

extension SwitchyardError.Code {
    /// A replay found no recorded answer for a call (``Fixtures``): none matches it, or its sequence
    /// is used up. The message names the nearest fixture and the parts that differ.
    public static let noFixture = SwitchyardError.Code("noFixture")
}
