import Switchyard

/// Answers from a module's fixtures without calling `next` (or, outside strict mode, passes an
/// unmatched call on).
struct FixtureReplayStage: Stage {
    let book: FixtureBook
    let rules: FixtureRules
    let isStrict: Bool

    var id: StageID { .fixtureReplay }

    func intercept(_ request: Request, context: CallContext, next: NextStage) async throws -> Response {
        let key = rules.key(try rules.describe(request, context: context, stage: id))
        switch book.answer(for: key, strict: isStrict) {
        case .response(let response):
            return response
        case .unmatched where !isStrict:
            return try await next(request, context)
        case .unmatched:
            var message = "no recorded answer for \(key.summary) in \(book.name)"
            if let nearest = book.nearest(to: key) {
                let parts = nearest.key.differences(from: key)
                message +=
                    "; nearest fixture: entry \(nearest.entry), \(nearest.key.summary), which differs in " + parts.joined(separator: ", ")
            } else {
                message += ", which holds no entries"
            }
            throw failure(message, context: context)
        case .exhausted(let count):
            throw failure(
                "all \(count) recorded answer\(count == 1 ? "" : "s") for \(key.summary) in \(book.name) were used; "
                    + "a strict replay answers each recorded call once",
                context: context
            )
        }
    }

    private func failure(_ message: String, context: CallContext) -> SwitchyardError {
        var error = SwitchyardError(code: .noFixture, message: message)
        error.serviceID = context.serviceID
        error.stage = id
        error.requestID = context.requestID
        return error
    }
}
