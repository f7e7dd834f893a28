extension Pipeline {
    /// Checks a call's stage selection against this pipeline: every skipped or enabled id names one
    /// of its stages (or of the call's additional stages), and every stage an option needs is there
    /// and runs for the call.
    ///
    /// - Parameter options: the call's merged options.
    /// - Throws: ``SwitchyardError/Code/invalidRequest`` naming the stage and, for an option, the option.
    func check(_ options: CallOptions) throws(SwitchyardError) {
        if options.skippedStages.isEmpty, options.enabledStages.isEmpty, options.requiredStages.isEmpty { return }
        let own = Set(stageIDs)
        let added = Set(options.additionalStages.map(\.id))
        for id in options.skippedStages.sorted() where !own.contains(id) {
            let extra = added.contains(id) ? " (the call's own stages cannot be skipped)" : ""
            throw invalid("the call skips stage '\(id)', but service '\(serviceID)' has no such stage\(extra); its stages are \(listing)")
        }
        for id in options.enabledStages.sorted() where !own.contains(id) && !added.contains(id) {
            throw invalid("the call enables stage '\(id)', but service '\(serviceID)' has no such stage; its stages are \(listing)")
        }
        for (id, option) in options.requiredStages.sorted(by: { $0.key < $1.key }) {
            if added.contains(id) { continue }
            guard own.contains(id) else {
                throw invalid("the call's option \(option) needs stage '\(id)', but service '\(serviceID)' has no such stage")
            }
            if options.skippedStages.contains(id) {
                throw invalid("the call's option \(option) needs stage '\(id)', but the call skips that stage")
            }
            if optInStageIDs.contains(id), !options.enabledStages.contains(id) {
                throw invalid(
                    "the call's option \(option) needs stage '\(id)', which service '\(serviceID)' registers as opt-in; enable it"
                )
            }
        }
    }

    /// The stage ids for an error message.
    private var listing: String {
        stageIDs.isEmpty ? "none" : stageIDs.map { "'\($0)'" }.joined(separator: ", ")
    }

    private func invalid(_ message: String) -> SwitchyardError {
        SwitchyardError(code: .invalidRequest, message: message)
    }
}
