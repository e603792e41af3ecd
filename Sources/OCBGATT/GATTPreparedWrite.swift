// Write Long Characteristic Values and Reliable Writes: Prepare Write Requests checked against their echo, then Execute Write.
import OCBCore
import OCBATT

/// Write Long Characteristic Values / Write Long Characteristic Descriptors (Core v5.4 Vol 3 Part G §4.9.4,
/// §4.12.4) for one value, Reliable Writes (§4.9.5) for several: each value is cut into parts of ATT_MTU-5
/// bytes sent as Prepare Write Requests with their Value Offset; each Prepare Write Response must echo the
/// request's handle, offset and part. Then Execute Write Request with Flags 0x01 writes them all.
///
/// An echo that differs cancels the queue (Execute Write Request, Flags 0x00) and fails with
/// ``GATTError/preparedValueMismatch(handle:offset:)``; an Error Response to a Prepare Write cancels the queue
/// too and fails with that ATT error. A value may be at most 512 bytes (Vol 3 Part F §3.2.9).
struct GATTPreparedWrite: GATTProcedure {
    /// The values to write, in order.
    let writes: [GATTHandleValue]
    let mtu: Int
    private var parts: [(handle: AttributeHandle, offset: UInt16, value: [UInt8])] = []
    private var sent = 0
    /// The error to end with once the cancelling Execute Write is answered.
    private var cancelling: GATTError?
    private var executing = false

    init(writes: [GATTHandleValue], mtu: Int) {
        self.writes = writes
        self.mtu = mtu
    }

    mutating func start() -> GATTStep<Void> {
        guard !writes.isEmpty else { return .failed(.invalidRequest("nothing to write")) }
        let size = max(1, mtu - 5)
        for write in writes {
            guard write.handle != 0 else { return .failed(.invalidRequest("write of handle 0x0000")) }
            guard write.value.count <= 512 else { return .failed(.valueTooLong(length: write.value.count, maximum: 512)) }
            if write.value.isEmpty { parts.append((write.handle, 0, [])) }
            for start in stride(from: 0, to: write.value.count, by: size) {
                parts.append((write.handle, UInt16(truncatingIfNeeded: start),
                              Array(write.value[start..<min(write.value.count, start + size)])))
            }
        }
        return next()
    }

    mutating func receive(_ response: GATTResponse) -> GATTStep<Void> {
        if let error = cancelling {
            // Whatever the server says to the cancel, the write has failed with the first error.
            return .failed(error)
        }
        if executing {
            guard case .executeWrite = response else { return unexpected(response) }
            return .finished(())
        }
        guard parts.indices.contains(sent - 1) else { return unexpected(response) }
        let part = parts[sent - 1]
        switch response {
        case .prepareWrite(let handle, let offset, let value):
            guard handle == part.handle, offset == part.offset, value == part.value else {
                return cancel(.preparedValueMismatch(handle: part.handle, offset: part.offset))
            }
            return next()
        case .error(let code, let handle):
            return cancel(.att(code, handle: handle))
        default:
            return cancel(.unexpectedResponse(response.name))
        }
    }

    private mutating func next() -> GATTStep<Void> {
        guard sent < parts.count else {
            executing = true
            return .send(.executeWrite(commit: true))
        }
        let part = parts[sent]
        sent += 1
        return .send(.prepareWrite(handle: part.handle, offset: part.offset, value: part.value))
    }

    private mutating func cancel(_ error: GATTError) -> GATTStep<Void> {
        cancelling = error
        return .send(.executeWrite(commit: false))
    }
}
