// Reads a whole file for `decode`, failing with the system's reason (strerror) rather than a bare "cannot read".

import Glibc

/// A file's bytes, or why they could not be read.
enum FileContents {
    /// Why `read(path:)` failed: the system's words for the errno ("No such file or directory", "Is a directory").
    struct Failure: Error {
        var reason: String
    }

    /// Every byte of the file at `path` (open(2) then read(2) until end of file; EINTR retried).
    /// Throws ``Failure`` with strerror of the first failing call.
    static func read(path: String) throws(Failure) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure(reason: reason(errno)) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                bytes.append(contentsOf: chunk.prefix(count))
            } else if count == 0 {
                return bytes
            } else if errno != EINTR {
                throw Failure(reason: reason(errno))
            }
        }
    }

    private static func reason(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
