import Switchyard

/// Where an observable loader — a ``ResourceLoader`` or a ``Paginator`` — stands, for a screen
/// that shows a placeholder, a spinner, the content or an error.
///
/// A loader starts ``idle``, is ``loading`` while a load is in flight (keeping what it showed
/// before: a reload keeps the value, a cached value can arrive while the fresh one is on its way),
/// and then ``loaded`` or ``failed``. A load that is cancelled goes back to the phase it left.
public enum LoadPhase: Sendable, Hashable, CustomStringConvertible {
    /// Nothing has been loaded or tried yet.
    case idle
    /// A load is in flight.
    case loading
    /// The last load succeeded.
    case loaded
    /// The last load failed; the loader's `error` says why, and what it loaded before is kept.
    case failed

    /// `idle`, `loading`, `loaded` or `failed`.
    public var description: String {
        switch self {
        case .idle: "idle"
        case .loading: "loading"
        case .loaded: "loaded"
        case .failed: "failed"
        }
    }
}
