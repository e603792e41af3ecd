// How an advertisement becomes a didDiscover: decided where it arrives (filters, coalescing, the bound), made on the delegate queue.
internal import OCBCore
internal import OCBHost
import Foundation
import Synchronization

extension CBCentralManager {
    /// One discovery admitted for the delegate, as it waits on the delegate queue: the report (the host's record of its
    /// bytes, shared, not parsed) and the scan it belongs to, about 70 bytes besides the report's
    /// ``AdvertisementReport/heapBytes``. The peripheral and the advertisementData are made only when it is delivered
    /// (``deliver(_:)``), so a backlog behind a slow delegate holds no objects and dictionaries, and the thread that
    /// reads the controller does not make them.
    struct PreparedDiscovery {
        let report: AdvertisementReport
        /// The scan it belongs to (``scanGeneration``): one stopped or replaced since gets nothing.
        let scan: UInt64
        /// What it counts for in the bound's bytes (``discoveryQueueByteBound``), given back when it is delivered.
        let bytes: Int
        /// The identifier its peripheral gets if it has none yet when delivered (``PeripheralIdentifier``), derived where
        /// it was admitted for the first discovery of an advertiser no peripheral stood for, in a scan without
        /// AllowDuplicates: a crowd of new advertisers has its SHA-1s computed by the thread that reads the controller,
        /// beside the delegate queue, which then only makes the objects. Nil otherwise (derived when needed).
        var identifier: UUID? = nil
    }

    /// Decides whether `report` becomes a discovery (any thread; the manager's lock is taken): Apple's coalescing without
    /// AllowDuplicates, the scan's filters, then the bound on discoveries waiting for the delegate
    /// (``discoveryQueueBound`` and ``discoveryQueueByteBound``; a report past it is counted as dropped and, not being
    /// recorded as reported, may come again). Nil when nothing is delivered.
    func prepareDiscovery(_ report: AdvertisementReport) -> PreparedDiscovery? {
        prepareDiscoveries([report]).first
    }

    /// ``prepareDiscovery(_:)`` for each of `reports` in order, with one look under the manager's lock and one under
    /// the bound's for all of them: the discoveries to deliver, in order.
    func prepareDiscoveries(_ reports: [AdvertisementReport]) -> [PreparedDiscovery] {
        reports.withUnsafeBufferPointer(prepareDiscoveries)
    }

    /// ``prepareDiscoveries(_:)`` of a turn of the host's discoveries (``BackendEvent/discovered(_:)``), each made a
    /// report as received only when coalescing keeps it.
    func prepareDiscoveries(_ devices: [DiscoveredDevice]) -> [PreparedDiscovery] {
        devices.withUnsafeBufferPointer(prepareDiscoveries)
    }

    /// ``prepareDiscoveries(_:)`` of candidates read where they lie (one copied out is a retain and a release, of the
    /// host's record, which the reader's thread touches too): a report is made only of one that coalescing keeps (the
    /// filters need it; the bound may still turn it away).
    private func prepareDiscoveries<Candidate: DiscoveryCandidate>(_ candidates: UnsafeBufferPointer<Candidate>) -> [PreparedDiscovery] {
        var warn = false
        var prepared: [PreparedDiscovery] = []
        prepared.reserveCapacity(candidates.count)
        // The discoveries (by index in `prepared`) of advertisers no peripheral stands for, and the controller's address.
        var unknown: [Int] = []
        var controller: BluetoothAddress?
        lock.run {
            guard storedIsScanning, let parameters = scanParameters else { return }
            controller = controllerAddress
            let generation = scanGeneration
            let filters = !(parameters.services?.isEmpty ?? true)
            discoveryBoundLock.withLock {
                // The coalescing state and the bound taken out for the loop and put back after (no one else looks while
                // both locks are held): each look at a stored property of the manager is a run-time exclusivity check.
                var coalescing = DiscoveryCoalescing()
                swap(&coalescing, &reported)
                defer { swap(&coalescing, &reported) }
                var bound = discoveryBound
                defer { discoveryBound = bound }
                for index in candidates.indices {
                    let peer = candidates[index].peer
                    let coalesced = !parameters.allowDuplicates && !peer.isAnonymous
                    if coalesced, !coalescing.wouldAdmit(peer, hasScanResponse: candidates[index].hasScanResponse) { continue }
                    let report = candidates[index].makeReport()
                    if filters, !Self.matches(report, parameters) { continue }
                    let bytes = candidates[index].heapBytes
                    let (admitted, overflowStarts) = bound.admit(bytes: bytes)
                    warn = warn || overflowStarts
                    guard admitted else { continue }
                    if coalesced {
                        _ = coalescing.admit(peer, hasScanResponse: candidates[index].hasScanResponse)
                        if existingPeripheral(for: peer) == nil { unknown.append(prepared.count) }
                    }
                    prepared.append(PreparedDiscovery(report: report, scan: generation, bytes: bytes))
                }
            }
        }
        if warn { warnDiscoveriesDropped() }
        // Outside the lock: the delegate queue's look at its pieces does not wait for the hashing.
        for index in unknown {
            prepared[index].identifier = PeripheralIdentifier.make(controller: controller ?? .zero, peer: prepared[index].report.peer)
        }
        return prepared
    }

