// Notifications, indications, CCCD enable/disable, Service Changed and Exchange MTU against the virtual peer.

import OCBCore
import OCBGATT
import OCBHost
import Testing

/// A burst value: `seq (u16 LE) | count (u16 LE)` (Tests/Peer/README.md, 0CB10007 / 0CB10008).
private func burst(_ seq: Int, of count: Int) -> [UInt8] {
    [UInt8(seq & 0xFF), UInt8(seq >> 8), UInt8(count & 0xFF), UInt8(count >> 8)]
}

extension PeerGATTTests {
    @Test func notificationsAndIndicationsArriveInOrderAndCCCDsToggle() throws {
        let fixture = try PeerGATT.shared.get()
        _ = try fixture.peer.send("restore")
        try fixture.withAlpha { handle in
            let cache = try fixture.discover(handle)
            let notifying = try #require(cache.characteristic(valueHandle: 0x003E))
            let indicating = try #require(cache.characteristic(valueHandle: 0x0041))
            let notified = Waiter<[UInt8]>()
            let indicated = Waiter<[UInt8]>()

            // Enable (Vol 3 Part G §4.10, §4.11): CCCD 0x003F ← 01 00, 0x0042 ← 02 00; read back.
            let enabled = fixture.gatt(handle) { client, done in
                client.subscribe(to: notifying, handler: { notified.put($0) }) { _ in
                    client.subscribe(to: indicating, handler: { indicated.put($0) }) { _ in
                        client.readMultipleVariable([0x003F, 0x0042]) { done($0) }
                    }
                }
            }
            #expect(enabled == .success([GATTHandleValue(handle: 0x003F, value: [0x01, 0x00]), GATTHandleValue(handle: 0x0042, value: [0x02, 0x00])]))

            // Burst control 0x0044: `01 N` → N notifications, `02 N` → N indications, numbered 0..N−1.
            let asked = fixture.gatt(handle) { client, done in
                client.write([0x01, 50, 0x00], to: 0x0044) { first in
                    client.write([0x02, 10, 0x00], to: 0x0044) { second in done([first, second].map { $0.map { true } }) }
                }
            }
            #expect(asked == [.success(true), .success(true)])
            #expect(notified.wait(for: 50, within: 5) == (0..<50).map { burst($0, of: 50) })
            // Each indication waits for our confirmation: all ten arriving proves the host confirms them.
            #expect(indicated.wait(for: 10, within: 5) == (0..<10).map { burst($0, of: 10) })

            // Disable: CCCDs read 00 00 again and a new burst is refused or sends nothing to us.
            let disabled = fixture.gatt(handle) { client, done in
                client.unsubscribe(from: notifying) { _ in
                    client.unsubscribe(from: indicating) { _ in client.readMultipleVariable([0x003F, 0x0042]) { done($0) } }
                }
            }
            #expect(disabled == .success([GATTHandleValue(handle: 0x003F, value: [0x00, 0x00]), GATTHandleValue(handle: 0x0042, value: [0x00, 0x00])]))
            _ = fixture.gatt(handle) { client, done in client.write([0x01, 5, 0x00], to: 0x0044) { _ in client.read(0x0003) { done($0) } } }
            #expect(notified.wait(for: 51, within: 0.3).count == 50)
        }
    }

    @Test func heartRateNotificationsFollowTheirPattern() throws {
        let fixture = try PeerGATT.shared.get()
        try fixture.withAlpha { handle in
            let cache = try fixture.discover(handle)
            let measurement = try #require(cache.characteristic(valueHandle: 0x001B))
            let values = Waiter<[UInt8]>()
            let subscribed = fixture.gatt(handle) { client, done in
                client.subscribe(to: measurement, handler: { values.put($0) }) { done($0.map { true }) }
            }
            #expect(subscribed == .success(true))
            // Every 100 ms `00 bpm`, bpm = 60 + n % 60 from n = 0.
            let received = values.wait(for: 3, within: 3)
            #expect(received.prefix(3) == [[0x00, 60], [0x00, 61], [0x00, 62]])
        }
    }

    @Test func serviceChangedIndicationRediscoversTheDynamicService() throws {
        let fixture = try PeerGATT.shared.get()
        _ = try fixture.peer.send("restore")
        defer { _ = try? fixture.peer.send("restore") }
        try fixture.withAlpha { handle in
            let changes = Waiter<GATTServiceChange>()
            let cache = try #require(fixture.gatt(handle) { client, done in
                client.serviceChangeHandler = { changes.put($0) }
                client.discoverDatabase { done($0) }  // also enables Service Changed indications (CCCD 0x0009)
            }).get()
            #expect(cache.services.count == 8)
            let cccd = fixture.gatt(handle) { client, done in client.read(0x0009) { done($0) } }
            #expect(cccd == .success([0x02, 0x00]))

            // Control 02: the dynamic service 0CB10200 appears at 0x004F–0x0051 and Service Changed indicates that range.
            let dynamic = GATTService(uuid: BluetoothUUID("0CB10200-7E57-4C0D-A9E5-0123456789AB")!, isPrimary: true,
                                      startHandle: 0x004F, endHandle: 0x0051)
            _ = fixture.gatt(handle) { client, done in client.write([0x02], to: 0x004E) { done($0.map { true }) } }
            let added = try #require(changes.wait(within: 5))
            #expect(added.range == 0x004F...0x0051)
            #expect(added.added == [dynamic])
            #expect(added.removed.isEmpty)
            #expect(added.error == nil)
            let after = fixture.gatt(handle) { client, done in
                done((client.cache.characteristics[0x004F], client.cache.services.count))
            }
            #expect(after?.0 == [GATTCharacteristic(declarationHandle: 0x0050, valueHandle: 0x0051, endHandle: 0x0051,
                                                    properties: .read, uuid: BluetoothUUID("0CB10201-7E57-4C0D-A9E5-0123456789AB")!)])
            #expect(after?.1 == 9)
            let value = fixture.gatt(handle) { client, done in client.read(0x0051) { done($0) } }
            #expect(value == .success(utf8("dynamic")))

            // Control 02 again removes it.
            _ = fixture.gatt(handle) { client, done in client.write([0x02], to: 0x004E) { done($0.map { true }) } }
            let all = changes.wait(for: 2, within: 5)
            let removed = all.dropFirst().first
            #expect(removed?.removed == [dynamic])
            #expect(removed?.added == [])
        }
    }

    @Test func exchangeMTUThenTheLongValueFitsOneRead() throws {
        let fixture = try PeerGATT.shared.get()
        try fixture.withAlpha { handle in
            let mark = fixture.eventCount
            // Exchange MTU (Vol 3 Part G §4.3.1): we offer 517, the peer serves up to 517.
            let mtu = fixture.gatt(handle) { client, done in client.exchangeMTU { done($0) } }
            #expect(mtu == .success(517))
            #expect(fixture.event(after: mark) { event -> UInt16? in
                if case .mtuChanged(handle, let value) = event { value } else { nil }
            } == 517)
            // A plain Read now returns all 512 bytes (ATT_MTU − 1 = 516 ≥ 512).
            let read = fixture.gatt(handle) { client, done in
                done(client.mtu)
            }
            #expect(read == 517)
            let whole = fixture.gatt(handle) { client, done in client.read(0x002F) { done($0) } }
            #expect(whole == .success((0..<512).map { UInt8($0 & 0xFF) }))
        }
    }
}
