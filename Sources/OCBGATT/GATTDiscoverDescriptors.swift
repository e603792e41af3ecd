// Discover All Characteristic Descriptors: Find Information over one characteristic's descriptor range.
import OCBCore
import OCBATT

/// Discover All Characteristic Descriptors (Core v5.4 Vol 3 Part G §4.7.1): Find Information Requests from
/// the value handle + 1 to the characteristic's end handle. No request goes out when the range is empty.
///
/// Only handles inside the range are taken; a declaration (service, include or characteristic) ends the
/// characteristic, so one found there ends the search. The loop ends on Attribute Not Found, at the range
/// end or 0xFFFF, or when no entry is past the last one.
struct GATTDiscoverDescriptors: GATTProcedure {
    /// The characteristic whose descriptors are searched.
    let characteristic: GATTCharacteristic
    /// Descriptors found so far (also after a failure).
    private(set) var found: [GATTDescriptor] = []
    private var next: AttributeHandle

    init(characteristic: GATTCharacteristic) {
        self.characteristic = characteristic
        next = characteristic.descriptorHandles?.lowerBound ?? 0
    }

    mutating func start() -> GATTStep<[GATTDescriptor]> {
        guard characteristic.descriptorHandles != nil else { return .finished([]) }
        return request()
    }

    mutating func receive(_ response: GATTResponse) -> GATTStep<[GATTDescriptor]> {
        switch response {
        case .error(.attributeNotFound, _):
            return .finished(found)
        case .findInformation(let entries):
            var progressed = false
            for entry in entries {
                if let error = handleOrderError(entry.handle, next: next, response: response.name) { return .failed(error) }
                guard entry.handle <= characteristic.endHandle else { continue }
                if GATTAttributeType.declarationTypes.contains(entry.uuid) { return .finished(found) }
                found.append(GATTDescriptor(handle: entry.handle, uuid: entry.uuid))
                progressed = true
                guard let after = nextHandle(after: entry.handle, end: characteristic.endHandle) else { return .finished(found) }
                next = after
            }
            return progressed ? request() : .finished(found)
        default:
            return unexpected(response)
        }
    }

    private func request() -> GATTStep<[GATTDescriptor]> {
        .send(.findInformation(start: next, end: characteristic.endHandle))
    }
}
