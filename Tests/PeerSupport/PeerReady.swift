// The parsed `READY {json}` line of Tests/Peer/peer.py: controller ports and the peer devices it simulates.
import Foundation

/// The data the virtual peer announces on its `READY {json}` line (see Tests/Peer/README.md).
///
/// Shape: `{"controllers":[{"index","port","host","publicAddress","extended"}],
/// "peers":[{"name","address","addressType","role","connectable","rssi","advertisingData","scanResponseData","intervalMs"}],
/// "pid"}`. Addresses are "AA:BB:CC:DD:EE:FF" (most significant byte first); advertising data is lowercase hex.
public struct PeerReady: Decodable, Sendable, Equatable {
    /// One host-facing controller, served as H4 over TCP.
    public struct Controller: Decodable, Sendable, Equatable {
        /// Position in the peer's controller list (0-based, the index control lines take).
        public let index: Int
        /// TCP port on `host` speaking raw H4 (0x01 command, 0x02 ACL, 0x04 event).
        public let port: UInt16
        /// Always "127.0.0.1".
        public let host: String
        /// The controller's BD_ADDR (HCI_Read_BD_ADDR), "0C:B0:00:00:00:0N" for index N-1.
        public let publicAddress: String
        /// Whether the controller offers LE extended advertising/scanning (false for `--legacy-only` indices).
        public let extended: Bool
    }

    /// One simulated device on the virtual radio.
    public struct Peer: Decodable, Sendable, Equatable {
        /// "alpha", "bravo" (peripherals), "ibeacon", "eddystone" (beacons); "extended" (a beacon) with `--extended-beacon`;
        /// "charlie" (role "secure") with `--security`.
        public let name: String
        /// Random static address, "C1:A0:00:00:00:01" style.
        public let address: String
        /// Always "random".
        public let addressType: String
        /// "peripheral" or "beacon".
        public let role: String
        /// True for ADV_IND advertisers, false for ADV_NONCONN_IND and the extended beacon.
        public let connectable: Bool
        /// RSSI every report of this device carries, in dBm.
        public let rssi: Int
        /// Advertising data (AD structures) as lowercase hex.
        public let advertisingData: String
        /// Scan response data as lowercase hex; empty for beacons.
        public let scanResponseData: String
        /// Advertising interval in milliseconds.
        public let intervalMs: Int
        /// The identity address of "charlie" (`--security`), which advertises from resolvable private addresses.
        public let identityAddress: String?
        /// The IRK of "charlie", 32 hex digits, most significant octet first.
        public let irk: String?
    }

    /// Host-facing controllers in index order.
    public let controllers: [Controller]
    /// The simulated devices.
    public let peers: [Peer]
    /// The peer process id.
    public let pid: Int32

    /// The peer named `name`, or nil.
    public func peer(named name: String) -> Peer? {
        peers.first { $0.name == name }
    }
}
