// Read Multiple Variable Length Characteristic Values, with truncated values completed by Read Blob.
import OCBCore
import OCBATT

/// Read Multiple Variable Length Characteristic Values (Core v5.4 Vol 3 Part G §4.8.5): Read Multiple
/// Variable Requests of at most (ATT_MTU-1)/2 handles; the response's Length Value Tuples are matched to the
/// handles in order. Handles the response had no room for are asked again in the next request; a value cut
/// short (its Length larger than the bytes that came, Vol 3 Part F §3.4.4.12) is completed with Read Blob
/// Requests. A leftover single handle goes as a Read Request.
struct GATTReadMultipleVariable: GATTProcedure {
    let handles: [AttributeHandle]
    let mtu: Int
    /// The values read so far, in the order of `handles` (also after a failure).
    private(set) var values: [GATTHandleValue] = []
    private var inFlight: [AttributeHandle] = []
    /// A value being completed with Read Blob: its index in `values` and the length announced.
    private var completing: (index: Int, length: Int)?

    init(handles: [AttributeHandle], mtu: Int) {
        self.handles = handles
        self.mtu = mtu
    }

    mutating func start() -> GATTStep<[GATTHandleValue]> {
        guard handles.count >= 2 else {
            return .failed(.invalidRequest("Read Multiple Variable needs two or more handles, got \(handles.count)"))
        }
        guard !handles.contains(0) else { return .failed(.invalidRequest("Read Multiple Variable of handle 0x0000")) }
        return proceed()
    }

    mutating func receive(_ response: GATTResponse) -> GATTStep<[GATTHandleValue]> {
        if let blob = completing {
            switch response {
            case .error(.attributeNotLong, _), .error(.invalidOffset, _):
                completing = nil
            case .read(let part) where values.indices.contains(blob.index):
                values[blob.index].value += part
                if part.count < mtu - 1 || values[blob.index].value.count >= blob.length { completing = nil }
            default:
                return unexpected(response)
            }
            return proceed()
        }
        switch response {
        case .read(let value) where inFlight.count == 1:
            values.append(GATTHandleValue(handle: inFlight[0], value: value))
            completing = value.count >= mtu - 1 ? (values.count - 1, 512) : nil
        case .readMultipleVariable(let tuples):
            guard !tuples.isEmpty, tuples.count <= inFlight.count else {
                return .failed(.malformed(GATTMalformedResponse(
                    response: response.name, reason: "\(tuples.count) values for \(inFlight.count) handles")))
            }
            for (index, tuple) in tuples.enumerated() {
                values.append(GATTHandleValue(handle: inFlight[index], value: tuple.value))
                if tuple.value.count < Int(tuple.length) {
                    guard index == tuples.count - 1 else {
                        return .failed(.malformed(GATTMalformedResponse(
                            response: response.name,
                            reason: "value of handle 0x\(hex16(inFlight[index])) cut short before the last tuple")))
                    }
                    completing = (values.count - 1, Int(tuple.length))
                }
            }
        default:
            return unexpected(response)
        }
        inFlight = []
        return proceed()
    }

    private mutating func proceed() -> GATTStep<[GATTHandleValue]> {
        if let blob = completing, values.indices.contains(blob.index),
           let offset = UInt16(exactly: values[blob.index].value.count), offset < 512 {
            return .send(.readBlob(handle: values[blob.index].handle, offset: offset))
        }
        completing = nil
        guard values.count < handles.count else { return .finished(values) }
        let perRequest = max(2, (mtu - 1) / 2)
        inFlight = Array(handles[values.count..<min(handles.count, values.count + perRequest)])
        if inFlight.count == 1 { return .send(.read(handle: inFlight[0])) }
        return .send(.readMultipleVariable(handles: inFlight))
    }
}
