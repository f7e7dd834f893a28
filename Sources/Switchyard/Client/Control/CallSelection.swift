/// Which calls in flight a cancellation reaches: ``APIClient/cancel(_:)`` takes one.
///
/// ```swift
/// client.cancel(.id(handle.id))                  // one call, even before it reached the pipeline
/// client.cancel(.ids(thumbnails.map(\.id)))      // a screen's calls
/// client.cancel(.tag("feed"))                    // every call carrying a tag
/// client.cancel(.service(.users))                // every call to a service
/// client.cancel(.all)                            // everything, handles not yet started included
/// client.cancel(.oldest)                         // the oldest call in flight (or `.newest`)
/// ```
///
/// A ``RequestScope`` cancels its own calls with ``RequestScope/cancelAll()``.
public struct CallSelection: Sendable {
    /// What the selection names.
    enum Kind: Sendable {
        case ids(Set<RequestID>)
        case tag(RequestTag)
        case service(ServiceID)
        case all
        case oldest
        case newest
    }

    /// What the selection names.
    let kind: Kind

    /// The call with `id`.
    public static func id(_ id: RequestID) -> CallSelection { CallSelection(kind: .ids([id])) }

    /// The calls whose ids are in `ids` — the ids of a screen's handles, say — and no other.
    public static func ids(_ ids: some Sequence<RequestID>) -> CallSelection { CallSelection(kind: .ids(Set(ids))) }

    /// Every call carrying `tag`.
    public static func tag(_ tag: RequestTag) -> CallSelection { CallSelection(kind: .tag(tag)) }

    /// Every call to `service`.
    public static func service(_ service: ServiceID) -> CallSelection { CallSelection(kind: .service(service)) }

    /// Every call in flight, and every call started with a ``CallHandle`` that has not reached the
    /// pipeline yet.
    public static let all = CallSelection(kind: .all)

    /// The oldest call in flight.
    public static let oldest = CallSelection(kind: .oldest)

    /// The newest call in flight.
    public static let newest = CallSelection(kind: .newest)
}
