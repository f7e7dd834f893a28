extension APIClient {
    /// Delivers the stored response first (when there is one), then the network's, which is stored —
    /// "cache then network" for screens that show something at once and refresh it. Needs a
    /// ``CacheStage`` in the service's pipeline.
    ///
    /// The stream ends after the network's value, or with the network's error (after the cached
    /// value, if there was one). Each value's ``CallResult/source`` says where it came from.
    public func sendCacheThenNetwork<E: Endpoint>(
        _ endpoint: E,
        options: CallOptions? = nil
    ) -> AsyncThrowingStream<CallResult<E.Output>, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                var cached = options ?? CallOptions()
                cached.cache(.cacheOnly)
                do throws(SwitchyardError) {
                    continuation.yield(try await send(endpoint, options: cached))
                } catch  where error.code == .cacheMiss {
                    // Nothing stored yet: the network's value is the first one.
                } catch {
                    // A stored value that no longer decodes is skipped; the network decides.
                }
                var fresh = options ?? CallOptions()
                fresh.cache(.revalidate)
                do throws(SwitchyardError) {
                    continuation.yield(try await send(endpoint, options: fresh))
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
