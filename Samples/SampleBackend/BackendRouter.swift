/// Dispatches a received request to the module that owns its path prefix.
enum BackendRouter {
    /// Routes `request`; anything no module claims becomes a 404 envelope.
    static func route(_ request: BackendRequest, state: BackendServerState) -> BackendAction {
        let segments = Array(request.pathSegments)
        let answer: BackendAction? =
            switch segments.first {
            case "users-api": UsersModule.route(request, segments: segments.dropFirst()).map(BackendAction.respond)
            case "catalog-api": CatalogModule.route(request, segments: segments.dropFirst()).map(BackendAction.respond)
            case "vault-api": VaultModule.route(request, segments: segments.dropFirst()).map(BackendAction.respond)
            case "shop-api": ShopModule.route(request, segments: segments.dropFirst(), state: state).map(BackendAction.respond)
            case "files": FilesModule.route(request, segments: segments)
            default: ControlRoutes.route(request, segments: segments, state: state) ?? UtilityRoutes.route(request, segments: segments)
            }
        return answer ?? .respond(.noRoute(for: request))
    }

    /// Whether `request` asks to read a resource (`GET`, or `HEAD`, whose body is suppressed).
    static func isRead(_ request: BackendRequest) -> Bool {
        request.method == .GET || request.method == .HEAD
    }
}
