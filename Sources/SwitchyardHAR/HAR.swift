public import Switchyard
/// The HTTP Archive format, version 1.2, as ``HARRecorder`` exports it: the values of one archive,
/// `Codable` so that `JSONEncoder` writes them and `JSONDecoder` reads them back.
///
/// Field names are those of the HAR 1.2 specification. Optional fields that Switchyard has nothing
/// for are left out rather than written as `null`; fields of its own carry the `_` prefix the
/// specification reserves for custom fields (`_service`, `_requestID`, `_error` …).
public enum HAR {
    /// The format version every exported archive declares: `"1.2"`.
    public static let version = "1.2"

    /// A whole archive: the one `log` object at the top of a `.har` file.
    public struct Document: Codable, Sendable, Equatable {
        /// The archive's log.
        public var log: Log

        /// Creates an archive around a log.
        public init(log: Log) { self.log = log }
    }

    /// The log: who wrote the archive and the calls it holds.
    public struct Log: Codable, Sendable, Equatable {
        /// The format version, ``HAR/version``.
        public var version: String
        /// The program that recorded the calls.
        public var creator: Creator
        /// One entry per recorded call (or attempt), ordered by when it started.
        public var entries: [Entry]
        /// A note for whoever reads the archive: how many entries a limit dropped, when any were.
        public var comment: String?

        /// Creates a log.
        public init(version: String = HAR.version, creator: Creator, entries: [Entry], comment: String? = nil) {
            self.version = version
            self.creator = creator
            self.entries = entries
            self.comment = comment
        }
    }

    /// The program that recorded the calls.
    public struct Creator: Codable, Sendable, Equatable {
        /// The program's name.
        public var name: String
        /// The program's version.
        public var version: String

        /// Creates a creator.
        public init(name: String, version: String) {
            self.name = name
            self.version = version
        }

        /// `Switchyard` at `UserAgent.libraryVersion`.
        public static let switchyard = Creator(name: "Switchyard", version: UserAgent.libraryVersion)
    }

    /// One call (or one attempt of it) as a ``HARRecordingStage`` saw it pass.
    public struct Entry: Codable, Sendable, Equatable {
        /// When the request passed the stage, in ISO 8601 with milliseconds (`2026-11-24T07:30:00.123Z`).
        public var startedDateTime: String
        /// Milliseconds from the request passing the stage to the response (or failure) coming back:
        /// the sum of ``timings``.
        public var time: Double
        /// The request as it passed the stage, redacted.
        public var request: Request
        /// The response as it came back, redacted; status 0 with ``HAR/Response/error`` set for a failure
        /// that brought no response.
        public var response: Response
        /// Cache state; Switchyard records none (`{}`).
        public var cache: Cache
        /// Where ``time`` went.
        public var timings: Timings
        /// The service the call was addressed to (`_service`).
        public var service: String
        /// The endpoint's name, redacted like a target (`_endpoint`); `nil` when the call had none.
        public var endpoint: String?
        /// The call's request id (`_requestID`), so entries can be matched with log lines.
        public var requestID: String
        /// The attempt number (`_attempt`): 2 and up are retries, when the stage sits inside a retry stage.
        public var attempt: Int
        /// `"fetch"` (`_resourceType`): the category browsers' developer tools file the entry under.
        public var resourceType: String
        /// The call's tags, sorted (`_tags`).
        public var tags: [String]
        /// What each stage inside the recording stage did to the call (`_stages`), when the call was
        /// traced (`CallOptions.trace`, `ServiceDefaults.trace`); `nil` otherwise.
        public var stages: [StageTrace]?

        /// Creates an entry.
        public init(
            startedDateTime: String,
            time: Double,
            request: Request,
            response: Response,
            cache: Cache = Cache(),
            timings: Timings,
            service: String,
            endpoint: String? = nil,
            requestID: String,
            attempt: Int = 1,
            resourceType: String = "fetch",
            tags: [String] = [],
            stages: [StageTrace]? = nil
        ) {
            self.startedDateTime = startedDateTime
            self.time = time
            self.request = request
            self.response = response
            self.cache = cache
            self.timings = timings
            self.service = service
            self.endpoint = endpoint
            self.requestID = requestID
            self.attempt = attempt
            self.resourceType = resourceType
            self.tags = tags
            self.stages = stages
        }

        /// Reads an entry; an archive written without the `_tags` field reads as having no tags.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            startedDateTime = try container.decode(String.self, forKey: .startedDateTime)
            time = try container.decode(Double.self, forKey: .time)
            request = try container.decode(Request.self, forKey: .request)
            response = try container.decode(Response.self, forKey: .response)
            cache = try container.decode(Cache.self, forKey: .cache)
            timings = try container.decode(Timings.self, forKey: .timings)
            service = try container.decode(String.self, forKey: .service)
            endpoint = try container.decodeIfPresent(String.self, forKey: .endpoint)
            requestID = try container.decode(String.self, forKey: .requestID)
            attempt = try container.decode(Int.self, forKey: .attempt)
            resourceType = try container.decode(String.self, forKey: .resourceType)
            tags = try container.decodeIfPresent([String].self, forKey: .tags) ?? []
            stages = try container.decodeIfPresent([StageTrace].self, forKey: .stages)
        }

        enum CodingKeys: String, CodingKey {
            case startedDateTime, time, request, response, cache, timings
            case service = "_service"
            case endpoint = "_endpoint"
            case requestID = "_requestID"
            case attempt = "_attempt"
            case resourceType = "_resourceType"
            case tags = "_tags"
            case stages = "_stages"
        }
    }

    /// An entry's cache state. Switchyard records none: the object is written empty, as the
    /// specification allows.
    public struct Cache: Codable, Sendable, Equatable {
        /// Creates an empty cache state.
        public init() {}
    }

    /// Where an entry's time went, in milliseconds; `-1` where a phase does not apply or is unknown.
    ///
    /// The recording stage sees a call as one span from the request passing it to the response
    /// coming back, so it reports that span as ``wait`` and `0` for ``send`` and ``receive``;
    /// connection phases happen below it, in the transport, and are `-1`.
    public struct Timings: Codable, Sendable, Equatable {
        /// Time waiting for a connection; `-1`.
        public var blocked: Double
        /// DNS resolution; `-1`.
        public var dns: Double
        /// Connecting (TLS included); `-1`.
        public var connect: Double
        /// Sending the request.
        public var send: Double
        /// Waiting for the response.
        public var wait: Double
        /// Receiving the response.
        public var receive: Double
        /// The TLS handshake; `-1`.
        public var ssl: Double

        /// Timings of a call seen as one span of `milliseconds`.
        public init(waiting milliseconds: Double) {
            self.init(blocked: -1, dns: -1, connect: -1, send: 0, wait: max(0, milliseconds), receive: 0, ssl: -1)
        }

        /// Creates timings phase by phase.
        public init(blocked: Double, dns: Double, connect: Double, send: Double, wait: Double, receive: Double, ssl: Double) {
            self.blocked = blocked
            self.dns = dns
            self.connect = connect
            self.send = send
            self.wait = wait
            self.receive = receive
            self.ssl = ssl
        }
    }
}
