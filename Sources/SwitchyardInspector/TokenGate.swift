import Hummingbird

/// Refuses, with `403` and no body, every request whose path does not open with the inspector's
/// token as its first segment; passes the others to the routes.
struct TokenGate<Next: HTTPResponder>: HTTPResponder where Next.Context == BasicRequestContext {
    let token: InspectorToken
    let next: Next

    func respond(to request: Request, context: BasicRequestContext) async throws -> Response {
        let segment = request.uri.path.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: true).first ?? ""
        guard token.matches(segment) else { return Response(status: .forbidden) }
        return try await next.respond(to: request, context: context)
    }
}
