// The advertisementData dictionaries a batch of discoveries let go, kept for the next dictionary with the same keys.

/// Spare advertisementData dictionaries on the delegate queue (``CBCentralManager/deliver(_:)``), and the template last
/// used: with AllowDuplicates, when a peripheral's data changes, its last dictionary is given here; without, each
/// discovery's dictionary is, once the delegate has had it (an advertiser gets one or two); and the next dictionary with
/// the same set of keys (``AdvertisementDataTemplate/Key/bit``s: it was made from the same template, so the template's indices hold
/// in it) is written into its storage instead of a copy of the template. A dictionary the app let go then costs no
/// allocation and no free; one the app still holds is copied on the first write, as the template would be, and what
/// the app holds does not change.
///
/// Bound: ``capacity`` dictionaries (the oldest given is dropped first), each of at most 9 keys and the values of one
/// advertisement (at most 31 bytes of legacy data, or 1,650 of an extended advertising chain); kept by the manager
/// between batches, emptied by `stopScan` (a batch whose scan stopped or changed meanwhile does not put its spares
/// back).
struct AdvertisementDataRecycler {
    /// How many spares are kept: more than the sets of keys that make most of a crowd's advertisements (Flags and
    /// manufacturer data, a service UUID list, a name, ...).
    static let capacity = 16

    private var spares: [AdvertisementDataRecord] = []
    /// The templates asked for so far, by set of keys (at most 512, one reference each): a template is looked up in
    /// the process's table (a lock and a lookup) once per recycler, not at every change of an advertiser's set of keys.
    private var templates: [AdvertisementDataTemplate?] = []

    /// The template of the set of keys `keys` (``AdvertisementDataTemplate/template(keys:)``), from ``templates`` when
    /// it was asked for before.
    mutating func template(keys: Int) -> AdvertisementDataTemplate {
        let slot = keys & (1 << AdvertisementDataTemplate.Key.allCases.count - 1)
        if templates.isEmpty { templates = Array(repeating: nil, count: 1 << AdvertisementDataTemplate.Key.allCases.count) }
        if let known = templates[slot] { return known }
        let template = AdvertisementDataTemplate.template(keys: slot)
        templates[slot] = template
        return template
    }

    /// How many spares are kept now.
    var count: Int { spares.count }

    /// Keeps `dictionary` (a peripheral's last advertisementData, taken from it, or one the delegate has had) as a
    /// spare; nil is nothing to keep.
    mutating func give(_ dictionary: consuming AdvertisementDataRecord?) {
        guard let dictionary else { return }
        if spares.count == Self.capacity { spares.removeFirst() }
        spares.append(dictionary)
    }

    /// A spare with exactly the set of keys `keys`, the last given first (the peripheral's own, given just before);
    /// nil when none has them. The spare leaves the recycler, so the caller holds its only reference here.
    mutating func take(keys: Int) -> AdvertisementDataRecord? {
        guard let index = spares.lastIndex(where: { $0.keys == keys }) else { return nil }
        return spares.remove(at: index)
    }
}
