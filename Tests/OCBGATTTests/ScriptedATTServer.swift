// Test helper: a tiny ATT server over a table of attributes that answers discovery, read and write requests as the spec says.
import OCBCore
import OCBATT
@testable import OCBGATT

/// An attribute table answering ATT requests per Core v5.4 Vol 3 Part F §3.4 and counting the requests.
final class ScriptedATTServer {
    struct Attribute {
        var handle: AttributeHandle
        var type: BluetoothUUID
        var value: [UInt8]
    }

    var attributes: [Attribute] = []
    var mtu = 23
    private(set) var requestCount = 0
    /// When set, answers a request instead of the database (nil: the database answers).
    var misbehave: (([UInt8]) -> [UInt8]?)?

    /// Adds a service declaration, its includes (start, end, 16-bit UUID or nil) and characteristics
    /// (properties, UUID, descriptor UUIDs), handles assigned in order from `start`. Returns the service's end handle.
    @discardableResult
    func addService(_ uuid: BluetoothUUID, primary: Bool = true, at start: AttributeHandle,
                    includes: [(AttributeHandle, AttributeHandle, BluetoothUUID?)] = [],
                    characteristics: [(UInt8, BluetoothUUID, [BluetoothUUID])]) -> AttributeHandle {
        var handle = start
        attributes.append(Attribute(handle: handle, type: BluetoothUUID(primary ? 0x2800 : 0x2801), value: uuid.littleEndianBytes))
        for include in includes {
            handle += 1
            var writer = ByteWriter()
            writer.write(include.0)
            writer.write(include.1)
            if let uuid = include.2 { writer.write(uuid) }
            attributes.append(Attribute(handle: handle, type: BluetoothUUID(0x2802), value: writer.bytes))
        }
        for characteristic in characteristics {
            handle += 1
            var writer = ByteWriter()
            writer.write(characteristic.0)
            writer.write(handle + 1)
            writer.write(characteristic.1)
            attributes.append(Attribute(handle: handle, type: BluetoothUUID(0x2803), value: writer.bytes))
            handle += 1
            attributes.append(Attribute(handle: handle, type: characteristic.1, value: [UInt8(truncatingIfNeeded: handle.rawValue)]))
            for descriptor in characteristic.2 {
                handle += 1
                attributes.append(Attribute(handle: handle, type: descriptor, value: [0, 0]))
            }
        }
        attributes.sort { $0.handle < $1.handle }
        return handle
    }

    /// The End Group Handle (the group's last attribute) of the group that starts at the service declaration `handle`.
    func groupEnd(_ handle: AttributeHandle) -> AttributeHandle {
        let next = attributes.first { $0.handle > handle && ($0.type == BluetoothUUID(0x2800) || $0.type == BluetoothUUID(0x2801)) }
        // The last attribute of the group: the one before the next service declaration.
        return attributes.last { $0.handle < (next?.handle ?? 0xFFFF) || next == nil }?.handle ?? handle
    }

    func error(_ request: ATTOpcode, _ handle: AttributeHandle, _ code: ATTError) -> [UInt8] {
        ATTErrorResponse(requestOpcode: request, attributeHandle: handle, error: code).bytes
    }

    /// The response to one request PDU.
    func answer(_ pdu: [UInt8]) -> [UInt8] {
        requestCount += 1
        guard let request = try? ATTPDU(bytes: pdu) else { return error(ATTOpcode(rawValue: pdu.first ?? 0), 0, .invalidPDU) }
        switch request {
        case .readByGroupTypeRequest(let r):
            let found = attributes.filter { $0.handle >= r.startingHandle && $0.handle <= r.endingHandle && $0.type == r.attributeGroupType }
            guard let first = found.first else { return error(.readByGroupTypeRequest, r.startingHandle, .attributeNotFound) }
            let size = 4 + first.value.count
            let entries = found.prefix { $0.value.count == first.value.count }.prefix((mtu - 2) / size)
            return ATTReadByGroupTypeResponse(attributeDataList: entries.map {
                .init(attributeHandle: $0.handle, endGroupHandle: groupEnd($0.handle), attributeValue: $0.value)
            })?.bytes ?? []
        case .findByTypeValueRequest(let r):
            let found = attributes.filter { $0.handle >= r.startingHandle && $0.handle <= r.endingHandle
                && $0.type == BluetoothUUID(r.attributeType) && $0.value == r.attributeValue }
            guard !found.isEmpty else { return error(.findByTypeValueRequest, r.startingHandle, .attributeNotFound) }
            return ATTFindByTypeValueResponse(handlesInformationList: found.prefix((mtu - 1) / 4).map {
                .init(foundAttributeHandle: $0.handle, groupEndHandle: groupEnd($0.handle))
            }).bytes
        case .readByTypeRequest(let r):
            let found = attributes.filter { $0.handle >= r.startingHandle && $0.handle <= r.endingHandle && $0.type == r.attributeType }
            guard let first = found.first else { return error(.readByTypeRequest, r.startingHandle, .attributeNotFound) }
            let size = 2 + first.value.count
            let entries = found.prefix { $0.value.count == first.value.count }.prefix((mtu - 2) / size)
            return ATTReadByTypeResponse(attributeDataList: entries.map { .init(attributeHandle: $0.handle, attributeValue: $0.value) })?.bytes ?? []
        case .findInformationRequest(let r):
            let found = attributes.filter { $0.handle >= r.startingHandle && $0.handle <= r.endingHandle }
            guard let first = found.first else { return error(.findInformationRequest, r.startingHandle, .attributeNotFound) }
            let short = first.type.uuid16 != nil
            let entries = found.prefix { ($0.type.uuid16 != nil) == short }.prefix((mtu - 2) / (short ? 4 : 18))
            return ATTFindInformationResponse(format: short ? .uuid16 : .uuid128,
                                              entries: entries.map { .init(handle: $0.handle, uuid: $0.type) })?.bytes ?? []
        case .readRequest(let r):
            guard let attribute = attributes.first(where: { $0.handle == r.attributeHandle }) else {
                return error(.readRequest, r.attributeHandle, .invalidHandle)
            }
            return ATTReadResponse(attributeValue: Array(attribute.value.prefix(mtu - 1))).bytes
        case .writeRequest(let r):
            guard let index = attributes.firstIndex(where: { $0.handle == r.attributeHandle }) else {
                return error(.writeRequest, r.attributeHandle, .invalidHandle)
            }
            attributes[index].value = r.attributeValue
            return ATTWriteResponse().bytes
        default:
            return error(ATTOpcode(rawValue: pdu.first ?? 0), 0, .requestNotSupported)
        }
    }

    /// Answers everything the client sends until it is quiet, over the client's ATT bearer (the production wiring,
    /// ``Wiring``): requests come from the bearer's send events, answers go to the bearer.
    func serve(_ client: GATTClient) {
        var sent = pendingSent(client)
        while !sent.isEmpty {
            var next: [[UInt8]] = []
            for pdu in sent where ATTOpcode(rawValue: pdu.first ?? 0).kind == .request {
                next += Wiring.shared.run(client, feed: misbehave?(pdu) ?? answer(pdu))
            }
            sent = next
        }
    }
}
