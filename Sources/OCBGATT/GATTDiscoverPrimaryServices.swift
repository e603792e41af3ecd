// Discover All Primary Services and Discover Primary Service by Service UUID as one state machine.
import OCBCore
import OCBATT

/// Discover All Primary Services (Core v5.4 Vol 3 Part G §4.4.1: Read By Group Type Requests of type 0x2800)
/// or, given a UUID, Discover Primary Service by Service UUID (§4.4.2: Find By Type Value Requests of type
/// 0x2800 with the UUID as 2 or 16 bytes), over `range` (the whole database, or a Service Changed range).
///
/// Each request starts one past the last End Group Handle. The loop ends on Attribute Not Found, when an end
/// handle reaches the range end or 0xFFFF, or when a response brings no entry within the range. An entry below the
/// requested start or below the previous entry's end (a server that repeats itself) fails the procedure
/// (``handleOrderError(_:next:response:)``); entries past the range are dropped.
struct GATTDiscoverPrimaryServices: GATTProcedure {
    /// The handles searched.
    let range: ClosedRange<AttributeHandle>
    /// The service UUID searched for, or nil for every primary service.
    let uuid: BluetoothUUID?
    /// Services found so far (also after a failure).
    private(set) var found: [GATTService] = []
    private var next: AttributeHandle

    init(range: ClosedRange<AttributeHandle> = 0x0001...0xFFFF, uuid: BluetoothUUID? = nil) {
        self.range = max(1, range.lowerBound)...max(1, range.upperBound)
        self.uuid = uuid
        next = self.range.lowerBound
    }

    mutating func start() -> GATTStep<[GATTService]> { request() }

    mutating func receive(_ response: GATTResponse) -> GATTStep<[GATTService]> {
        var groups: [(handle: AttributeHandle, end: AttributeHandle, uuid: BluetoothUUID)] = []
        switch response {
        case .error(.attributeNotFound, _):
            return .finished(found)
        case .readByGroupType(let entries) where uuid == nil:
            for entry in entries {
                do throws(GATTMalformedResponse) {
                    let service = try GATTDeclarationValue.serviceUUID(entry.value, handle: entry.handle, response: response.name)
                    groups.append((entry.handle, entry.endGroupHandle, service))
                } catch {
                    return .failed(.malformed(error))
                }
            }
        case .findByTypeValue(let entries):
            guard let uuid else { return unexpected(response) }
            groups = entries.map { ($0.found, $0.groupEnd, uuid) }
        default:
            return unexpected(response)
        }
        var progressed = false
        for group in groups {
            guard group.handle != 0, group.end >= group.handle else {
                return .failed(.malformed(GATTMalformedResponse(
                    response: response.name,
                    reason: "service group 0x\(hex16(group.handle))-0x\(hex16(group.end)) is not a handle range")))
            }
            if let error = handleOrderError(group.handle, next: next, response: response.name) { return .failed(error) }
            // Services past the range are not taken.
            guard group.handle <= range.upperBound else { continue }
            found.append(GATTService(uuid: group.uuid, isPrimary: true, startHandle: group.handle, endHandle: group.end))
            progressed = true
            guard let after = nextHandle(after: group.end, end: range.upperBound) else { return .finished(found) }
            next = after
        }
        return progressed ? request() : .finished(found)
    }

    private func request() -> GATTStep<[GATTService]> {
        if let uuid {
            // A service declaration's value is a 16-bit or a 128-bit UUID (Vol 3 Part G §3.1): 32-bit ones go as 128.
            let value = uuid.littleEndianBytes(width: 2) ?? uuid.littleEndianBytes(width: 16) ?? []
            return .send(.findByTypeValue(start: next, end: range.upperBound, type: 0x2800, value: value))
        }
        return .send(.readByGroupType(start: next, end: range.upperBound, type: GATTAttributeType.primaryService))
    }
}
