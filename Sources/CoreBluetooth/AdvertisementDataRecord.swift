// One advertisementData dictionary with what its maker knows of its values, so that reusing it reads none back out of `Any`.
import Foundation

/// An advertisementData dictionary as the delegate queue keeps it between discoveries (a peripheral's last
/// advertisement's, or a spare of ``AdvertisementDataRecycler``): the dictionary, its set of keys, and the values a
/// reuse rewrites in place, known here so that none is read back out of its `Any` (a dynamic cast each, about 250
/// instructions).
struct AdvertisementDataRecord {
    /// The dictionary the delegate gets.
    var data: [String: Any]
    /// Its set of keys (``AdvertisementDataTemplate/Key/bit``s); every dictionary has IsConnectable's.
    var keys: Int
    /// The `Data` it holds under Manufacturer Data (the same storage: one more reference to it, which a reuse drops
    /// before it writes, so that the storage is written in place when the app let the dictionary go); nil when the key
    /// is absent.
    var manufacturerData: Data?
    /// The value it holds under IsConnectable (a shared NSNumber of this Bool).
    var isConnectable: Bool
}
