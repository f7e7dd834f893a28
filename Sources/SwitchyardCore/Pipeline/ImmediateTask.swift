/// Starts the tasks the client runs beside a call — a shared run of identical calls, a call with a
/// deadline, a transport run apart — at once on the caller's thread where the runtime allows
/// (`Task.immediate`), so that work which never suspends costs no thread hop; elsewhere as an
/// ordinary task.
package enum ImmediateTask {
    /// Starts `operation`, which cannot fail.
    package static func start(_ operation: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            return Task.immediate(operation: operation)
        }
        return Task(operation: operation)
    }

    /// Starts `operation`, whose value or error the task carries.
    static func startThrowing<Value: Sendable>(_ operation: @escaping @Sendable () async throws -> Value) -> Task<Value, any Error> {
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            return Task.immediate(operation: operation)
        }
        return Task(operation: operation)
    }
}
