// A device found by a scan: its address, signal, and one shared record of its connectability and merged advertising and scan-response data.

import Synchronization

/// A discovery the host reports while scanning.
///
/// `advertisingData` and `scanResponseData` are the raw AD structures (Core v5.4 Vol 3 Part C §11);
/// ``mergedData`` is both concatenated, advertising first, which is what the facade parses into
/// advertisement data (a field present in both is read from the advertising data first).
///
/// What was advertised lives in one immutable, shared object (``Payload``): a copy of the value costs one reference,
/// and the scan merger hands an advertiser's same object on while its data repeats, so the layers above can tell an
/// unchanged advertisement by identity and keep it without allocating. Setting a field makes a new object.
public struct DiscoveredDevice: Sendable, Hashable {
    /// Who advertised.
    public var peer: PeerAddress
    /// Signal strength of the latest PDU in dBm; nil when the controller gave 127 (unavailable).
    public var rssi: Int8?
    /// TX power in dBm from an extended report; nil when unavailable.
    public var txPower: Int8?
    /// The advertised content, shared.
    package private(set) var payload: Payload

    /// What an advertiser sent, as one immutable object: connectability, truncation and the AD bytes of the
    /// advertisement and of its scan response. Two are equal when their contents are.
    package final class Payload: Sendable, Hashable {
        /// True when the advertising PDU was connectable.
        package let isConnectable: Bool
        /// True when the advertising data is what came of a chain the controller could not receive whole.
        package let isTruncated: Bool
        /// The advertising data (AD structures).
        package let advertisingData: [UInt8]
        /// The scan response data; nil when none arrived.
        package let scanResponseData: [UInt8]?
        /// This object's number, unique in the process (one more for each object made): a layer that wants to know
        /// whether a later discovery carries this same object without keeping it (and so without being the one that
        /// frees it, on another thread than the reader's that made it) keeps the number. Equal numbers mean the same
        /// object, so the same content; an equal content may come in another object (another number). (Freed by whoever
        /// lets it go last: the reader, when the merger still holds it after the layers above are done with it.)
        package let serial: UInt64

        /// The numbers given so far.
        private static let serials = Atomic<UInt64>(0)

        /// Makes the object.
        package init(isConnectable: Bool, isTruncated: Bool, advertisingData: [UInt8], scanResponseData: [UInt8]?) {
            self.isConnectable = isConnectable
            self.isTruncated = isTruncated
            self.advertisingData = advertisingData
            self.scanResponseData = scanResponseData
            serial = Self.serials.wrappingAdd(1, ordering: .relaxed).newValue
        }

        /// A record of an advertisement of `bytes` (not merged with a scan response, not truncated) made with the array
        /// of `spare`, a record the layers above are done with (``Spares``): `spare` goes first, so when nothing else held
        /// it its array is then this one's alone and the bytes are written into it in place (no array made on the
        /// reader, none freed on the delegate's thread; the record itself is freed and made again on the same thread).
        /// Records never change: an array something else still holds is copied before the write, as any array is.
        package static func reusingArray(of spare: consuming Payload, isConnectable: Bool, advertisingData bytes: ArraySlice<UInt8>) -> Payload {
            var array = spare.advertisingData
            _ = consume spare
            if array.count == bytes.count {
                array.withUnsafeMutableBytes { target in bytes.withUnsafeBytes { source in target.copyMemory(from: source) } }
            } else {
                array.replaceSubrange(array.startIndex..<array.endIndex, with: bytes)
            }
            return Payload(isConnectable: isConnectable, isTruncated: false, advertisingData: array, scanResponseData: nil)
        }

        /// Whether this holds an advertisement of exactly `bytes` (one `memcmp`), not truncated, with no scan response.
        package func holdsAdvertisement(isConnectable: Bool, _ bytes: ArraySlice<UInt8>) -> Bool {
            guard self.isConnectable == isConnectable, !isTruncated, scanResponseData == nil else { return false }
            return advertisingData.withUnsafeBytes { stored in bytes.withUnsafeBytes { received in sameBytes(stored, received) } }
        }

        /// How many bytes of AD data it holds (advertising data and scan response).
        package var byteCount: Int { advertisingData.count + (scanResponseData?.count ?? 0) }

        /// Whether this holds exactly these values (the same arrays are found equal at once, others compared with one
        /// `memcmp` each).
        package func holds(isConnectable: Bool, isTruncated: Bool, advertisingData: [UInt8], scanResponseData: [UInt8]?) -> Bool {
            guard self.isConnectable == isConnectable, self.isTruncated == isTruncated,
                  Self.same(self.advertisingData, advertisingData) else { return false }
            switch (self.scanResponseData, scanResponseData) {
            case (nil, nil): return true
            case (let mine?, let theirs?): return Self.same(mine, theirs)
            default: return false
            }
        }

        /// True when `first` and `second` are the same bytes (``sameBytes(_:_:)``).
        private static func same(_ first: [UInt8], _ second: [UInt8]) -> Bool {
            first.withUnsafeBytes { a in second.withUnsafeBytes { b in sameBytes(a, b) } }
        }

        /// Whether both hold the same values: at once when they are one object, else as ``holds(isConnectable:isTruncated:advertisingData:scanResponseData:)``.
        package func hasSameContent(as other: Payload) -> Bool {
            self === other || holds(isConnectable: other.isConnectable, isTruncated: other.isTruncated,
                                    advertisingData: other.advertisingData, scanResponseData: other.scanResponseData)
        }

        package static func == (lhs: Payload, rhs: Payload) -> Bool { lhs.hasSameContent(as: rhs) }

        package func hash(into hasher: inout Hasher) {
            hasher.combine(isConnectable)
            hasher.combine(isTruncated)
            hasher.combine(advertisingData)
            hasher.combine(scanResponseData)
        }
    }