    /// What one look under the lock found for a discovery: its peripheral, and what its name did.
    private struct Resolved {
        let peripheral: CBPeripheral
        let name: NameChange
    }

    /// What a discovery's local name did to its peripheral's, and what the lock's look knows of its content ("the
    /// last advertisement's content": it carries the host's record the last advertisement carried,
    /// ``AdvertisementReport/ContentMark``; equal bytes in another record are new content).
    private enum NameChange {
        /// Its content is its peripheral's last advertisement's, and it has the name the peripheral has (or none).
        case same
        /// Its content is the last advertisement's, and it renamed the peripheral (``CBPeripheral/storedName`` is
        /// set): `peripheralDidUpdateName` first.
        case renamed
        /// Its content is new (not the last advertisement's, or the peripheral has none): its name is read when its
        /// dictionary is made (one pass over its bytes), then compared.
        case changed
        /// Not known yet: an earlier discovery of its peripheral in the piece is new, which may change the name and the
        /// last advertisement this one's content and name are decided by (when it is delivered).
        case unread

        /// True when the content is known to be the last advertisement's.
        var isSameContent: Bool { self == .same || self == .renamed }
    }

    /// Calls the delegate for each admitted discovery of a batch, in order, unless its scan stopped since (on the
    /// delegate queue): one look under the lock for the whole batch finds or makes each peripheral (an anonymous one
    /// is new each time, never stored: two anonymous advertisers must not become one) and notes the names of those with
    /// the content of their peripheral's last advertisement (``CBPeripheral/lastAdvertisement``, kept on this queue).
    /// Outside the lock, with AllowDuplicates, such a discovery gets that dictionary again; another has its dictionary
    /// made, into the storage of the last one when the app let that go (``AdvertisementDataRecycler``), becomes the last
    /// advertisement in place, and has the name read on the way compared under the lock. Without AllowDuplicates (one
    /// or two discoveries an advertiser) the peripheral keeps no dictionary: each goes to the recycler once the delegate
    /// has had it, for the next advertiser's. A peripheral renamed by a discovery gets
    /// `peripheralDidUpdateName` first (when it had another name).
    /// Before each call, ``deliveryEpoch`` says whether the scan or the delegate changed (a delegate's `stopScan`
    /// mid-batch): the rest of the batch is then looked at again.
    /// A batch goes in pieces of ``deliveryPiece``: the lock is held for one piece's peripherals at a time (an app's
    /// `connect` from another thread waits for that, not for a whole turn of new peripherals), and between pieces the
    /// events waiting for the delegate queue go first (``SerialBatcher/handOverOthersNow()``): a `didConnect` during
    /// a flood waits for one piece of discoveries, not for the rest of the batch.
    /// With AllowDuplicates, the host's records of the batch's discoveries of new content go back to the host when the
    /// next batch starts (``recordsToHandBack``, ``Host/DiscoveredDevice/Payload/Spares``).
    func deliver(_ batch: [PreparedDiscovery]) {
        guard !batch.isEmpty else { return }
        // Each discovery's bytes read where it lies (a discovery copied out is a copy of all it holds).
        let bytes = batch.withUnsafeBufferPointer { discoveries in discoveries.indices.reduce(0) { $0 + discoveries[$1].bytes } }
        discoveryBoundLock.withLock { discoveryBound.delivered(batch.count, bytes: bytes) }
        // Taken for the batch and put back after it (delegate queues run one batch at a time; another would start empty),
        // unless the scan stopped or changed meanwhile (a delegate's `stopScan` from `didDiscover`): then they go, as
        // `stopScan` lets the spares go. The last batch's records go back to the host now, this batch's after the next.
        var (recycler, generation, handBackScan, handBack) = lock.run {
            var taken = AdvertisementDataRecycler()
            swap(&taken, &advertisementDataSpares)
            var records: (scan: UInt64, records: [DiscoveredDevice.Payload]) = (scanGeneration, [])
            swap(&records, &recordsToHandBack)
            return (taken, scanGeneration, records.scan, records.records)
        }
        // Moved in (a copy left here would hold each record while the host looks whether anything else does); those of
        // a scan stopped or replaced since go.
        let spares = backend.discoveryRecordSpares
        if handBackScan == generation { spares?.give(consume handBack) } else { handBack = [] }
        // This batch's records of new content with AllowDuplicates, where the host's scan makes its next records with
        // their arrays (an advertiser repeating itself is still the host's last record of it; a coalesced scan makes a
        // record per advertiser and uses none back).
        var delivered: [DiscoveredDevice.Payload] = []
        defer {
            lock.run {
                if storedIsScanning, scanGeneration == generation {
                    advertisementDataSpares = recycler
                    recordsToHandBack = (generation, delivered)
                }
            }
        }
        var start = 0
        while start < batch.count {
            let rest = batch[start..<min(batch.count, start + Self.deliveryPiece)]
            let (epoch, delegate, resolved, delivery, keeps, handsBack) = lock.run {
                let parameters = scanParameters
                // The host's scan uses records back only when it reports every advertisement (no service filter).
                return (deliveryEpoch.load(ordering: .acquiring), storedDelegate, resolve(rest), self.delivery,
                        parameters?.allowDuplicates ?? false,
                        spares != nil && parameters?.allowDuplicates == true && parameters?.services?.isEmpty ?? true)
            }
            start = rest.endIndex
            // Read where they lie, the discoveries through their address (a report or a peripheral copied out, or passed on
            // as a value loaded from the buffer, is a retain and a release each).
            let stoppedAt: Int? = batch.withUnsafeBufferPointer { discoveries in
                resolved.withUnsafeBufferPointer { found in
                    guard let first = discoveries.baseAddress else { return nil }
                    for offset in rest.indices {
                        if offset > rest.startIndex, deliveryEpoch.load(ordering: .acquiring) != epoch { return offset }
                        guard let peripheral = found[offset - rest.startIndex]?.peripheral else { continue }
                        let isNew = deliver(first + offset, to: delegate, of: peripheral, name: found[offset - rest.startIndex]?.name ?? .same,
                                            keepsDictionary: keeps, recycling: &recycler)
                        // Once each: a record repeated in the batch is new content at its first delivery only.
                        if handsBack, isNew, let record = first[offset].report.hostRecord { delivered.append(record) }
                    }
                    return nil
                }
            }
            if let stoppedAt { start = stoppedAt }
            if start < batch.count { delivery?.handOverOthersNow() }
        }
    }

