import Synchronization

extension ServiceRegistry {
    /// Switches the environment and persists the choice.
    ///
    /// - Parameters:
    ///   - environment: the new environment.
    ///   - customBaseURLs: base URLs for ``ServerEnvironment/custom``, by service; they replace those set before.
    /// - Throws: ``SwitchyardError/Code/environmentLocked`` in a release build,
    ///   ``SwitchyardError/Code/invalidBaseURL`` for a malformed custom URL, and
    ///   ``SwitchyardError/Code/storage`` when the choice cannot be persisted (nothing changes then).
    public func switchEnvironment(to environment: ServerEnvironment, customBaseURLs: [ServiceID: String] = [:]) throws(SwitchyardError) {
        try checkUnlocked()
        var parsedCustom: [ServiceID: BaseURL] = [:]
        for (id, url) in customBaseURLs { parsedCustom[id] = try Self.parseCustom(url, for: id) }
        try persist { state in
            state.environment = environment
            state.customBaseURLs.merge(parsedCustom) { _, new in new }
        }
    }

    /// Switches one service (a module) to an environment of its own, or back to the registry's, and
    /// persists the choice with the registry's; the other services stay where they are.
    ///
    /// ```swift
    /// try registry.switchEnvironment(to: .test, for: .payments)   // payments on test, the rest unchanged
    /// try registry.switchEnvironment(to: nil, for: .payments)     // payments follows the registry again
    /// ```
    ///
    /// - Parameters:
    ///   - environment: the service's environment; `nil` to follow the registry's again.
    ///   - id: the service, registered or not (the choice applies when it is registered).
    ///   - customBaseURL: the service's base URL for ``ServerEnvironment/custom``; replaces the one set before.
    /// - Throws: ``SwitchyardError/Code/environmentLocked`` in a release build,
    ///   ``SwitchyardError/Code/invalidBaseURL`` for a malformed custom URL, and
    ///   ``SwitchyardError/Code/storage`` when the choice cannot be persisted (nothing changes then).
    public func switchEnvironment(
        to environment: ServerEnvironment?,
        for id: ServiceID,
        customBaseURL: String? = nil
    ) throws(SwitchyardError) {
        try checkUnlocked()
        let custom = try customBaseURL.map { url throws(SwitchyardError) in try Self.parseCustom(url, for: id) }
        try persist { state in
            state.serviceEnvironments[id] = environment
            if let custom { state.customBaseURLs[id] = custom }
        }
    }

    /// Refuses a switch in a release build.
    private func checkUnlocked() throws(SwitchyardError) {
        guard !configuration.isReleaseBuild else {
            throw SwitchyardError(code: .environmentLocked, message: "this is a release build: the environment is locked to release")
        }
    }

    private static func parseCustom(_ url: String, for id: ServiceID) throws(SwitchyardError) -> BaseURL {
        do {
            return try BaseURL(url)
        } catch {
            var error = error
            error.serviceID = id
            throw error
        }
    }

    /// Applies a switch: persists the state it leads to, then — only once that is stored — makes it
    /// current and works out every route again.
    private func persist(_ change: (inout State) -> Void) throws(SwitchyardError) {
        // Switches are serialised by their own lock, so that persisting (file I/O) never holds the
        // lock every call takes, and a store that reads the registry cannot deadlock.
        try switching.withLock { _ throws(SwitchyardError) in
            var next = state.withLock {
                State(environment: $0.environment, customBaseURLs: $0.customBaseURLs, serviceEnvironments: $0.serviceEnvironments)
            }
            change(&next)
            if let store = configuration.store {
                do {
                    try store.save(next.selection)
                } catch {
                    throw SwitchyardError.wrapping(error, as: .storage)
                }
            }
            state.withLock { state in
                state.environment = next.environment
                state.customBaseURLs = next.customBaseURLs
                state.serviceEnvironments = next.serviceEnvironments
                state.routes = state.routes.mapValues { state.route($0.entry) }
            }
        }
    }
}
