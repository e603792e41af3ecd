// Behaviour behind the source-compatibility names of #11: user info of any type, CBUUID(), the time function, subclasses.
@testable import CoreBluetooth
import Testing

@Test func errorUserInfoTakesAnyValueAndReachesTheNSError() {
    // Apple's CBError(_:userInfo:) takes [String: Any]; the values reach the bridged NSError's userInfo unchanged.
    let error = CBError(.connectionTimeout, userInfo: ["attempt": 3, "where": "connect"])
    let ns = error as NSError
    #expect(ns.domain == CBErrorDomain && ns.code == 6)
    #expect(ns.userInfo["attempt"] as? Int == 3 && ns.userInfo["where"] as? String == "connect")
    #expect(error == CBError(.connectionTimeout, userInfo: ["where": "connect", "attempt": 3]))
    #expect(error != CBError(.connectionTimeout, userInfo: ["attempt": 4, "where": "connect"]))
    #expect(error != CBError(.connectionTimeout))
    let att = CBATTError(.insufficientEncryption, userInfo: ["handle": 0x0017])
    #expect((att as NSError).code == 0x0F && (att as NSError).userInfo["handle"] as? Int == 0x17)
    #expect(att == CBATTError(.insufficientEncryption, userInfo: ["handle": 0x0017]) && att != CBATTError(.insufficientEncryption))
}

@Test func plainCBUUIDIsTheZeroUUIDAndNewKeysHaveTheirValues() {
    #expect(CBUUID().uuidString == "00000000-0000-0000-0000-000000000000" && CBUUID().data.count == 16)
    // GATT Specification Supplement: 0x2910 Observation Schedule.
    #expect(CBUUID(string: CBUUIDCharacteristicObservationScheduleString) == CBUUID(data: Data([0x29, 0x10])))
    #expect(CBCentralManagerOptionDeviceAccessForMedia == "kCBInitOptionDeviceAccessForMedia")
}

@Test func absoluteTimeCountsFrom2001() {
    // 2026-01-01T00:00:00Z is 788_918_400 s after 2001-01-01T00:00:00Z; the clock is past that.
    #expect(CFAbsoluteTimeGetCurrent() > 788_918_400)
    #expect(abs(CFAbsoluteTimeGetCurrent() - Date().timeIntervalSinceReferenceDate) < 5)
}

/// A subclass that overrides Apple's designated initialiser still gets `init()` and `init(delegate:queue:)`, and the
/// stack's own calls reach overridden members.
private final class CountingManager: CBCentralManager, @unchecked Sendable {
    nonisolated(unsafe) static var made = 0
    override init(delegate: (any CBCentralManagerDelegate)?, queue: DispatchQueue?, options: [String: Any]? = nil) {
        Self.made += 1
        super.init(delegate: delegate, queue: queue, options: [CBCentralManagerOptionTransportKey: "tcp:127.0.0.1:1",
                                                               CBCentralManagerOptionShowPowerAlertKey: false])
    }
    override var isScanning: Bool { true }
}

@Test func subclassInheritsTheConvenienceInitialisers() {
    let before = CountingManager.made
    let plain = CountingManager()
    let delegated = CountingManager(delegate: nil, queue: DispatchQueue(label: "subclass"))
    #expect(CountingManager.made == before + 2)
    #expect(plain.isScanning && delegated.isScanning)
}