    /// Calls `delegate` with one discovery of `peripheral` (`peripheralDidUpdateName` first when it renamed it).
    /// `keepsDictionary` (a scan with AllowDuplicates, where an advertiser repeating itself gets its last dictionary
    /// again) keeps the dictionary as the peripheral's last advertisement's; otherwise (a scan whose discoveries are
    /// coalesced, one or two an advertiser) it goes to `recycler` after the call, so the next advertiser's dictionary is
    /// written into its storage when the app let it go (a crowd of new advertisers makes and frees none).
    /// True when the discovery's content was new to the peripheral (its dictionary was made, not its last one given
    /// again).
    private func deliver(_ discovery: UnsafePointer<PreparedDiscovery>, to delegate: (any CBCentralManagerDelegate)?,
                         of peripheral: CBPeripheral, name: NameChange, keepsDictionary: Bool,
                         recycling recycler: inout AdvertisementDataRecycler) -> Bool {
        let (advertisementData, toRecycle, localName, isNew) = self.advertisementData(discovery, of: peripheral, known: name,
                                                                                      keeping: keepsDictionary, recycling: &recycler)
        var renamed = name == .renamed
        if !name.isSameContent, let localName { renamed = lock.run { rename(peripheral, localName) } }
        if renamed { peripheral.delegate?.peripheralDidUpdateName(peripheral) }
        // RSSI 127 is "not available" (Core v5.4 Vol 4 Part E §7.7.65.2), and iOS passes it on as 127: a report
        // without one is still a discovery (a kernel or controller that gives none must not hide every device).
        delegate?.centralManager(self, didDiscover: peripheral, advertisementData: advertisementData,
                                 rssi: Self.dBmNumber(discovery.pointee.report.rssi ?? 127))
        recycler.give(toRecycle)
        return isNew
    }

