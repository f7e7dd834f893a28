import Switchyard
import Synchronization

/// One module's recorded answers by request, and how far each sequence has been replayed.
final class FixtureBook: Sendable {
    /// One request's answers, in recorded order, with the entry number of the first.
    struct Answers: Sendable {
        let firstEntry: Int
        let responses: [Response]
    }

    /// The file's name, for error text.
    let name: String
    /// The keys in file order, for finding the nearest one.
    let keys: [FixtureKey]
    private let sequences: [FixtureKey: Answers]
    private let used = Mutex<[FixtureKey: Int]>([:])

    /// Checks every entry and groups the answers of identical requests.
    ///
    /// - Throws: ``SwitchyardError/Code/storage`` for a malformed entry.
    init(file: FixtureFile, name: String, rules: FixtureRules) throws(SwitchyardError) {
        var keys: [FixtureKey] = []
        var grouped: [FixtureKey: (first: Int, responses: [Response])] = [:]
        for (index, entry) in file.entries.enumerated() {
            let key = rules.key(entry.request)
            let response = try entry.response.response(entry: index + 1, file: name)
            if grouped[key] == nil {
                keys.append(key)
                grouped[key] = (index + 1, [])
            }
            grouped[key]?.responses.append(response)
        }
        self.name = name
        self.keys = keys
        self.sequences = grouped.mapValues { Answers(firstEntry: $0.first, responses: $0.responses) }
    }

    /// The outcome of looking a call up.
    enum Answer {
        case response(Response)
        /// The call's sequence was recorded `count` answers long and all were used.
        case exhausted(count: Int)
        case unmatched
    }

    /// The next answer for `key`; past the end, the last one again unless `strict`.
    func answer(for key: FixtureKey, strict: Bool) -> Answer {
        guard let sequence = sequences[key] else { return .unmatched }
        let position = used.withLock { used in
            let position = used[key, default: 0]
            used[key] = position + 1
            return position
        }
        if position < sequence.responses.count { return .response(sequence.responses[position]) }
        return strict ? .exhausted(count: sequence.responses.count) : .response(sequence.responses[sequence.responses.count - 1])
    }

    /// The recorded request nearest to `key` (the fewest differing parts; method and path weigh
    /// most) with its entry number, or `nil` when the file is empty.
    func nearest(to key: FixtureKey) -> (key: FixtureKey, entry: Int)? {
        func distance(_ other: FixtureKey) -> Int {
            (other.method == key.method ? 0 : 8) + (other.path == key.path ? 0 : 4) + (other.endpoint == key.endpoint ? 0 : 2)
                + (other.query == key.query ? 0 : 1) + (other.body == key.body ? 0 : 1)
        }
        guard let best = keys.min(by: { distance($0) < distance($1) }), let sequence = sequences[best] else { return nil }
        return (best, sequence.firstEntry)
    }
}