    /// True when the advertising PDU was connectable.
    public var isConnectable: Bool {
        get { payload.isConnectable }
        set { change(isConnectable: newValue) }
    }
    /// The advertising data (AD structures).
    public var advertisingData: [UInt8] {
        get { payload.advertisingData }
        set { change(advertisingData: newValue) }
    }
    /// The scan response data; nil when none arrived (passive scan, non-scannable advertiser, or the wait ran out).
    public var scanResponseData: [UInt8]? {
        get { payload.scanResponseData }
        set { change(scanResponseData: .some(newValue)) }
    }
    /// True when the advertising data is what came of a chain the controller could not receive whole (see
    /// ``AdvertisingObservation/isTruncated``).
    public var isTruncated: Bool {
        get { payload.isTruncated }
        set { change(isTruncated: newValue) }
    }

    /// Makes the value.
    public init(peer: PeerAddress, rssi: Int8?, txPower: Int8? = nil, isConnectable: Bool,
                advertisingData: [UInt8], scanResponseData: [UInt8]?) {
        self.init(peer: peer, rssi: rssi, txPower: txPower,
                  payload: Payload(isConnectable: isConnectable, isTruncated: false, advertisingData: advertisingData,
                                   scanResponseData: scanResponseData))
    }

    /// Makes the value around a shared ``Payload``.
    package init(peer: PeerAddress, rssi: Int8?, txPower: Int8?, payload: Payload) {
        self.peer = peer
        self.rssi = rssi
        self.txPower = txPower
        self.payload = payload
    }

    /// Replaces ``payload`` with one that differs in the given fields.
    private mutating func change(isConnectable: Bool? = nil, isTruncated: Bool? = nil, advertisingData: [UInt8]? = nil,
                                 scanResponseData: [UInt8]?? = nil) {
        payload = Payload(isConnectable: isConnectable ?? payload.isConnectable, isTruncated: isTruncated ?? payload.isTruncated,
                          advertisingData: advertisingData ?? payload.advertisingData,
                          scanResponseData: scanResponseData ?? payload.scanResponseData)
    }

    /// Advertising data followed by scan response data.
    public var mergedData: [UInt8] { advertisingData + (scanResponseData ?? []) }
}
