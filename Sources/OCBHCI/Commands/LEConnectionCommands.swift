// Connection set-up and tear-down commands: LE Create Connection (legacy and extended), Cancel, Disconnect.

import OCBCore

/// HCI LE Create Connection (Core v5.4 Vol 4 Part E §7.8.12); answered by Command Status, completed by
/// LE (Enhanced) Connection Complete.
///
/// Layout (25 bytes): LE_Scan_Interval (2), LE_Scan_Window (2) in 0.625 ms units, Initiator_Filter_Policy (1),
/// Peer_Address_Type (1), Peer_Address (6), Own_Address_Type (1), then ``LEConnectionParameters`` (12).
public struct HCILECreateConnection: HCICommand {
    /// 0x200D (OGF 0x08 LE Controller, OCF 0x000D).
    public static let opcode = HCIOpcode.leCreateConnection
    /// LE_Scan_Interval, 0.625 ms units.
    public var scanInterval: UInt16
    /// LE_Scan_Window, 0.625 ms units.
    public var scanWindow: UInt16
    /// Initiator_Filter_Policy: false uses the peer address, true the Filter Accept List.
    public var useFilterAcceptList: Bool
    /// Peer_Address_Type (public, random, or their identity forms).
    public var peerAddressType: AddressType
    /// Peer_Address.
    public var peerAddress: BluetoothAddress
    /// Own_Address_Type.
    public var ownAddressType: LEOwnAddressType
    /// The connection parameters.
    public var connection: LEConnectionParameters
    /// Makes the command (defaults: 60 ms scan window every 60 ms).
    public init(peerAddressType: AddressType, peerAddress: BluetoothAddress, ownAddressType: LEOwnAddressType = .public,
                connection: LEConnectionParameters = LEConnectionParameters(), scanInterval: UInt16 = 0x0060,
                scanWindow: UInt16 = 0x0060, useFilterAcceptList: Bool = false) {
        self.scanInterval = scanInterval
        self.scanWindow = scanWindow
        self.useFilterAcceptList = useFilterAcceptList
        self.peerAddressType = peerAddressType
        self.peerAddress = peerAddress
        self.ownAddressType = ownAddressType
        self.connection = connection
    }
    /// The 25 bytes in the order of the layout above, multi-byte fields little-endian.
    public var parameters: [UInt8] {
        var writer = ByteWriter(capacity: 25)
        writer.write(scanInterval)
        writer.write(scanWindow)
        writer.write(UInt8(useFilterAcceptList ? 1 : 0))
        writer.write(peerAddressType.rawValue)
        writer.write(peerAddress)
        writer.write(ownAddressType.rawValue)
        connection.write(to: &writer)
        return writer.bytes
    }
}

/// Per-PHY initiating settings of LE Extended Create Connection (Core v5.4 Vol 4 Part E §7.8.66):
/// Scan_Interval (2), Scan_Window (2) in 0.625 ms units, then ``LEConnectionParameters`` (12).
public struct LEInitiatingPHYParameters: Hashable, Sendable {
    /// Scan_Interval, 0.625 ms units.
    public var scanInterval: UInt16
    /// Scan_Window, 0.625 ms units.
    public var scanWindow: UInt16
    /// The connection parameters.
    public var connection: LEConnectionParameters
    /// Makes the settings.
    public init(scanInterval: UInt16 = 0x0060, scanWindow: UInt16 = 0x0060, connection: LEConnectionParameters = LEConnectionParameters()) {
        self.scanInterval = scanInterval
        self.scanWindow = scanWindow
        self.connection = connection
    }
}

