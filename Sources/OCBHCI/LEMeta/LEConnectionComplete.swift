// LE Connection Complete and LE Enhanced Connection Complete (v1, v2) as one value.

import OCBCore

/// A new LE connection, or a failed attempt (Core v5.4 Vol 4 Part E §7.7.65.1, §7.7.65.10 v1 and v2).
///
/// Layout: Status (1), Connection_Handle (2), Role (1: 0x00 Central, 0x01 Peripheral), Peer_Address_Type (1),
/// Peer_Address (6), [enhanced: Local_Resolvable_Private_Address (6), Peer_Resolvable_Private_Address (6)],
/// Connection_Interval (2, 1.25 ms), Peripheral_Latency (2, events), Supervision_Timeout (2, 10 ms),
/// Central_Clock_Accuracy (1: 0x00 500 ppm ... 0x07 20 ppm), [v2: Advertising_Handle (1), Sync_Handle (2)].
/// A status of 0x02 after LE Create Connection Cancel reports the cancelled attempt.
public struct LEConnectionComplete: Hashable, Sendable {
    /// Which of the three subevents carried the values.
    public enum Version: Hashable, Sendable {
        /// 0x01 LE Connection Complete.
        case legacy
        /// 0x0A LE Enhanced Connection Complete [v1].
        case enhancedV1
        /// 0x29 LE Enhanced Connection Complete [v2].
        case enhancedV2
    }

    /// The subevent that carried this.
    public var version: Version
    /// Status (0x00: connected).
    public var status: HCIErrorCode
    /// Connection_Handle.
    public var handle: ConnectionHandle
    /// Role byte: 0x00 Central, 0x01 Peripheral.
    public var role: UInt8
    /// Peer_Address_Type (0x02/0x03 when the controller resolved the peer's RPA).
    public var peerAddressType: AddressType
    /// Peer_Address (the identity address when resolved).
    public var peerAddress: BluetoothAddress
    /// Local_Resolvable_Private_Address (enhanced only; all zero when unused).
    public var localResolvablePrivateAddress: BluetoothAddress?
    /// Peer_Resolvable_Private_Address (enhanced only; all zero when unused).
    public var peerResolvablePrivateAddress: BluetoothAddress?
    /// Connection_Interval, 1.25 ms units.
    public var connectionInterval: UInt16
    /// Peripheral_Latency, connection events.
    public var peripheralLatency: UInt16
    /// Supervision_Timeout, 10 ms units.
    public var supervisionTimeout: UInt16
    /// Central_Clock_Accuracy code.
    public var centralClockAccuracy: UInt8
    /// Advertising_Handle (v2 only; 0xFF when not from an advertising set).
    public var advertisingHandle: UInt8?
    /// Sync_Handle (v2 only; 0xFFFF when not from PAwR).
    public var syncHandle: UInt16?

    /// True when Role is Central.
    /// Makes the value from its fields.
    public init(version: Version, status: HCIErrorCode, handle: ConnectionHandle, role: UInt8, peerAddressType: AddressType, peerAddress: BluetoothAddress, localResolvablePrivateAddress: BluetoothAddress?, peerResolvablePrivateAddress: BluetoothAddress?, connectionInterval: UInt16, peripheralLatency: UInt16, supervisionTimeout: UInt16, centralClockAccuracy: UInt8, advertisingHandle: UInt8?, syncHandle: UInt16?) {
        self.version = version
        self.status = status
        self.handle = handle
        self.role = role
        self.peerAddressType = peerAddressType
        self.peerAddress = peerAddress
        self.localResolvablePrivateAddress = localResolvablePrivateAddress
        self.peerResolvablePrivateAddress = peerResolvablePrivateAddress
        self.connectionInterval = connectionInterval
        self.peripheralLatency = peripheralLatency
        self.supervisionTimeout = supervisionTimeout
        self.centralClockAccuracy = centralClockAccuracy
        self.advertisingHandle = advertisingHandle
        self.syncHandle = syncHandle
    }

    /// True when Role is 0x00: the local device is the Central of the new connection.
    public var isCentral: Bool { role == 0x00 }

    static func decode(_ reader: inout FieldReader, version: Version) throws(HCIEventDecodingError) -> Self {
        switch version {
        case .legacy: reader.event = "LE Connection Complete"
        case .enhancedV1: reader.event = "LE Enhanced Connection Complete [v1]"
        case .enhancedV2: reader.event = "LE Enhanced Connection Complete [v2]"
        }
        let status = try reader.status()
        let handle = try reader.handle()
        let role = try reader.u8("Role")
        let peerType = AddressType(rawValue: try reader.u8("Peer_Address_Type"))
        let peer = try reader.address("Peer_Address")
        var localRPA: BluetoothAddress?
        var peerRPA: BluetoothAddress?
        if version != .legacy {
            localRPA = try reader.address("Local_Resolvable_Private_Address")
            peerRPA = try reader.address("Peer_Resolvable_Private_Address")
        }
        let interval = try reader.u16("Connection_Interval")
        let latency = try reader.u16("Peripheral_Latency")
        let timeout = try reader.u16("Supervision_Timeout")
        let accuracy = try reader.u8("Central_Clock_Accuracy")
        var advertisingHandle: UInt8?
        var syncHandle: UInt16?
        if version == .enhancedV2 {
            advertisingHandle = try reader.u8("Advertising_Handle")
            syncHandle = try reader.u16("Sync_Handle")
        }
        return Self(version: version, status: status, handle: handle, role: role, peerAddressType: peerType, peerAddress: peer,
                    localResolvablePrivateAddress: localRPA, peerResolvablePrivateAddress: peerRPA, connectionInterval: interval,
                    peripheralLatency: latency, supervisionTimeout: timeout, centralClockAccuracy: accuracy,
                    advertisingHandle: advertisingHandle, syncHandle: syncHandle)
    }
}
