extension Pipeline {
    /// Checks a call's stage selection against this pipeline: every skipped or enabled id names one
    /// of its stages (or of the call's additional stages), and every stage an option needs is there
    /// and runs for the call.
    ///
    /// - Parameter options: the call's merged options.
    /// - Throws: ``SwitchyardError/Code/invalidRequest`` naming the stage and, for an option, the option.
    func check(_ options: CallOptions) throws(SwitchyardError) {
        guard options.selectsStages else { return }
        // A pipeline has a handful of stages and a call adds fewer: scanning the arrays is cheaper
        // than hashing every id into a set on every call.
        let added = options.additionalStages.isEmpty ? [] : options.additionalStages.map(\.id)
        func isOwn(_ id: StageID) -> Bool { stageIDs.contains(id) }
        func isAdded(_ id: StageID) -> Bool { added.contains(id) }
        if !options.skippedStages.isEmpty {
            for id in options.skippedStages.sorted() where !isOwn(id) {
                let extra = isAdded(id) ? " (the call's own stages cannot be skipped)" : ""
                throw invalid(
                    "the call skips stage '\(id)', but service '\(serviceID)' has no such stage\(extra); its stages are \(listing)"
                )
            }
        }
        if !options.enabledStages.isEmpty {
            for id in options.enabledStages.sorted() where !isOwn(id) && !isAdded(id) {
                throw invalid("the call enables stage '\(id)', but service '\(serviceID)' has no such stage; its stages are \(listing)")
            }
        }
        // The common call passes: each option's stage is checked in place, and the options are
        // gathered by stage and sorted (so that the error names the same stage every time) only to
        // say which one fails.
        if options.allOptionStages(satisfy: { runsRequired($0, options: options, isAdded: isAdded($0)) }) { return }
        let requiredStages = options.requiredStages
        if requiredStages.count == 1, let (id, option) = requiredStages.first {
            try checkRequired(id, for: option, options: options, isAdded: isAdded(id))
            return
        }
        for (id, option) in requiredStages.sorted(by: { $0.key < $1.key }) {
            try checkRequired(id, for: option, options: options, isAdded: isAdded(id))
        }
    }

    /// Whether the call runs stage `id`, which one of its options needs: what ``checkRequired(_:for:options:isAdded:)``
    /// refuses otherwise.
    private func runsRequired(_ id: StageID, options: CallOptions, isAdded: Bool) -> Bool {
        isAdded
            || (stageIDs.contains(id) && !options.skippedStages.contains(id)
                && (optInStageIDs.isEmpty || !optInStageIDs.contains(id) || options.enabledStages.contains(id)))
    }

    /// Refuses a call whose option needs stage `id` when the call cannot run it.
    private func checkRequired(_ id: StageID, for option: String, options: CallOptions, isAdded: Bool) throws(SwitchyardError) {
        if isAdded { return }
        guard stageIDs.contains(id) else {
            throw invalid("the call's option \(option) needs stage '\(id)', but service '\(serviceID)' has no such stage")
        }
        if options.skippedStages.contains(id) {
            throw invalid("the call's option \(option) needs stage '\(id)', but the call skips that stage")
        }
        if !optInStageIDs.isEmpty, optInStageIDs.contains(id), !options.enabledStages.contains(id) {
            throw invalid("the call's option \(option) needs stage '\(id)', which service '\(serviceID)' registers as opt-in; enable it")
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