/// HCI LE Extended Create Connection [v1] (Core v5.4 Vol 4 Part E §7.8.66); answered by Command Status.
///
/// Layout: Initiator_Filter_Policy (1), Own_Address_Type (1), Peer_Address_Type (1), Peer_Address (6),
/// Initiating_PHYs (1: bit 0 LE 1M, bit 1 LE 2M, bit 2 LE Coded), then for each PHY set, in bit order,
/// ``LEInitiatingPHYParameters`` (16 bytes).
public struct HCILEExtendedCreateConnection: HCICommand {
    /// 0x2043 (OGF 0x08 LE Controller, OCF 0x0043).
    public static let opcode = HCIOpcode.leExtendedCreateConnection
    /// Initiator_Filter_Policy: false uses the peer address, true the Filter Accept List.
    public var useFilterAcceptList: Bool
    /// Own_Address_Type.
    public var ownAddressType: LEOwnAddressType
    /// Peer_Address_Type.
    public var peerAddressType: AddressType
    /// Peer_Address.
    public var peerAddress: BluetoothAddress
    /// Settings for LE 1M, or nil.
    public var le1M: LEInitiatingPHYParameters?
    /// Settings for LE 2M, or nil (2M cannot be the only PHY: it has no primary advertising channel).
    public var le2M: LEInitiatingPHYParameters?
    /// Settings for LE Coded, or nil.
    public var leCoded: LEInitiatingPHYParameters?
    /// Makes the command.
    public init(peerAddressType: AddressType, peerAddress: BluetoothAddress, ownAddressType: LEOwnAddressType = .public,
                le1M: LEInitiatingPHYParameters? = LEInitiatingPHYParameters(), le2M: LEInitiatingPHYParameters? = nil,
                leCoded: LEInitiatingPHYParameters? = nil, useFilterAcceptList: Bool = false) {
        self.useFilterAcceptList = useFilterAcceptList
        self.ownAddressType = ownAddressType
        self.peerAddressType = peerAddressType
        self.peerAddress = peerAddress
        self.le1M = le1M
        self.le2M = le2M
        self.leCoded = leCoded
    }
    /// 10 + 16 × (PHYs given) bytes, 26 to 58, in the order of the layout above; Initiating_PHYs has a bit for each
    /// non-nil PHY. Giving no PHY encodes Initiating_PHYs 0, which the controller rejects (0x12).
    public var parameters: [UInt8] {
        var writer = ByteWriter(capacity: 58)
        writer.write(UInt8(useFilterAcceptList ? 1 : 0))
        writer.write(ownAddressType.rawValue)
        writer.write(peerAddressType.rawValue)
        writer.write(peerAddress)
        var phys: LEPHYSet = []
        if le1M != nil { phys.insert(.le1M) }
        if le2M != nil { phys.insert(.le2M) }
        if leCoded != nil { phys.insert(.leCoded) }
        writer.write(phys.rawValue)
        for settings in [le1M, le2M, leCoded].compactMap({ $0 }) {
            writer.write(settings.scanInterval)
            writer.write(settings.scanWindow)
            settings.connection.write(to: &writer)
        }
        return writer.bytes
    }
}

/// HCI LE Create Connection Cancel (Core v5.4 Vol 4 Part E §7.8.13): no parameters; Status only. On success the
/// controller then sends LE (Enhanced) Connection Complete with status 0x02 Unknown Connection Identifier.
public struct HCILECreateConnectionCancel: HCICommand {
    /// 0x200E (OGF 0x08 LE Controller, OCF 0x000E).
    public static let opcode = HCIOpcode.leCreateConnectionCancel
    /// Makes the command.
    public init() {}
    /// No parameter bytes.
    public var parameters: [UInt8] { [] }
}

/// HCI Disconnect (Core v5.4 Vol 4 Part E §7.1.6): Connection_Handle (2), Reason (1); answered by Command Status,
/// completed by Disconnection Complete.
public struct HCIDisconnect: HCICommand {
    /// 0x0406 (OGF 0x01 Link Control, OCF 0x0006).
    public static let opcode = HCIOpcode.disconnect
    /// Connection_Handle (12 bits).
    public var handle: ConnectionHandle
    /// Reason: usually 0x13 Remote User Terminated Connection (0x05, 0x13-0x15, 0x1A, 0x29, 0x3B allowed).
    public var reason: HCIErrorCode
    /// Makes the command.
    public init(handle: ConnectionHandle, reason: HCIErrorCode = .remoteUserTerminatedConnection) {
        self.handle = handle
        self.reason = reason
    }
    /// The 3 bytes: Connection_Handle (little-endian, cut to 12 bits), Reason.
    public var parameters: [UInt8] {
        var writer = ByteWriter(capacity: 3)
        writer.write(handle)
        writer.write(reason.rawValue)
        return writer.bytes
    }
}
