// CBL2CAPChannel and CBL2CAPPSM: Apple's L2CAP connection-oriented channel types (iOS 11), not yet opened on Linux.
import Foundation

/// An L2CAP Protocol/Service Multiplexer (Apple's `CBL2CAPPSM`, iOS 11): for LE credit based channels a
/// 16-bit value, 0x0001-0x007F fixed and SIG-assigned, 0x0080-0x00FF dynamic (Core v5.4 Vol 3 Part A §4.22,
/// LE Credit Based Connection Request). A peripheral usually publishes its dynamic PSM in the characteristic
/// `CBUUIDL2CAPPSMCharacteristicString`.
public typealias CBL2CAPPSM = UInt16

/// A live L2CAP connection-oriented channel to a peer (Apple's `CBL2CAPChannel`, iOS 11), read and written
/// through its streams.
///
/// Linux: LE credit based channels (Core v5.4 Vol 3 Part A §10.1, §4.22-§4.24) are not implemented in this stack
/// yet, so the manager never opens one: `CBPeripheral.openL2CAPChannel(_:)` always answers
/// `peripheral(_:didOpen:error:)` with a nil channel and `CBError.operationNotSupported`. The type exists so
/// code written for iOS compiles; a channel made with `init()` has nil streams and peer and PSM 0, as an
/// `NSObject`-initialised one on iOS.
open class CBL2CAPChannel: NSObject, @unchecked Sendable {
    private let storedPeer: CBPeer?
    private let storedInputStream: InputStream?
    private let storedOutputStream: OutputStream?
    private let storedPSM: CBL2CAPPSM

    /// An empty channel: nil peer and streams, PSM 0 (what `CBL2CAPChannel()` gives on iOS; for test doubles).
    public override convenience init() {
        self.init(peer: nil, inputStream: nil, outputStream: nil, psm: 0)
    }

    init(peer: CBPeer?, inputStream: InputStream?, outputStream: OutputStream?, psm: CBL2CAPPSM) {
        storedPeer = peer
        storedInputStream = inputStream
        storedOutputStream = outputStream
        storedPSM = psm
        super.init()
    }

    /// The peer at the other end of the channel (the `CBPeripheral` it was opened on).
    open var peer: CBPeer! { storedPeer }
    /// The stream the peer's data (SDUs, reassembled) is read from.
    open var inputStream: InputStream! { storedInputStream }
    /// The stream data for the peer is written to.
    open var outputStream: OutputStream! { storedOutputStream }
    /// The PSM the channel was opened on.
    open var psm: CBL2CAPPSM { storedPSM }
}
