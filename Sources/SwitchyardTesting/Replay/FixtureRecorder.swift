public import Foundation
public import Switchyard
import SwitchyardSupport
import Synchronization

/// Records modules' traffic at a cut of their pipelines (``PipelineCut``) and writes it as fixture
/// files that ``Fixtures`` replays: one `<service id>.json` per module in ``directory``.
///
/// Files are JSON, pretty-printed with sorted keys, and stable: entries are sorted by request (identical
/// requests keep the order they were made in), nothing in them depends on the run (no host, port,
/// time or request id) unless the traffic itself carries it — name such fields in `ignoring`. JSON
/// bodies are embedded as JSON, forms as sorted pairs, text as text, other bytes (ciphertext) as
/// base64. Files are private to the user (`0600`).
///
/// Secrets never reach a file: the value of every header field, query parameter, form field and JSON
/// member (at any depth, in requests and responses) that `redaction` names is replaced by its
/// placeholder, and so is text the redaction would not log. A replay matches a secret by presence.
/// Values of ignored fields in requests are written as `<ignored>`.
///
/// ```swift
/// let recorder = FixtureRecorder(directory: fixturesURL, ignoring: ["ts"])
/// try registry.register(try recorder.record(vault, at: .outside(.encryption)))
/// // … make calls …
/// try recorder.save()
/// ```
///
/// Streamed bodies and downloads cannot be recorded: the stage fails such a call with
/// ``SwitchyardError/Code/unsupportedBody``; skip ``StageID/fixtureRecorder`` for it. A call that
/// fails inside the cut without a response (a transport error) is not recorded.
public final class FixtureRecorder: Sendable {
    /// One recorded exchange, numbered in the order it completed.
    private struct Recorded: Sendable {
        let order: Int
        let entry: FixtureEntry
    }

    /// What the recorder holds for one service.
    private struct Module: Sendable {
        var cut: PipelineCut
        var recorded: [Recorded] = []
    }

    /// The directory the files are written to (created `0700` when missing).
    public let directory: URL
    private let rules: FixtureRules
    private let modules = Mutex<(count: Int, byService: [ServiceID: Module])>((0, [:]))

    /// Creates a recorder.
    ///
    /// - Parameters:
    ///   - directory: where ``save()`` writes the files.
    ///   - ignoredFields: names of header fields, query parameters, form fields and JSON members whose
    ///     values in requests are written as `<ignored>`: fields that change from run to run.
    ///   - redaction: the rules that hide secrets; add names with ``Redaction/names``.
    public init(directory: URL, ignoring ignoredFields: Set<String> = [], redaction: Redaction = .default) {
        self.directory = directory
        self.rules = FixtureRules(redaction: redaction, ignoring: ignoredFields)
    }

    /// The service with a recording stage inserted at `cut`. Its file is written by ``save()``, with
    /// no entries when no call was made.
    ///
    /// - Parameters:
    ///   - service: the service as the app registers it.
    ///   - cut: where to record.
    /// - Returns: the service to register.
    /// - Throws: ``SwitchyardError/Code/invalidRequest`` when the service has no stage the cut names.
    public func record(_ service: Service, at cut: PipelineCut) throws(SwitchyardError) -> Service {
        let recording = try service.inserting(FixtureRecordingStage(recorder: self, rules: rules), at: cut)
        modules.withLock { $0.byService[service.id] = Module(cut: cut) }
        return recording
    }

    /// Adds one exchange to its service's entries.
    func append(_ entry: FixtureEntry, service: ServiceID) {
        modules.withLock { modules in
            modules.count += 1
            modules.byService[service]?.recorded.append(Recorded(order: modules.count, entry: entry))
        }
    }

    /// Writes one file per recorded service, replacing what was there; the entries stay, so a later
    /// call writes them again with whatever was recorded since.
    ///
    /// - Throws: ``SwitchyardError/Code/storage`` when a file cannot be written.
    public func save() throws(SwitchyardError) {
        let snapshot = modules.withLock { $0.byService }
        do {
            try PrivateFiles.createDirectory(at: directory)
        } catch {
            throw SwitchyardError(code: .storage, message: "cannot create the fixture directory", underlyingError: error)
        }
        for (service, module) in snapshot.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            // Sorted by request, so that concurrent calls land in the same place on every run;
            // identical requests keep their order, which is their sequence.
            let entries = module.recorded.map { (sortKey: Self.sortKey($0.entry.request), recorded: $0) }
                .sorted { ($0.sortKey, $0.recorded.order) < ($1.sortKey, $1.recorded.order) }
                .map(\.recorded.entry)
            let file = FixtureFile(
                format: FixtureFile.currentFormat,
                service: service.rawValue,
                cut: module.cut.description,
                entries: entries
            )
            let url = FixtureFile.url(for: service, in: directory)
            do {
                try PrivateFiles.replace(url, with: try file.encoded())
            } catch let error as SwitchyardError {
                throw error
            } catch {
                throw SwitchyardError(code: .storage, message: "cannot write \(url.lastPathComponent)", underlyingError: error)
            }
        }
    }

    /// A request's place in its file: by path, then method, endpoint, query and body, so that a
    /// path's calls sit together.
    private static func sortKey(_ request: FixtureRequest) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let body = request.body.flatMap { try? encoder.encode($0) }.map { String(decoding: $0, as: UTF8.self) } ?? ""
        return [request.path, request.method, request.endpoint, request.query.joined(separator: "&"), body].joined(separator: "\n")
    }
}

/// Passes every call on and records the request it passed on with the response that came back.
struct FixtureRecordingStage: Stage {
    let recorder: FixtureRecorder
    let rules: FixtureRules

    var id: StageID { .fixtureRecorder }

    func intercept(_ request: Request, context: CallContext, next: NextStage) async throws -> Response {
        let described = try rules.describe(request, context: context, stage: id)
        let response = try await next(request, context)
        recorder.append(FixtureEntry(request: described, response: try rules.describe(response, stage: id)), service: context.serviceID)
        return response
    }
}
