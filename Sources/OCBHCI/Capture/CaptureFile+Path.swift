// Reading a capture file from a path on disk.

import Foundation

extension CaptureFile {
    /// Reads the capture file at `path` (see ``read(bytes:)``).
    /// Throws ``CaptureError/io(path:message:)`` if it cannot be read, then any error of ``read(bytes:)``.
    public static func read(path: String) throws(CaptureError) -> CaptureFile {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .io(path: path, message: "cannot read the file")
        }
        return try read(bytes: [UInt8](data))
    }
}
