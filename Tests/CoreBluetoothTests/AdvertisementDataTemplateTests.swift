// advertisementData made from a template of its set of keys: exactly the keys present, each with its own value.
@testable import CoreBluetooth
import Foundation
import Synchronization
import Testing

@Suite struct AdvertisementDataTemplateTests {
    /// Every one of the 512 sets of Apple's nine keys: a copy of its template filled through the template's indices
    /// holds exactly those keys, each with the value written for it (a wrong index would put a value under another
    /// key or leave a placeholder), and the template itself keeps its placeholders.
    @Test func everySetOfKeysHoldsExactlyItsKeysWithTheirValues() {
        typealias Key = AdvertisementDataTemplate.Key
        for keys in 0..<(1 << Key.allCases.count) {
            let present = Key.allCases.filter { keys & $0.bit != 0 }
            let template = AdvertisementDataTemplate.template(keys: keys)
            var data = template.dictionary
            for key in present { template.set(key, 100 + key.rawValue, in: &data) }
            #expect(data.count == present.count)
            for key in present { #expect(data[key.name] as? Int == 100 + key.rawValue, "set \(keys): \(key.name)") }
            #expect(template.dictionary.values.allSatisfy { $0 as? Bool == false }, "a copy's writes reach the template")
            #expect(AdvertisementDataTemplate.template(keys: keys).dictionary.count == present.count)
        }
    }

    /// Managers on several queues meeting a set of keys first at once all get one template: a dictionary made from one
    /// and written through another's indices traps on an index of another storage (a race that crashed parallel test
    /// runs). Each round starts from an empty table; eight threads ask for the same set at once.
    @Test func threadsMeetingASetOfKeysAtOnceGetOneTemplate() {
        for _ in 0..<200 {
            let table = AdvertisementDataTemplate.Table()
            let storages = Mutex<Set<UInt>>([])
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                let template = table.template(keys: 0b1_0000_1101)
                storages.withLock { _ = $0.insert(unsafeBitCast(template.dictionary, to: UInt.self)) }
            }
            #expect(storages.withLock { $0.count } == 1)
        }
    }
}
