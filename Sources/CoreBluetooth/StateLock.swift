// The recursive lock that guards the state of one central manager and every object it hands out.
import Foundation

/// A recursive lock shared by a `CBCentralManager`, its peripherals and their attributes.
///
/// Delegate methods are never called while it is held; getters take it briefly from any thread.
final class StateLock: @unchecked Sendable {
    private let lock = NSRecursiveLock()

    /// Runs `body` with the lock held.
    func run<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
