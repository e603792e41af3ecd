// Find Included Services: the include declarations of one service, with the 128-bit UUID reads they need.
import OCBCore
import OCBATT

/// Find Included Services (Core v5.4 Vol 3 Part G §4.5.1): Read By Type Requests of type 0x2802 over the
/// service's range. An include declaration carries a 16-bit service UUID inline (6-byte value); for a
/// 128-bit one (4-byte value) a Read Request of the included service's start handle reads its declaration,
/// whose value is the 16-byte UUID.
///
/// The loop ends on Attribute Not Found, at the service end or 0xFFFF, or when no entry is past the last one.
struct GATTFindIncludedServices: GATTProcedure {
    /// The service searched.
    let service: GATTService
    /// Include declarations found so far (also after a failure).
    private(set) var found: [GATTIncludedService] = []
    /// Include declarations whose 128-bit UUID still has to be read, in handle order.
    private var unresolved: [(declaration: AttributeHandle, start: AttributeHandle, end: AttributeHandle)] = []
    private var next: AttributeHandle
    private var finishedSearch = false

    init(service: GATTService) {
        self.service = service
        next = service.startHandle
    }

    mutating func start() -> GATTStep<[GATTIncludedService]> { proceed() }

    mutating func receive(_ response: GATTResponse) -> GATTStep<[GATTIncludedService]> {
        if let pending = unresolved.first {
            // The answer to the Read Request of an included service's declaration.
            guard case .read(let value) = response else { return unexpected(response) }
            guard value.count == 16, let uuid = BluetoothUUID(littleEndianBytes: value) else {
                return .failed(.malformed(GATTMalformedResponse(
                    response: response.name,
                    reason: "included service declaration at 0x\(hex16(pending.start)) has a \(value.count)-byte value, not a 128-bit UUID")))
            }
            found.append(GATTIncludedService(declarationHandle: pending.declaration, uuid: uuid,
                                             startHandle: pending.start, endHandle: pending.end))
            unresolved.removeFirst()
            return proceed()
        }
        switch response {
        case .error(.attributeNotFound, _):
            finishedSearch = true
        case .readByType(let entries):
            var progressed = false
            for entry in entries {
                if let error = handleOrderError(entry.handle, next: next, response: response.name) { return .failed(error) }
                guard entry.handle <= service.endHandle else { continue }
                let include: (start: AttributeHandle, end: AttributeHandle, uuid: BluetoothUUID?)
                do throws(GATTMalformedResponse) {
                    include = try GATTDeclarationValue.include(entry.value, handle: entry.handle, response: response.name)
                } catch {
                    return .failed(.malformed(error))
                }
                if let uuid = include.uuid {
                    found.append(GATTIncludedService(declarationHandle: entry.handle, uuid: uuid,
                                                     startHandle: include.start, endHandle: include.end))
                } else {
                    unresolved.append((entry.handle, include.start, include.end))
                }
                progressed = true
                guard let after = nextHandle(after: entry.handle, end: service.endHandle) else {
                    finishedSearch = true
                    break
                }
                next = after
            }
            if !progressed { finishedSearch = true }
        default:
            return unexpected(response)
        }
        return proceed()
    }

    private func proceed() -> GATTStep<[GATTIncludedService]> {
        if let pending = unresolved.first { return .send(.read(handle: pending.start)) }
        if finishedSearch { return .finished(found.sorted { $0.declarationHandle < $1.declarationHandle }) }
        return .send(.readByType(start: next, end: service.endHandle, type: GATTAttributeType.include))
    }
}
