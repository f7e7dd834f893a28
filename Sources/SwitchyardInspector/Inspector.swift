public import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
public import Switchyard
public import SwitchyardHAR

/// A local web page that lists an app's calls as they happen, each one openable as a timeline of its
/// stages: what each stage changed (its per-stage trace), its time, the attempts of a retried call,
/// the reconnections of an event stream, the request as sent (as a cURL line), the answer, and the
/// names whose values were redacted.
///
/// The page is fed by a ``HARRecorder`` of its own: register ``recordingStage`` **outermost** (first)
/// in each service to watch, and turn the service's trace on (`ServiceDefaults(trace: .diffs)`), so
/// that each entry carries the trace of every stage inside it. Apps that do not import
/// `SwitchyardInspector` build and link none of it.
///
/// ```swift
/// let inspector = try await Inspector.start(registry: registry)
/// print("Inspector: \(inspector.url)")
/// try registry.register(Service(.shop, baseURLs: urls, stages: [inspector.recordingStage] + shopStages, transport: transport))
/// // … calls …
/// await inspector.stop()
/// ```
///
/// ## Security
///
/// - It listens on 127.0.0.1 only, on a port the system picks.
/// - Every request — page, scripts, event stream, HAR export, clear — must carry the inspector's token
///   (32 random bytes) as the first segment of its path, as ``url`` does; any other is refused with
///   `403` and no body.
/// - It refuses to start in a release build (the registry's ``ServiceRegistry/Configuration/isReleaseBuild``).
/// - Entries are redacted by the recording stage as log lines are, and each event is redacted again
///   as an event stream before it is sent; bodies are shown only when ``Options/includeBodies`` is set.
/// - The page can only read, clear the inspector's own list, and export it: nothing it does changes
///   what the app's calls do.
public final class Inspector: Sendable {
    /// How the inspector records and what it shows.
    public struct Options: Sendable {
        /// Whether the page shows bodies (redacted): `false` by default, when it shows only their
        /// sizes, types and digests.
        public var includeBodies: Bool
        /// The most calls held (the oldest are dropped first); 1,000 by default.
        public var maxEntries: Int
        /// What the recording stage hides; ``Redaction/default`` unless the app's logging hides more.
        public var redaction: Redaction

        /// Creates options.
        ///
        /// - Parameters:
        ///   - includeBodies: whether the page shows bodies; `false` by default.
        ///   - maxEntries: the most calls held; 1,000 by default.
        ///   - redaction: what the recording stage hides; ``Redaction/default`` by default.
        public init(includeBodies: Bool = false, maxEntries: Int = 1000, redaction: Redaction = .default) {
            self.includeBodies = includeBodies
            self.maxEntries = maxEntries
            self.redaction = redaction
        }
    }

    /// The page's address, token included: `http://127.0.0.1:<port>/<token>/`. Treat it as a secret.
    public let url: URL
    /// The recorder the page shows; ``recordingStage`` records into it.
    public let recorder: HARRecorder
    /// The options the inspector started with.
    public let options: Options

    private let feed: InspectorFeed
    private let services: ServiceGroup
    private let server: Task<Void, Never>

    private init(url: URL, recorder: HARRecorder, options: Options, feed: InspectorFeed, services: ServiceGroup, server: Task<Void, Never>)
    {
        self.url = url
        self.recorder = recorder
        self.options = options
        self.feed = feed
        self.services = services
        self.server = server
    }

    /// The stage to register first in each service the page should show: a ``HARRecordingStage`` into
    /// ``recorder`` with the inspector's redaction, recording bodies only when
    /// ``Options/includeBodies`` is set.
    public var recordingStage: HARRecordingStage {
        HARRecordingStage(recorder: recorder, redaction: options.redaction, bodies: options.includeBodies ? .all : .none)
    }

    /// Starts the inspector's server on 127.0.0.1, on a free port.
    ///
    /// - Parameters:
    ///   - registry: the app's registry; its release lock decides whether the inspector may start.
    ///   - options: what to record and show.
    /// - Returns: the running inspector; its ``url`` opens the page.
    /// - Throws: ``SwitchyardError/Code/inspectorLocked`` in a release build;
    ///   ``SwitchyardError/Code/transport`` when the server cannot listen.
    public static func start(registry: ServiceRegistry, options: Options = Options()) async throws(SwitchyardError) -> Inspector {
        guard !registry.configuration.isReleaseBuild else {
            throw SwitchyardError(code: .inspectorLocked, message: "this is a release build: the inspector is locked off")
        }
        let page = try InspectorPage.load()
        let token = InspectorToken()
        let feed = InspectorFeed(options: options)
        let recorder = HARRecorder(maxEntries: options.maxEntries, onRecord: { entry in feed.publish(entry) })
        let routes = InspectorRoutes(page: page, feed: feed, recorder: recorder, registry: registry)
        let (ports, portSink) = AsyncStream<Int>.makeStream()
        var logger = Logger(label: "SwitchyardInspector")
        logger.logLevel = .error
        let app = Application(
            responder: TokenGate(token: token, next: routes.responder()),
            configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                portSink.yield(channel.localAddress?.port ?? 0)
                portSink.finish()
            },
            logger: logger
        )
        // A group of its own, with no signal handlers: the app's signals stay the app's.
        let services = ServiceGroup(configuration: ServiceGroupConfiguration(services: [app], logger: logger))
        let server = Task {
            try? await services.run()
            portSink.finish()
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0, let url = URL(string: "http://127.0.0.1:\(port)/\(token.text)/") else {
            feed.close()
            await services.triggerGracefulShutdown()
            await server.value
            throw SwitchyardError(code: .transport, message: "the inspector could not listen on 127.0.0.1")
        }
        return Inspector(url: url, recorder: recorder, options: options, feed: feed, services: services, server: server)
    }

    /// Ends the page's event streams and stops the server gracefully. The recorder keeps its entries.
    public func stop() async {
        feed.close()
        await services.triggerGracefulShutdown()
        await server.value
    }
}

extension SwitchyardError.Code {
    /// ``Inspector/start(registry:options:)`` was called in a release build: the registry's release
    /// lock keeps the inspector off.
    public static let inspectorLocked = Self("inspectorLocked")
}
