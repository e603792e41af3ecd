// Joins the fragments of extended advertising reports per advertiser and SID following Data Status.

import OCBCore

/// Reassembles LE Extended Advertising Report fragments into whole advertisements (Core v5.4 Vol 4 Part E
/// §7.7.65.13, Data Status; Vol 6 Part B §2.3.4.9 AUX_CHAIN_IND). Sans-I/O: reports in, reports out.
///
/// Fragments are collected per advertiser (address type, address) and Advertising_SID. Data Status 0b01 (more to
/// come) stores the fragment and delivers nothing; 0b00 (complete) delivers the joined data; 0b10 (truncated)
/// delivers the joined data with ``HCIAdvertisingReport/isTruncated`` set. Legacy-PDU reports are delivered
/// at once with their legacy kind. A fragment whose event properties (bits 0-4) or PHYs differ from the pending
/// chain's starts a new chain: the unfinished one is dropped with a ``Diagnostic``. Reserved Data Status 0b11 is
/// treated as truncated. Joined data is capped at ``maximumDataLength`` bytes and the number of unfinished
/// chains at ``maximumPendingChains`` (the oldest is dropped), so a hostile peer cannot grow memory.
public struct ExtendedAdvertisingReassembler: Sendable {
    /// Something the reassembler dropped or corrected.
    public struct Diagnostic: Hashable, Sendable, CustomStringConvertible {
        /// Why.
        public enum Reason: Hashable, Sendable {
            /// A fragment that starts a different chain arrived while one was unfinished; the unfinished one was dropped.
            case newChainStarted
            /// Too many unfinished chains; the oldest was dropped.
            case tooManyPendingChains
            /// The joined data passed ``maximumDataLength``; delivered truncated.
            case dataTooLong
            /// Data Status 0b11 (reserved) was treated as truncated.
            case reservedDataStatus
            /// ``reset()`` dropped an unfinished chain.
            case reset
        }
        /// Why.
        public var reason: Reason
        /// The advertiser's address type.
        public var addressType: AddressType
        /// The advertiser's address.
        public var address: BluetoothAddress
        /// Advertising_SID as received (0xFF when none).
        public var advertisingSID: UInt8
        /// Bytes of the unfinished chain that were dropped (0 when nothing was dropped).
        public var droppedBytes: Int

        public var description: String {
            "extended advertising from \(address) (\(addressType)) SID \(advertisingSID): \(reason), \(droppedBytes) byte(s) dropped"
        }
    }

    /// What one call produced: whole reports to deliver and diagnostics to log.
    public struct Output: Hashable, Sendable {
        /// Reports ready for the Host, in arrival order.
        public var reports: [HCIAdvertisingReport] = []
        /// What was dropped or corrected.
        public var diagnostics: [Diagnostic] = []
    }

    private struct Key: Hashable, Sendable {
        var addressType: UInt8
        var address: BluetoothAddress
        var sid: UInt8
    }

    private struct Chain: Sendable {
        var properties: UInt16
        var primaryPHY: LEPHY
        var secondaryPHY: LEPHY
        var data: [UInt8]
        var order: UInt64
    }

    /// Largest joined data kept, bytes (default 1650, the maximum extended advertising data, Vol 4 Part E §7.8.57).
    public let maximumDataLength: Int
    /// Most unfinished chains kept at once.
    public let maximumPendingChains: Int
    private var chains: [Key: Chain] = [:]
    private var counter: UInt64 = 0

    /// Makes an empty reassembler.
    public init(maximumDataLength: Int = 1650, maximumPendingChains: Int = 64) {
        self.maximumDataLength = max(0, maximumDataLength)
        self.maximumPendingChains = max(1, maximumPendingChains)
    }

    /// Number of unfinished chains held.
    public var pendingChainCount: Int { chains.count }

    /// Drops every unfinished chain (call when scanning stops), reporting each.
    public mutating func reset() -> [Diagnostic] {
        let dropped = chains.sorted { $0.value.order < $1.value.order }.map { key, chain in
            Diagnostic(reason: .reset, addressType: AddressType(rawValue: key.addressType), address: key.address,
                       advertisingSID: key.sid, droppedBytes: chain.data.count)
        }
        chains.removeAll()
        return dropped
    }

    /// Adds every report of an event, in order.
    public mutating func add(_ event: LEExtendedAdvertisingReportEvent) -> Output {
        var output = Output()
        for report in event.reports {
            let one = add(report)
            output.reports += one.reports
            output.diagnostics += one.diagnostics
        }
        return output
    }

    /// Adds one report (one fragment).
    public mutating func add(_ report: LEExtendedAdvertisingReport) -> Output {
        var output = Output()
        let type = report.eventType
        if type.isLegacy {
            output.reports.append(HCIAdvertisingReport(report, data: report.data, isTruncated: false))
            return output
        }
        let key = Key(addressType: report.addressType.rawValue, address: report.address, sid: report.advertisingSID)
        let properties = type.rawValue & 0x1F
        var chain: Chain
        if let pending = chains[key], pending.properties == properties, pending.primaryPHY == report.primaryPHY,
           pending.secondaryPHY == report.secondaryPHY {
            chain = pending
        } else {
            if let stale = chains[key] {
                output.diagnostics.append(Diagnostic(reason: .newChainStarted, addressType: report.addressType, address: report.address,
                                                     advertisingSID: report.advertisingSID, droppedBytes: stale.data.count))
            }
            counter &+= 1
            chain = Chain(properties: properties, primaryPHY: report.primaryPHY, secondaryPHY: report.secondaryPHY, data: [], order: counter)
        }
        let room = maximumDataLength - chain.data.count
        let overflow = report.data.count > room
        chain.data += report.data.prefix(max(0, room))

        var status = type.dataStatus
        if status == .reserved {
            output.diagnostics.append(Diagnostic(reason: .reservedDataStatus, addressType: report.addressType, address: report.address,
                                                 advertisingSID: report.advertisingSID, droppedBytes: 0))
            status = .incompleteTruncated
        }
        if overflow {
            output.diagnostics.append(Diagnostic(reason: .dataTooLong, addressType: report.addressType, address: report.address,
                                                 advertisingSID: report.advertisingSID, droppedBytes: report.data.count - max(0, room)))
            status = .incompleteTruncated
        }
        switch status {
        case .incompleteMoreToCome:
            chains[key] = chain
            output.diagnostics += evictIfNeeded()
        case .complete, .incompleteTruncated, .reserved:
            chains[key] = nil
            output.reports.append(HCIAdvertisingReport(report, data: chain.data, isTruncated: status != .complete))
        }
        return output
    }

    private mutating func evictIfNeeded() -> [Diagnostic] {
        var dropped: [Diagnostic] = []
        while chains.count > maximumPendingChains, let oldest = chains.min(by: { $0.value.order < $1.value.order }) {
            chains[oldest.key] = nil
            dropped.append(Diagnostic(reason: .tooManyPendingChains, addressType: AddressType(rawValue: oldest.key.addressType),
                                      address: oldest.key.address, advertisingSID: oldest.key.sid, droppedBytes: oldest.value.data.count))
        }
        return dropped
    }
}
