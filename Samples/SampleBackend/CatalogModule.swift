/// The "catalog" module under `/catalog-api`: envelope success code `100`, message `"success"`.
enum CatalogModule {
    /// How many articles the catalog holds (ids `1...articleCount`).
    static let articleCount = 45
    /// The largest page size served; larger requests are clamped to it.
    static let maxPageSize = 50

    /// Answers a request below `/catalog-api`; `nil` when no route matches.
    static func route(_ request: LoopbackRequest, segments: ArraySlice<Substring>) -> LoopbackResponse? {
        let segments = Array(segments)
        guard request.isRead, segments.first == "articles" else { return nil }
        switch segments.count {
        case 1: return Self.page(request)
        case 2: return Self.article(idSegment: segments[1])
        default: return nil
        }
    }

    private static func page(_ request: LoopbackRequest) -> LoopbackResponse {
        guard let page = Self.positiveInteger(request.queryItem(named: "page"), default: 1),
            let requestedSize = Self.positiveInteger(request.queryItem(named: "size"), default: 10)
        else {
            return .envelope(code: 422, msg: "page and size must be positive integers")
        }
        let size = min(requestedSize, Self.maxPageSize)
        let (start, overflow) = (page - 1).multipliedReportingOverflow(by: size)
        let firstID = overflow ? Int.max : start + 1
        let items: [JSONValue] =
            firstID > Self.articleCount
            ? [] : (firstID...min(firstID + size - 1, Self.articleCount)).map(Self.summary(of:))
        let hasMore = !overflow && start + size < Self.articleCount
        let data: JSONValue = .object([
            ("page", .int(page)), ("size", .int(size)), ("total", .int(Self.articleCount)),
            ("hasMore", .bool(hasMore)), ("items", .array(items)),
        ])
        return .envelope(code: 100, msg: "success", data: data)
    }

    private static func article(idSegment: Substring) -> LoopbackResponse {
        guard let id = Int(idSegment), (1...Self.articleCount).contains(id) else {
            return .envelope(code: 404, msg: "article not found")
        }
        let data: JSONValue = .object([
            ("id", .int(id)), ("title", .string("Article \(id)")), ("summary", Self.summaryText(of: id)),
            ("body", .string("This is the full text of article \(id).\nIt spans two lines.")), ("author", nil),
        ])
        return .envelope(code: 100, msg: "success", data: data)
    }

    private static func summary(of id: Int) -> JSONValue {
        .object([("id", .int(id)), ("title", .string("Article \(id)")), ("summary", Self.summaryText(of: id))])
    }

    /// Every third article has no summary.
    private static func summaryText(of id: Int) -> JSONValue {
        id.isMultiple(of: 3) ? .null : .string("Summary of article \(id)")
    }

    /// Parses a positive integer query value; absent means `defaultValue`, anything else invalid means `nil`.
    private static func positiveInteger(_ value: String?, default defaultValue: Int) -> Int? {
        guard let value else { return defaultValue }
        guard let number = Int(value), number > 0 else { return nil }
        return number
    }
}
