// Linux-only additions to CBPeripheral and the GATT attribute classes: device addresses, ATT handles and pairing for tools.
package import OCBCore
package import OCBHost

// These are OpenCoreBluetooth extensions, not part of Apple's CoreBluetooth: iOS hides addresses and handles
// behind identifiers. Linux tools (cbtool, gateways) need them to name devices the way the radio does.

extension CBPeripheral {
    /// Linux only: the device address as the controller reports it, "C1:A0:00:00:00:01" (most significant byte
    /// first). For a resolvable private address the controller resolved, the identity address. Never nil here; optional
    /// so code written for a platform without it stays the same.
    public var address: String? { peer.address.description }

    /// Linux only: the address type of ``address``: "public", "random", "public identity" or "random identity"
    /// (Core v5.4 Vol 4 Part E §7.7.65.2 Peer_Address_Type).
    public var addressType: String? { peer.type.description }

    /// Linux only: how many notification and indication values of this peripheral were dropped because the delegate
    /// queue already held `CBCentralManager`'s bound of 1,024 undelivered values (a slow delegate); 0 while the
    /// delegate keeps up. Counts since the peripheral object was made; never reset.
    public var droppedNotificationCount: Int { lock.run { storedDroppedNotifications } }

    /// Linux only: the identity address of a bonded device ("C1:C3:00:00:00:01"; Core v5.4 Vol 3 Part H §3.6.5), which
    /// can differ from ``address`` for a device that rotates private addresses; nil when not bonded.
    public var identityAddress: String? {
        guard let manager else { return nil }
        return manager.lock.run { manager.bondedPeers.first { $0.known == peer }?.identity.description }
    }

    /// Linux only: pairs with the peripheral, or encrypts the link with the bond's key when it is bonded (Core v5.4
    /// Vol 3 Part H): Just Works (this side has no display or keyboard), LE Secure Connections when the peer supports
    /// it, legacy pairing otherwise; the keys are stored as a bond (`bonds/CONTROLLER/PEER.json` under the state
    /// directory, ``CBCentralManagerOptionStateDirectoryKey``). Answers
    /// ``CBPeripheralDelegate/peripheral(_:didCompletePairingWithError:)``. Apps written for iOS need not call it: a
    /// request answered Insufficient Authentication or Encryption pairs by itself and is sent again, as on iOS.
    /// Not connected: answered with `CBError.notConnected`. In kernel mode (`hciN`) not yet supported.
    public func pair() {
        enqueue(.pair) { nil }
    }

    /// Linux only: true once the link is encrypted (after ``pair()`` or a pairing a request started); false when not
    /// connected or not encrypted.
    public var isEncrypted: Bool { lock.run { storedState == .connected && storedSecurity.encrypted } }

    /// Linux only: true when the link's key is a stored bond's (re-encrypted with it, or bonded by this pairing).
    public var isBonded: Bool { lock.run { storedState == .connected && storedSecurity.bonded } }

    /// The link's security as this package's value type (for cbtool's description of it).
    package var linkSecurity: LinkSecurity { lock.run { storedSecurity } }

    /// The device address as this package's value type (for cbtool; ``address`` is the public form).
    package var bluetoothAddress: BluetoothAddress { peer.address }
}

extension CBService {
    /// Linux only: the service's attribute handles, its declaration through its last attribute
    /// (Core v5.4 Vol 3 Part G §3.1; the handle range of Read By Group Type Response, Vol 3 Part F §3.4.4.10).
    public var attributeHandles: ClosedRange<UInt16> { startHandle.rawValue...endHandle.rawValue }
}

extension CBCharacteristic {
    /// Linux only: the handle of the characteristic declaration (type 0x2803, Core v5.4 Vol 3 Part G §3.3.1).
    public var declarationAttributeHandle: UInt16 { declarationHandle.rawValue }
    /// Linux only: the handle of the characteristic value (the handle reads, writes and notifications use).
    public var valueAttributeHandle: UInt16 { valueHandle.rawValue }
    /// Linux only: the declaration handle through the last handle of the characteristic definition (its descriptors).
    public var attributeHandles: ClosedRange<UInt16> { declarationHandle.rawValue...max(declarationHandle, endHandle).rawValue }
}

extension CBDescriptor {
    /// Linux only: the descriptor's attribute handle (Core v5.4 Vol 3 Part G §4.7.1).
    public var attributeHandle: UInt16 { handle.rawValue }
}
