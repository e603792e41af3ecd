// Gives the C heap's free pages back to the system once a burst of work (a scan, a flood of advertisers) has ended.

import Glibc

/// Returns free heap memory to the system: glibc's `malloc_trim(0)` (malloc(3)), which releases the free pages of every
/// arena, not only the top of the main one that glibc gives back by itself. Swift objects live on this heap; after a
/// scan among many advertisers the memory its state held is free but, spread over the arenas of the threads that
/// allocated it, stays resident without this. Looked up at run time (a glibc extension): where it is missing, a no-op.
/// Costs a walk of the free lists (about a millisecond after a large scan); for the end of a burst, not a hot path.
public enum HeapRelease {
    private typealias Trim = @convention(c) (Int) -> Int32

    private static let trim: Trim? = {
        guard let process = dlopen(nil, RTLD_NOW), let symbol = dlsym(process, "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: Trim.self)
    }()

    /// Releases the free pages now; true when the C library released some.
    @discardableResult
    public static func returnFreePages() -> Bool {
        guard let trim else { return false }
        return trim(0) == 1
    }
}
