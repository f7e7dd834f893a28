/// A reformer in two steps: a base reformer makes an entity (usually a decoded model), then a
/// function turns the entity into what the app displays — text, a view model. Made by
/// ``Reformer/map(_:)``.
public struct TwoStepReformer<Base: Reformer, Output: Sendable>: Reformer {
    /// The first step.
    public let base: Base
    /// The second step.
    public let transform: @Sendable (Base.Output) throws -> Output

    /// Creates the reformer.
    public init(_ base: Base, _ transform: @escaping @Sendable (Base.Output) throws -> Output) {
        self.base = base
        self.transform = transform
    }

    /// Runs both steps.
    public func reform(_ response: Response, context: ReformContext) throws -> Output {
        try transform(base.reform(response, context: context))
    }
}