    /// The advertisementData of `discovery`'s report for `peripheral` (on the delegate queue): the dictionary of its last
    /// advertisement when that had the same content and kept it; else a new one, written into the storage of a spare with
    /// the same keys (the last one's comes first: given back here, its only reference when the app let it go), and kept
    /// as the last advertisement's when `keeping` (an anonymous advertiser's peripheral keeps nothing). `known` is what
    /// the lock's look found (``NameChange``): the content is compared with the last advertisement's only when it could
    /// not tell. Also the dictionary's record when it is not kept (for the caller to give to `recycler` once the
    /// delegate has had it; nil when kept), the local name (the last advertisement's when reused), and whether the
    /// dictionary was made (new content) rather than the last one given again.
    private func advertisementData(_ discovery: UnsafePointer<PreparedDiscovery>, of peripheral: CBPeripheral, known: NameChange,
                                   keeping: Bool, recycling recycler: inout AdvertisementDataRecycler)
        -> (data: [String: Any], toRecycle: AdvertisementDataRecord?, name: String?, isNew: Bool) {
        // Each record moved where it goes, never copied: a copy is a reference more to its dictionary and its `Data`.
        guard let last = peripheral.lastAdvertisement else {
            let (record, name) = Self.advertisementData(discovery.pointee.report, recycling: &recycler)
            let data = record.data
            if discovery.pointee.report.isAnonymous { return (data, record, name, true) }
            if keeping {
                peripheral.lastAdvertisement = CBPeripheral.LastAdvertisement(content: discovery.pointee.report.contentMark, record: record, name: name)
                return (data, nil, name, true)
            }
            peripheral.lastAdvertisement = CBPeripheral.LastAdvertisement(content: discovery.pointee.report.contentMark, record: nil, name: name)
            return (data, record, name, true)
        }
        switch known {
        case .same, .renamed: if let kept = last.record?.data { return (kept, nil, last.name, false) }
        case .changed: break
        case .unread:
            if discovery.pointee.report.hasContent(of: last.content), let kept = last.record?.data { return (kept, nil, last.name, false) }
        }
        recycler.give(last.takeRecord())
        let (record, name) = Self.advertisementData(discovery.pointee.report, recycling: &recycler)
        let data = record.data
        last.content = discovery.pointee.report.contentMark
        last.name = name
        if keeping {
            last.record = record
            return (data, nil, name, true)
        }
        return (data, record, name, true)
    }

    /// Gives `peripheral` the advertised `name` (lock held): true when it had another one (a rename the delegate hears
    /// of), false when it had this one or none.
    private func rename(_ peripheral: CBPeripheral, _ name: String) -> Bool {
        guard name != peripheral.storedName else { return false }
        defer { peripheral.storedName = name }
        return peripheral.storedName != nil
    }

    /// The discoveries of a batch delivered under one look at the lock, between two hand-overs of the events waiting.
    static let deliveryPiece = 32

