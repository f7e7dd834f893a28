/// The sample backend's own routes, served before the loopback server's: each module under its path
/// prefix and the control routes.
enum SampleRoutes {
    /// Routes `request`; `nil` leaves it to the loopback server's routes.
    static func route(_ request: LoopbackRequest, state: SampleState) -> LoopbackAction? {
        let segments = Array(request.pathSegments)
        switch segments.first {
        case "users-api": return UsersModule.route(request, segments: segments.dropFirst()).map(LoopbackAction.respond)
        case "catalog-api": return CatalogModule.route(request, segments: segments.dropFirst()).map(LoopbackAction.respond)
        case "vault-api": return VaultModule.route(request, segments: segments.dropFirst()).map(LoopbackAction.respond)
        case "quotes-api": return QuotesModule.route(request, segments: segments.dropFirst()).map(LoopbackAction.respond)
        case "assistant-api": return AssistantModule.route(request, segments: segments.dropFirst())
        case "shop-api": return ShopModule.route(request, segments: segments.dropFirst(), state: state).map(LoopbackAction.respond)
        default: return ControlRoutes.route(request, segments: segments, state: state)
        }
    }
}
