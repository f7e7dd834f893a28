import Foundation

/// Runs blocking work — a child process and its pipes — on a thread of its own and waits for it
/// without holding one of the few threads every test's tasks share (two on a two-core machine), so
/// that a test waiting for a process never stalls another test's timeouts.
package func offThePool<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}