    /// The peripheral of each discovery of `piece` (lock held), nil for one whose scan stopped or was replaced since.
    private func resolve(_ piece: ArraySlice<PreparedDiscovery>) -> [Resolved?] {
        guard storedIsScanning else { return Array(repeating: nil, count: piece.count) }
        let generation = scanGeneration
        var resolved: [Resolved?] = []
        resolved.reserveCapacity(piece.count)
        // The peripherals with a discovery of new content so far in the piece: each later one of theirs is decided when
        // delivered, in order (at most ``deliveryPiece``, found by identity).
        var unread: [ObjectIdentifier] = []
        // The maps looked at once for the piece, not once a discovery (each look at a stored property of the manager is
        // a run-time exclusivity check): the recent ones taken out and put back (no one else looks while the lock is
        // held), the connected ones only when there are any.
        var recent = RecentlySeen<PeerAddress, CBPeripheral>(capacity: 1)
        swap(&recent, &recentlyDiscovered)
        defer { swap(&recent, &recentlyDiscovered) }
        let connected = active.isEmpty ? nil : active
        // Read where they lie, through their address (a discovery copied out, or passed on as a value loaded from the
        // buffer, is a retain and a release of the host's record, which the reader's thread touches too).
        piece.withUnsafeBufferPointer { discoveries in
            guard let first = discoveries.baseAddress else { return }
            for index in discoveries.indices {
                guard discoveries[index].scan == generation else {
                    resolved.append(nil)
                    continue
                }
                let found = resolve(first + index, connected: connected, recent: &recent, after: unread)
                if !found.name.isSameContent { unread.append(ObjectIdentifier(found.peripheral)) }
                resolved.append(found)
            }
        }
        return resolved
    }

    /// The peripheral of `discovery`'s report (lock held), and its name when its content is its last advertisement's and
    /// no earlier discovery of the piece had new content for it (`unread`). `connected` and `recent` are ``active`` (nil
    /// when empty) and ``recentlyDiscovered`` as the piece holds them; a new peripheral gets the discovery's identifier
    /// when it was derived at admission (``PreparedDiscovery/identifier``).
    private func resolve(_ discovery: UnsafePointer<PreparedDiscovery>, connected: [PeerAddress: CBPeripheral]?,
                         recent: inout RecentlySeen<PeerAddress, CBPeripheral>, after unread: [ObjectIdentifier]) -> Resolved {
        let peer = discovery.pointee.report.peer
        if peer.isAnonymous {
            // A new peripheral each time, with no last advertisement: its name is the one its dictionary's reading finds.
            return Resolved(peripheral: CBPeripheral(identifier: UUID(), peer: peer, manager: self), name: .changed)
        }
        // A peripheral connected or heard lately (the common case) without the third map's weak load; the connected one
        // first, as `peripheral(for:)` has it (an app may hold, and connect, an object from before a power cycle).
        let peripheral: CBPeripheral
        if let known = connected?[peer] ?? recent[peer] {
            peripheral = known
        } else {
            // Not connected and not in `recent` (which ``peripheral(for:)`` would look at next): the handed-out table, or new.
            peripheral = self.peripheral(for: peer, identifier: discovery.pointee.identifier)
            recent.set(peer, peripheral)
        }
        // The name: the last advertisement's when this one has the same content (no parse), else read with the
        // dictionary. (The last advertisement is the delegate queue's, which this runs on.)
        if unread.contains(ObjectIdentifier(peripheral)) { return Resolved(peripheral: peripheral, name: .unread) }
        guard let last = peripheral.lastAdvertisement, discovery.pointee.report.hasContent(of: last.content) else {
            return Resolved(peripheral: peripheral, name: .changed)
        }
        guard let name = last.name else { return Resolved(peripheral: peripheral, name: .same) }
        return Resolved(peripheral: peripheral, name: rename(peripheral, name) ? .renamed : .same)
    }

