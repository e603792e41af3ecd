// Convenience views on parsed advertising data: name, service UUIDs, service and manufacturer data, TX power.
import OCBCore

extension AdvertisingData {
    /// The local name: the Complete Local Name if present, else the Shortened Local Name (first of each).
    public var localName: String? { localNameValue?.string }

    /// The local name's bytes as sent, chosen as for ``localName``.
    public var localNameValue: AdvertisedName? {
        for case .completeLocalName(let name) in structures { return name }
        for case .shortenedLocalName(let name) in structures { return name }
        return nil
    }

    /// True when the name in ``localName`` is the complete one.
    public var isLocalNameComplete: Bool {
        structures.contains { if case .completeLocalName = $0 { true } else { false } }
    }

    /// Every advertised service UUID of every width, complete and incomplete lists, in order, without duplicates.
    public var serviceUUIDs: [BluetoothUUID] {
        var result: [BluetoothUUID] = []
        for structure in structures {
            switch structure {
            case .incompleteServiceUUIDs16(let uuids), .completeServiceUUIDs16(let uuids),
                 .incompleteServiceUUIDs32(let uuids), .completeServiceUUIDs32(let uuids),
                 .incompleteServiceUUIDs128(let uuids), .completeServiceUUIDs128(let uuids):
                result.appendUnique(uuids)
            default: break
            }
        }
        return result
    }

    /// Every solicited service UUID (16-, 32-, 128-bit lists), in order, without duplicates.
    public var solicitedServiceUUIDs: [BluetoothUUID] {
        var result: [BluetoothUUID] = []
        for structure in structures {
            switch structure {
            case .serviceSolicitationUUIDs16(let uuids), .serviceSolicitationUUIDs32(let uuids), .serviceSolicitationUUIDs128(let uuids):
                result.appendUnique(uuids)
            default: break
            }
        }
        return result
    }

    /// Service data of every width, in order (a UUID may appear more than once).
    public var serviceDataList: [ServiceData] {
        structures.compactMap {
            switch $0 {
            case .serviceData16(let service), .serviceData32(let service), .serviceData128(let service): service
            default: nil
            }
        }
    }

    /// Service data by UUID; when a UUID appears more than once the first wins.
    public var serviceData: [BluetoothUUID: [UInt8]] {
        var result: [BluetoothUUID: [UInt8]] = [:]
        for service in serviceDataList where result[service.uuid] == nil { result[service.uuid] = service.data }
        return result
    }

    /// Every Manufacturer Specific Data structure with a company identifier, in order.
    public var manufacturerData: [ManufacturerData] {
        structures.compactMap { if case .manufacturerSpecificData(let value) = $0 { value } else { nil } }
    }

    /// The TX Power Level in dBm (first one), if sent.
    public var txPowerLevel: Int8? {
        for case .txPowerLevel(let level) in structures { return level }
        return nil
    }

    /// The Flags (first one), if sent.
    public var flags: AdvertisingFlags? {
        for case .flags(let flags) in structures { return flags }
        return nil
    }

    /// The Appearance value (first one), if sent.
    public var appearance: UInt16? {
        for case .appearance(let value) in structures { return value }
        return nil
    }
}

extension Array where Element == BluetoothUUID {
    mutating func appendUnique(_ uuids: [BluetoothUUID]) {
        for uuid in uuids where !contains(uuid) { append(uuid) }
    }
}
