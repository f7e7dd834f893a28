extension APIClient {
    /// Ends a user's session: every ``SessionBoundStage`` of the services forgets what belongs to it
    /// (an ``AuthorizationStage`` its token, a ``CacheStage`` the private cached responses), and the
    /// services' calls in flight are cancelled — so nothing of the ending session reaches the next
    /// user, and the next call asks the token provider again.
    ///
    /// ```swift
    /// await client.endSession()                                  // sign-out on a device: every service
    /// await client.endSession(for: [.shop], account: "user-42")  // a server ends one account's session
    /// ```
    ///
    /// With an `account`, calls for other accounts keep running and only that account's cached
    /// responses are dropped (calls name their account with ``CallOptions/account``); calls in flight
    /// for the account are cancelled.
    ///
    /// - Parameters:
    ///   - services: the services whose session ends; `nil` for every registered service.
    ///   - account: the account whose session ends; `nil` for every signed-in user.
    public func endSession(for services: [ServiceID]? = nil, account: String? = nil) async {
        let ids = services ?? registry.serviceIDs
        for id in ids {
            guard let pipeline = try? registry.pipeline(for: id) else { continue }
            for stage in pipeline.sessionBoundStages { await stage.endSession(account: account) }
            if let account {
                cancelCalls(of: id, account: account)
            } else {
                cancel(.service(id))
            }
        }
    }
}
