// Reads what one ATT response, paired with its request, reveals of the peer's database.

import OCBATT
import OCBCore
import OCBGATT

/// Applies a response to the database being built, knowing the request it answers.
enum StoryResponseReader {
    static let primaryService = BluetoothUUID(0x2800)
    static let secondaryService = BluetoothUUID(0x2801)
    static let include = BluetoothUUID(0x2802)
    static let characteristic = BluetoothUUID(0x2803)

    static func apply(_ response: ATTPDU, answering request: ATTPDU, to peer: inout PeerDatabaseBuilder) {
        switch (request, response) {
        case let (.readByGroupTypeRequest(asked), .readByGroupTypeResponse(answer)):
            guard asked.attributeGroupType == primaryService || asked.attributeGroupType == secondaryService else { return }
            for entry in answer.attributeDataList {
                // Service UUIDs are 2 or 16 octets (Core v5.4 Vol 3 Part G §3.1), decoded as the GATT client decodes them.
                guard let uuid = try? GATTDeclarationValue.serviceUUID(entry.attributeValue, handle: entry.attributeHandle,
                                                                      response: "Read By Group Type Response") else { continue }
                peer.services.insert(GATTService(uuid: uuid, isPrimary: asked.attributeGroupType == primaryService,
                                                 startHandle: entry.attributeHandle, endHandle: entry.endGroupHandle))
            }
        case let (.findByTypeValueRequest(asked), .findByTypeValueResponse(answer)):
            guard asked.attributeType == 0x2800 || asked.attributeType == 0x2801 else { return }
            var reader = ByteReader(asked.attributeValue)
            guard let uuid = try? reader.readUUID(width: asked.attributeValue.count) else { return }
            for found in answer.handlesInformationList {
                peer.services.insert(GATTService(uuid: uuid, isPrimary: asked.attributeType == 0x2800,
                                                 startHandle: found.foundAttributeHandle, endHandle: found.groupEndHandle))
            }
        case let (.readByTypeRequest(asked), .readByTypeResponse(answer)):
            for entry in answer.attributeDataList {
                if asked.attributeType == characteristic {
                    // Properties (1), Characteristic Value Handle (2), UUID (2 or 16) (Vol 3 Part G §3.3.1), decoded as
                    // the GATT client decodes them; its end is known once the database is assembled.
                    guard let declaration = try? GATTDeclarationValue.characteristic(entry.attributeValue, handle: entry.attributeHandle,
                                                                                    response: "Read By Type Response") else { continue }
                    peer.characteristics.insert(GATTCharacteristic(
                        declarationHandle: entry.attributeHandle, valueHandle: declaration.valueHandle, endHandle: declaration.valueHandle,
                        properties: declaration.properties, uuid: declaration.uuid))
                } else if asked.attributeType == include {
                    // Included Service Attribute Handle (2), End Group Handle (2), UUID16 (2, only for 16-bit) (§3.2).
                    guard let declaration = try? GATTDeclarationValue.include(entry.attributeValue, handle: entry.attributeHandle,
                                                                             response: "Read By Type Response") else { continue }
                    peer.includes[entry.attributeHandle] = GATTTreeInclude(handle: entry.attributeHandle, startHandle: declaration.start,
                                                                          endHandle: declaration.end, uuid: declaration.uuid)
                } else {
                    peer.setValue(entry.attributeHandle, entry.attributeValue)
                }
            }
        case let (.findInformationRequest, .findInformationResponse(answer)):
            for entry in answer.entries { peer.descriptorCandidates[entry.handle] = entry.uuid }
        case let (.readRequest(asked), .readResponse(answer)):
            peer.setValue(asked.attributeHandle, answer.attributeValue)
        case let (.readBlobRequest(asked), .readBlobResponse(answer)):
            peer.setValue(asked.attributeHandle, answer.partAttributeValue, offset: Int(asked.valueOffset))
        default:
            break
        }
    }
}