    /// The NSNumber of a level in dBm (a discovery's `RSSI`, its TX power): one shared object per value from −128 to
    /// 127 dBm (what an HCI report's RSSI and a TX Power Level AD structure can carry, Core v5.4 Vol 4 Part E
    /// §7.7.65.2, Core Supplement v11 Part A §1.5; RSSI 127 is "not available"), made once, so the delegate queue
    /// allocates none per discovery; any other value gets a new one.
    static func dBmNumber(_ level: Int) -> NSNumber {
        let index = level &+ 128
        return dBmNumbers.indices.contains(index) ? dBmNumbers[index] : NSNumber(value: level)
    }
    nonisolated(unsafe) private static let dBmNumbers: [NSNumber] = (-128...127).map { NSNumber(value: $0) }

    /// The NSNumbers of `true` and `false` every advertisementData shares (immutable, so safe on any thread).
    nonisolated(unsafe) private static let trueNumber = NSNumber(value: true)
    nonisolated(unsafe) private static let falseNumber = NSNumber(value: false)

    /// Whether an advertisement passes the scan's service and solicitation filters.
    static func matches(_ report: AdvertisementReport, _ parameters: ScanParameters) -> Bool {
        guard let services = parameters.services, !services.isEmpty else { return true }
        let advertised = report.serviceUUIDs + report.overflowServiceUUIDs
        if advertised.contains(where: services.contains) { return true }
        return report.solicitedServiceUUIDs.contains(where: parameters.solicitedServices.contains)
    }

    /// The advertisementData dictionary with Apple's keys and value types. Built once per new advertisement (with
    /// AllowDuplicates, once per report whose data changed) as a copy of the template of its set of keys
    /// (``AdvertisementDataTemplate``: no key hashed, no storage grown), the values written in place; the booleans and
    /// the TX power are shared NSNumbers.
    static func advertisementData(_ report: AdvertisementReport) -> [String: Any] {
        var none = AdvertisementDataRecycler()
        return advertisementData(report, recycling: &none).record.data
    }

    /// ``advertisementData(_:)`` as a record (its set of keys, ``AdvertisementDataTemplate/Key/bit``s, and the values a
    /// reuse rewrites) and the local name, written into the storage of a spare of `recycler` with the same keys when it
    /// has one (every key of the set gets its new value; IsConnectable and IsTruncated only when the spare's differs),
    /// else into a copy of the template. A report as received is read in place, straight into the dictionary's
    /// values: one pass over each payload for its fields, one more for each list or map it has (made only then); its
    /// manufacturer data is one `Data` copied from the bytes.
    static func advertisementData(_ report: AdvertisementReport,
                                  recycling recycler: inout AdvertisementDataRecycler) -> (record: AdvertisementDataRecord, name: String?) {
        if let received = report.received {
            let fields = received.fields()
            let made = advertisementData(isConnectable: received.isConnectable, isTruncated: received.isTruncated,
                                     localName: fields.localName,
                                     manufacturerData: received.manufacturerDataLocation(fields).map(ManufacturerValue.bytes),
                                     serviceData: received.serviceDataValues(fields), serviceUUIDs: received.serviceUUIDs(fields),
                                     overflowServiceUUIDs: [], txPowerLevel: received.txPowerLevel(fields),
                                     solicitedServiceUUIDs: received.solicitedServiceUUIDs(fields), recycling: &recycler)
            return (made, fields.localName)
        }
        let localName = report.localName
        let made = advertisementData(isConnectable: report.isConnectable, isTruncated: report.isTruncated, localName: localName,
                                 manufacturerData: report.manufacturerDataBytes.map(ManufacturerValue.data),
                                 serviceData: serviceDataValues(report.serviceData),
                                 serviceUUIDs: report.serviceUUIDs, overflowServiceUUIDs: report.overflowServiceUUIDs,
                                 txPowerLevel: report.txPowerLevel, solicitedServiceUUIDs: report.solicitedServiceUUIDs,
                                 recycling: &recycler)
        return (made, localName)
    }

    /// Service data as advertisementData gives it (`CBAdvertisementDataServiceDataKey`): a `Data` by `CBUUID`.
    private static func serviceDataValues(_ serviceData: [BluetoothUUID: [UInt8]]) -> [CBUUID: Data] {
        guard !serviceData.isEmpty else { return [:] }
        var values = [CBUUID: Data](minimumCapacity: serviceData.count)
        for (uuid, bytes) in serviceData { values[CBUUID(bluetoothUUID: uuid)] = Data(bytes) }
        return values
    }

