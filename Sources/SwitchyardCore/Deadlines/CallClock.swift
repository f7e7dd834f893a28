/// Monotonic time for the call path, kept as a `Duration` since one reference instant per process.
///
/// `ContinuousClock.Instant` has no fixed layout outside the standard library: a struct that stores
/// one is copied and destroyed through value witnesses, and an asynchronous function that keeps one
/// in a local allocates room for it on every call. ``CallContext`` and the client's call bookkeeping
/// keep their instants as offsets from ``reference`` instead, and convert at the edges.
package enum CallClock {
    /// The instant offsets count from, taken the first time any is needed.
    package static let reference = ContinuousClock.now

    /// The current time as an offset from ``reference``.
    package static var now: Duration { reference.duration(to: .now) }

    /// The instant `offset` after ``reference``.
    package static func instant(_ offset: Duration) -> ContinuousClock.Instant { reference.advanced(by: offset) }

    /// `instant` as an offset from ``reference``.
    package static func offset(_ instant: ContinuousClock.Instant) -> Duration { reference.duration(to: instant) }
}
