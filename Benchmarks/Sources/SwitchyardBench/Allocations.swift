import MallocInterposerSwift

/// Allocation counts through ordo-one's malloc-interposer, which must be preloaded
/// (`LD_PRELOAD=.build/release/libMallocInterposerSwift.so`); without it nothing is counted.
enum Allocations {
    /// Mallocs per call over `requests` calls made by `work`; `nil` when the interposer is not loaded.
    static func perCall(requests: Int, _ work: () async throws -> Void) async rethrows -> Double? {
        MallocInterposerSwift.initialize()
        MallocInterposerSwift.reset()
        MallocInterposerSwift.hook()
        try await work()
        MallocInterposerSwift.unhook()
        let count = MallocInterposerSwift.getStatistics().mallocCount
        return count > 0 ? Double(count) / Double(requests) : nil
    }
}
