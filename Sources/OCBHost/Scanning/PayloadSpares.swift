// The host's records of discoveries the layers above are done with, kept for the scan to reuse their arrays for new content.

import Synchronization

/// A host whose scan makes records with the arrays of those the layers above hand back
/// (``DiscoveredDevice/Payload/Spares``): ``HostController`` and ``KernelHost``.
package protocol DiscoveryRecordRecycling: AnyObject, Sendable {
    /// The host's own spares: the facade gives back the records the delegate has had, the host's scan takes them
    /// (``ScanResultMerger/addSpares(_:)``) at each hand-over of its discoveries; emptied when its scan ends.
    var discoveryRecordSpares: DiscoveredDevice.Payload.Spares { get }
}

extension DiscoveredDevice.Payload {

    /// Records of discoveries handed back once the layers above are done with them (the facade: once the delegate had a
    /// batch), for a scan to make its next new content's record with one's array
    /// (``reusingArray(of:isConnectable:advertisingData:)``): the bytes are written into the array in place, instead of
    /// an array being made per changed advertisement on the reader and freed on the delegate's thread (each free of
    /// another thread's memory takes the allocator's slow path). Any thread; one lock per hand-over, not per record.
    /// Records never change: a merger uses a spare only once it holds the spare's only reference (a queued discovery,
    /// the merger's own last record of its advertiser or an app's test may still hold one handed back), and an array
    /// anything else still shares is copied before the write, as any array is.
    ///
    /// Bound: ``capacity`` records, each of at most ``largestKept`` bytes of AD data (legacy advertising data and scan
    /// response: 31 octets each, Core v5.4 Vol 6 Part B §2.3.1); more, or larger ones, are let go. Emptied when the
    /// host's scan ends or the host stops (``removeAll()``); a hand-back racing that (a batch delivered as the scan
    /// stopped) may leave some until the next scan ends.
    package final class Spares: Sendable {
        /// The most records kept.
        package static let capacity = 1_024
        /// The most AD bytes a kept record holds: a legacy advertisement and its scan response, 31 octets each.
        package static let largestKept = 62

        /// The records kept, in the order given.
        private let kept = Mutex<[DiscoveredDevice.Payload]>([])
        /// How many are kept, for a look without the lock (a scan that finds none does not take it).
        private let keptCount = Atomic<Int>(0)

        /// An empty store of spares.
        package init() {}

        /// Keeps `records` up to the bound (each moved in: no reference more is taken when the caller gave its only
        /// array); what does not fit goes.
        package func give(_ records: consuming [DiscoveredDevice.Payload]) {
            guard !records.isEmpty else { return }
            kept.withLock { kept in
                while kept.count < Self.capacity, let record = records.popLast() {
                    if record.byteCount <= Self.largestKept { kept.append(record) }
                }
                keptCount.store(kept.count, ordering: .relaxed)
            }
        }

        /// True when none is kept (read without the lock: a give may be on its way).
        package var isEmpty: Bool { keptCount.load(ordering: .relaxed) == 0 }

        /// How many are kept (read without the lock).
        package var count: Int { keptCount.load(ordering: .relaxed) }

        /// Takes every kept record out.
        package func takeAll() -> [DiscoveredDevice.Payload] {
            kept.withLock { kept in
                var taken: [DiscoveredDevice.Payload] = []
                swap(&taken, &kept)
                keptCount.store(0, ordering: .relaxed)
                return taken
            }
        }

        /// Lets every kept record go (a scan ended: the memory goes back), outside the lock.
        package func removeAll() {
            _ = takeAll()
        }
    }
}
