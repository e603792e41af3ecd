// Read Multiple Characteristic Values, split into as few requests as ATT_MTU allows.
import OCBCore
import OCBATT

/// Read Multiple Characteristic Values (Core v5.4 Vol 3 Part G §4.8.4): Read Multiple Requests of at most
/// (ATT_MTU-1)/2 handles each; the result is the responses' bytes concatenated, in handle order as given.
/// The values carry no lengths: the caller knows them (fixed-length values only). A leftover single handle
/// goes as a Read Request (a Read Multiple Request needs two or more).
struct GATTReadMultiple: GATTProcedure {
    let handles: [AttributeHandle]
    let mtu: Int
    /// The bytes read so far (also after a failure).
    private(set) var value: [UInt8] = []
    private var sent = 0

    init(handles: [AttributeHandle], mtu: Int) {
        self.handles = handles
        self.mtu = mtu
    }

    mutating func start() -> GATTStep<[UInt8]> {
        guard handles.count >= 2 else { return .failed(.invalidRequest("Read Multiple needs two or more handles, got \(handles.count)")) }
        guard !handles.contains(0) else { return .failed(.invalidRequest("Read Multiple of handle 0x0000")) }
        return request()
    }

    mutating func receive(_ response: GATTResponse) -> GATTStep<[UInt8]> {
        switch response {
        case .readMultiple(let bytes), .read(let bytes):
            value += bytes
            return sent < handles.count ? request() : .finished(value)
        default:
            return unexpected(response)
        }
    }

    private mutating func request() -> GATTStep<[UInt8]> {
        let perRequest = max(2, (mtu - 1) / 2)
        let chunk = Array(handles[sent..<min(handles.count, sent + perRequest)])
        sent += chunk.count
        if chunk.count == 1, let handle = chunk.first { return .send(.read(handle: handle)) }
        return .send(.readMultiple(handles: chunk))
    }
}
