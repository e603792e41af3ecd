// Discover All Characteristics of a Service and Discover Characteristics by UUID, with each one's end handle.
import OCBCore
import OCBATT

/// Discover All Characteristics of a Service (Core v5.4 Vol 3 Part G §4.6.1) or, given a UUID, Discover
/// Characteristics by UUID (§4.6.2): Read By Type Requests of type 0x2803 over the service's range, each
/// starting one past the last declaration handle; by-UUID filters the declarations afterwards, because every
/// declaration is needed to know where a characteristic ends.
///
/// A characteristic ends before the next characteristic declaration, the last one at the service end.
/// The loop ends on Attribute Not Found or at the service end or 0xFFFF; an entry below the requested start or the
/// previous declaration fails it (``handleOrderError(_:next:response:)``), and so does a declaration at or below the
/// previous characteristic's value handle (that value would lie outside its characteristic, Vol 3 Part G §3.3.2).
struct GATTDiscoverCharacteristics: GATTProcedure {
    /// The service searched.
    let service: GATTService
    /// The characteristic UUID wanted, or nil for all.
    let uuid: BluetoothUUID?
    private var declarations: [(handle: AttributeHandle, properties: GATTCharacteristicProperties, valueHandle: AttributeHandle, uuid: BluetoothUUID)] = []
    private var next: AttributeHandle

    init(service: GATTService, uuid: BluetoothUUID? = nil) {
        self.service = service
        self.uuid = uuid
        next = service.startHandle
    }

    /// Every characteristic found so far (also after a failure), with end handles as far as known: the
    /// last one found ends at the service end. Not filtered by UUID.
    var allFound: [GATTCharacteristic] {
        declarations.enumerated().map { index, declaration in
            let end = index + 1 < declarations.count ? declarations[index + 1].handle - 1 : service.endHandle
            return GATTCharacteristic(declarationHandle: declaration.handle, valueHandle: declaration.valueHandle,
                                      endHandle: end, properties: declaration.properties, uuid: declaration.uuid)
        }
    }

    /// The characteristics found (filtered by UUID when one was given).
    var found: [GATTCharacteristic] { allFound.filter { uuid == nil || $0.uuid == uuid } }

    mutating func start() -> GATTStep<[GATTCharacteristic]> { request() }

    mutating func receive(_ response: GATTResponse) -> GATTStep<[GATTCharacteristic]> {
        switch response {
        case .error(.attributeNotFound, _):
            return .finished(found)
        case .readByType(let entries):
            var progressed = false
            for entry in entries {
                if let error = handleOrderError(entry.handle, next: next, response: response.name) { return .failed(error) }
                guard entry.handle <= service.endHandle else { continue }
                let declaration: (properties: GATTCharacteristicProperties, valueHandle: AttributeHandle, uuid: BluetoothUUID)
                do throws(GATTMalformedResponse) {
                    declaration = try GATTDeclarationValue.characteristic(entry.value, handle: entry.handle, response: response.name)
                } catch {
                    return .failed(.malformed(error))
                }
                guard declaration.valueHandle <= service.endHandle else {
                    return .failed(.malformed(GATTMalformedResponse(
                        response: response.name,
                        reason: "characteristic at 0x\(hex16(entry.handle)) names value handle 0x\(hex16(declaration.valueHandle)) past the service end 0x\(hex16(service.endHandle))")))
                }
                // The previous characteristic ends before this declaration, so its value handle must lie below it.
                if let previous = declarations.last, entry.handle <= previous.valueHandle {
                    return .failed(.malformed(GATTMalformedResponse(
                        response: response.name,
                        reason: "characteristic declaration at 0x\(hex16(entry.handle)) lies at or below the value handle 0x\(hex16(previous.valueHandle)) of the one at 0x\(hex16(previous.handle))")))
                }
                declarations.append((entry.handle, declaration.properties, declaration.valueHandle, declaration.uuid))
                progressed = true
                // No declaration can follow a value handle at the service end: asking again would be a wasted round trip.
                guard declaration.valueHandle < service.endHandle,
                      let after = nextHandle(after: entry.handle, end: service.endHandle) else { return .finished(found) }
                next = after
            }
            return progressed ? request() : .finished(found)
        default:
            return unexpected(response)
        }
    }

    private func request() -> GATTStep<[GATTCharacteristic]> {
        .send(.readByType(start: next, end: service.endHandle, type: GATTAttributeType.characteristic))
    }
}