    /// Manufacturer data as a dictionary is made with it: a `Data` already made (a parsed report's), or the bytes of
    /// the host's record and their range in them (within them), written into the spare's `Data` when the dictionary
    /// is a spare the app let go (``AdvertisementDataTemplate/setData(_:copying:in:holding:)``).
    private enum ManufacturerValue {
        case data(Data)
        case bytes([UInt8], Range<Int>)
    }

    /// The dictionary of these values (each key present when its value is: a name, manufacturer data, a TX power, a
    /// non-empty list or map; IsConnectable always, IsTruncated only when true), as a record. A spare's IsConnectable
    /// and IsTruncated are written only when they differ (a spare with IsTruncated's key holds `true` there).
    private static func advertisementData(isConnectable: Bool, isTruncated: Bool, localName: String?,
                                          manufacturerData manufacturer: ManufacturerValue?,
                                          serviceData: [CBUUID: Data], serviceUUIDs: [BluetoothUUID],
                                          overflowServiceUUIDs overflow: [BluetoothUUID], txPowerLevel: Int?,
                                          solicitedServiceUUIDs solicited: [BluetoothUUID],
                                          recycling recycler: inout AdvertisementDataRecycler) -> AdvertisementDataRecord {
        typealias Key = AdvertisementDataTemplate.Key
        var keys = Key.isConnectable.bit
        if isTruncated { keys |= Key.isTruncated.bit }
        if localName != nil { keys |= Key.localName.bit }
        if manufacturer != nil { keys |= Key.manufacturerData.bit }
        if !serviceData.isEmpty { keys |= Key.serviceData.bit }
        if !serviceUUIDs.isEmpty { keys |= Key.serviceUUIDs.bit }
        if !overflow.isEmpty { keys |= Key.overflowServiceUUIDs.bit }
        if txPowerLevel != nil { keys |= Key.txPowerLevel.bit }
        if !solicited.isEmpty { keys |= Key.solicitedServiceUUIDs.bit }
        let template = recycler.template(keys: keys)
        // The spare's parts moved out of it (a copy left in it would make the dictionary and the `Data` shared).
        var data: [String: Any]
        var manufacturerData: Data?
        var spareIsConnectable: Bool?
        if let spare = recycler.take(keys: keys) {
            (data, manufacturerData, spareIsConnectable) = (spare.data, spare.manufacturerData, spare.isConnectable)
        } else {
            data = template.dictionary
        }
        if spareIsConnectable != isConnectable { template.set(.isConnectable, isConnectable ? trueNumber : falseNumber, in: &data) }
        if isTruncated, spareIsConnectable == nil { template.set(.isTruncated, trueNumber, in: &data) }
        if let localName { template.set(.localName, localName, in: &data) }
        switch manufacturer {
        case .data(let value):
            template.set(.manufacturerData, value, in: &data)
            manufacturerData = value
        case .bytes(let bytes, let range):
            bytes.withUnsafeBytes {
                template.setData(.manufacturerData, copying: UnsafeRawBufferPointer(rebasing: $0[range]), in: &data,
                                 holding: &manufacturerData)
            }
        case nil: break
        }
        if !serviceData.isEmpty { template.set(.serviceData, serviceData, in: &data) }
        if !serviceUUIDs.isEmpty { template.set(.serviceUUIDs, serviceUUIDs.map(CBUUID.init(bluetoothUUID:)), in: &data) }
        if !overflow.isEmpty { template.set(.overflowServiceUUIDs, overflow.map(CBUUID.init(bluetoothUUID:)), in: &data) }
        if let txPowerLevel { template.set(.txPowerLevel, dBmNumber(txPowerLevel), in: &data) }
        if !solicited.isEmpty { template.set(.solicitedServiceUUIDs, solicited.map(CBUUID.init(bluetoothUUID:)), in: &data) }
        return AdvertisementDataRecord(data: data, keys: keys, manufacturerData: manufacturerData, isConnectable: isConnectable)
    }
}
