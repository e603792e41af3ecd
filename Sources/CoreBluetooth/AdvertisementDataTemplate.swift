// The advertisementData dictionaries' templates: one per set of Apple's keys, copied and filled by index, so no key is hashed per discovery.
import Foundation
import Synchronization

/// A `[String: Any]` holding one set of Apple's advertisement data keys (`CBAdvertisementData…`) with a placeholder
/// value each, and where each key lies in it.
///
/// A dictionary built by inserting hashes every String key (SipHash over its bytes) and grows its storage as it
/// fills; with AllowDuplicates and data that changes, the delegate queue builds one per report. A copy of a template
/// keeps the template's storage layout (one allocation and a copy of the buckets, no hashing), so the template's
/// indices are valid in it and each value is written in place through `values[index]`. There is one template per
/// set of keys present (``Key``: 9 keys, so at most 512 templates, made the first time their set is met and kept
/// for the process: about 1 KB each). One object, so holding it costs one reference. Sendable: immutable once made,
/// its placeholders are `Bool`s.
final class AdvertisementDataTemplate: @unchecked Sendable {
    /// The keys of advertisementData, Apple's names.
    enum Key: Int, CaseIterable {
        case isConnectable, isTruncated, localName, manufacturerData, serviceData, serviceUUIDs, overflowServiceUUIDs
        case txPowerLevel, solicitedServiceUUIDs

        /// Apple's key string.
        var name: String {
            switch self {
            case .isConnectable: CBAdvertisementDataIsConnectable
            case .isTruncated: CBAdvertisementDataIsTruncatedKey
            case .localName: CBAdvertisementDataLocalNameKey
            case .manufacturerData: CBAdvertisementDataManufacturerDataKey
            case .serviceData: CBAdvertisementDataServiceDataKey
            case .serviceUUIDs: CBAdvertisementDataServiceUUIDsKey
            case .overflowServiceUUIDs: CBAdvertisementDataOverflowServiceUUIDsKey
            case .txPowerLevel: CBAdvertisementDataTxPowerLevelKey
            case .solicitedServiceUUIDs: CBAdvertisementDataSolicitedServiceUUIDsKey
            }
        }

        /// The key's bit in a set of keys.
        var bit: Int { 1 << rawValue }
    }

    /// Every key of the set, each with a placeholder value.
    let dictionary: [String: Any]
    /// Its set of keys (``Key/bit``s).
    let keys: Int
    /// Where each key lies in ``dictionary`` (and in every copy of it), by ``Key/rawValue``; nil for a key not in the set.
    private let indices: [Dictionary<String, Any>.Index?]

    private init(keys: Int) {
        let present = Key.allCases.filter { keys & $0.bit != 0 }
        var dictionary = [String: Any](minimumCapacity: present.count)
        for key in present { dictionary[key.name] = false }
        self.dictionary = dictionary
        self.keys = keys
        indices = Key.allCases.map { keys & $0.bit != 0 ? dictionary.index(forKey: $0.name) : nil }
    }

    /// Writes `value` for `key` into `data`, a copy of ``dictionary`` (the key must be in the set).
    func set(_ key: Key, _ value: Any, in data: inout [String: Any]) {
        if let index = indices[key.rawValue] { data.values[index] = value } else { data[key.name] = value }
    }

    /// Writes `bytes` as `key`'s `Data` into `data` (the key must be in the set), and into `held`: the `Data` that
    /// `data` holds under `key` (one more reference to its storage, kept beside the dictionary by its
    /// ``AdvertisementDataRecord``), nil when `data` holds none yet (a copy of the template, whose placeholder is a
    /// Bool). Bytes of the same length go into that `Data`'s storage when `data` is a spare the app let go (``AdvertisementDataRecycler``):
    /// both references are dropped but the one written through, which is then the only one, so its bytes are
    /// overwritten in place (no allocation, no free, no cast of the dictionary's `Any`). A `Data` the app still holds is
    /// copied on write, never changed; `held` is then the copy.
    func setData(_ key: Key, copying bytes: UnsafeRawBufferPointer, in data: inout [String: Any], holding held: inout Data?) {
        // A new `Data` unless `data` holds one of the same length to write into: one that does not start at index 0 (a
        // slice a parsed report was given) is not reused (the app gets its bytes from 0, as from iOS), and bytes of
        // another length go into a new one (Foundation's resize in place costs about three times as much).
        guard let index = indices[key.rawValue], var spare = held.take(), spare.startIndex == 0, spare.count == bytes.count else {
            let made = Data(bytes)
            set(key, made, in: &data)
            held = made
            return
        }
        // The dictionary's reference dropped, so `spare` is the only one when the app let the dictionary go.
        data.values[index] = false
        spare.withUnsafeMutableBytes { $0.copyMemory(from: bytes) }
        data.values[index] = spare
        held = spare
    }

    /// The template of the set of keys whose ``Key/bit``s `keys` has (any thread), from the process's ``Table``.
    static func template(keys: Int) -> AdvertisementDataTemplate {
        Table.shared.template(keys: keys)
    }

    /// The templates made so far, by set of keys (at most 512).
    final class Table: Sendable {
        /// The process's table, which every manager uses.
        static let shared = Table()

        private let made = Mutex<[AdvertisementDataTemplate?]>(Array(repeating: nil, count: 1 << Key.allCases.count))

        /// The template of the set of keys whose ``Key/bit``s `keys` has (any thread), made the first time. Always the
        /// same one for a set of keys: a dictionary made from one and written through another's indices (a spare,
        /// ``AdvertisementDataRecycler``) would be written at the wrong places or trap (each dictionary's layout
        /// depends on its storage's seed), so when two threads meet a set first at once, the one stored first is kept.
        func template(keys: Int) -> AdvertisementDataTemplate {
            let slot = keys & (1 << Key.allCases.count - 1)
            if let made = made.withLock({ $0[slot] }) { return made }
            let template = AdvertisementDataTemplate(keys: slot)
            return made.withLock {
                if let first = $0[slot] { return first }
                $0[slot] = template
                return template
            }
        }
    }
}
