// Whether two byte buffers hold the same bytes: one memcmp, at once when they are one buffer.
import Glibc

/// True when `first` and `second` hold the same bytes: the counts first, then one `memcmp` unless both are the same
/// memory (or empty). For the scan path's "same as last" tests, which run on every report.
func sameBytes(_ first: UnsafeRawBufferPointer, _ second: UnsafeRawBufferPointer) -> Bool {
    guard first.count == second.count else { return false }
    guard let left = first.baseAddress, let right = second.baseAddress, left != right else { return true }
    return memcmp(left, right, first.count) == 0
}
