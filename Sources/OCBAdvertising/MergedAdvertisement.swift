// Advertising data and scan response of one device seen as one advertisement.
import OCBCore

/// Advertising data and the scan response that answered it, as one view (Core v5.4 Vol 3 Part C §11: both carry
/// AD structures in the same format).
///
/// Rules for what both carry:
/// - Lists are united in order, advertising data first, without duplicates: ``serviceUUIDs``, ``solicitedServiceUUIDs``.
///   Manufacturer data is concatenated (advertising data first).
/// - Local name: a Complete Local Name beats a Shortened one wherever it is; between two of the same kind the
///   scan response wins (devices put the long name there).
/// - Single values (``txPowerLevel``, ``flags``, ``appearance``) and service data for a UUID present in both:
///   the advertising data wins, the scan response fills gaps. (Flags are not allowed in a scan response at all.)
/// - Both raw payloads stay available, apart, in ``advertisingData`` and ``scanResponse``.
public struct MergedAdvertisement: Hashable, Sendable {
    /// The advertising data (from ADV_IND, ADV_SCAN_IND, ADV_NONCONN_IND or an extended advertisement).
    public let advertisingData: AdvertisingData
    /// The scan response data (SCAN_RSP), if one came.
    public let scanResponse: AdvertisingData?

    /// Makes the view.
    public init(advertisingData: AdvertisingData, scanResponse: AdvertisingData? = nil) {
        self.advertisingData = advertisingData
        self.scanResponse = scanResponse
    }

    private var parts: [AdvertisingData] { [advertisingData] + (scanResponse.map { [$0] } ?? []) }

    /// The local name by the rules above.
    public var localName: String? {
        let response = scanResponse
        if let response, response.isLocalNameComplete { return response.localName }
        if advertisingData.isLocalNameComplete { return advertisingData.localName }
        return response?.localName ?? advertisingData.localName
    }

    /// Service UUIDs of both, united in order.
    public var serviceUUIDs: [BluetoothUUID] {
        var result: [BluetoothUUID] = []
        for part in parts { result.appendUnique(part.serviceUUIDs) }
        return result
    }

    /// Solicited service UUIDs of both, united in order.
    public var solicitedServiceUUIDs: [BluetoothUUID] {
        var result: [BluetoothUUID] = []
        for part in parts { result.appendUnique(part.solicitedServiceUUIDs) }
        return result
    }

    /// Service data of both by UUID; the advertising data wins for a UUID in both.
    public var serviceData: [BluetoothUUID: [UInt8]] {
        advertisingData.serviceData.merging(scanResponse?.serviceData ?? [:]) { first, _ in first }
    }

    /// Manufacturer data of both, advertising data first.
    public var manufacturerData: [ManufacturerData] { parts.flatMap(\.manufacturerData) }

    /// TX power in dBm, advertising data first.
    public var txPowerLevel: Int8? { advertisingData.txPowerLevel ?? scanResponse?.txPowerLevel }

    /// Flags, advertising data first.
    public var flags: AdvertisingFlags? { advertisingData.flags ?? scanResponse?.flags }

    /// Appearance, advertising data first.
    public var appearance: UInt16? { advertisingData.appearance ?? scanResponse?.appearance }

    /// Every structure, advertising data's then the scan response's.
    public var structures: [AdvertisingStructure] { parts.flatMap(\.structures) }
}
