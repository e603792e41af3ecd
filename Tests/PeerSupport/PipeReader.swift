// Reading a child process's pipe to its end on a thread of its own, with blocking reads.
import Foundation

/// Reads a pipe on a thread of its own until its end, with blocking reads, instead of a `FileHandle`
/// `readabilityHandler`: that one is a dispatch read source on the descriptor, and a pipe closed (its `FileHandle`
/// released) while the source is still registered makes libdispatch's event loop read freed memory on Linux (a
/// "Bad pointer dereference" in `_dispatch_event_loop_drain`, seen in this project's suite; swift-subprocess moved
/// off dispatch sources for the same crash). The thread ends at the pipe's end (the child exited, or closed it).
public enum PipeReader {
    /// Starts reading `handle`: `chunk` gets each piece read, in order, then one empty `Data` at the end.
    public static func drain(_ handle: FileHandle, name: String, _ chunk: @escaping @Sendable (Data) -> Void) {
        let thread = Thread {
            while true {
                let data = handle.availableData
                chunk(data)
                if data.isEmpty { return }
            }
        }
        thread.name = name
        thread.start()
    }
}
