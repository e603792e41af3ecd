// A dictionary that keeps only its most recently added entries: the bound on what the manager remembers of the air.

/// At most ``capacity`` entries; adding a new key beyond that forgets the key added longest ago (first in, first
/// out; updating a key's value does not move it). Lookups and updates are O(1), eviction amortised O(1).
struct RecentlySeen<Key: Hashable, Value> {
    /// The most entries kept.
    let capacity: Int
    private var values: [Key: Value] = [:]
    /// Keys in the order first added; `head` is the oldest still kept (entries before it were forgotten).
    private var order: [Key] = []
    private var head = 0

    init(capacity: Int) { self.capacity = max(1, capacity) }

    /// The value for `key`, nil when unknown or forgotten.
    subscript(key: Key) -> Value? { values[key] }

    /// Sets `key`'s value, adding it (and forgetting the oldest key when full) when new.
    mutating func set(_ key: Key, _ value: Value) {
        if values.updateValue(value, forKey: key) != nil { return }
        order.append(key)
        while values.count > capacity, head < order.count {
            let oldest = order[head]
            head += 1
            values[oldest] = nil
        }
        if head > capacity {  // drop the consumed prefix now and then
            order.removeFirst(head)
            head = 0
        }
    }

    /// The number of entries kept.
    var count: Int { values.count }

    /// Forgets everything.
    mutating func removeAll() {
        values = [:]
        order = []
        head = 0
    }
}
