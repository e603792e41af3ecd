// LinkATT, sans-I/O: raw requests and the GATT client sharing one ATT bearer, MTU offers and the link's end.

@testable import OCBHost
import OCBGATT
import Testing

/// Collects completions (everything runs synchronously in these tests).
private final class Results<T> {
    var items: [T] = []
}

@Suite struct LinkATTTests {
    let t0 = ContinuousClock.now

    @Test func rawRequestAndGATTProcedureShareTheBearerInOrder() {
        let att = LinkATT(handle: 0x0040)
        let raw = Results<Result<[UInt8], HostError>>()
        let gatt = Results<Result<[UInt8], GATTError>>()
        // ATT_READ_REQ 0x0A | handle 0x0003 (Core v5.4 Vol 3 Part F §3.4.4.3) goes out at once.
        var output = att.request([0x0A, 0x03, 0x00], now: t0) { raw.items.append($0) }
        #expect(output.send == [[0x0A, 0x03, 0x00]])
        // A GATT read behind it waits: one request outstanding per bearer (§3.3.2).
        att.client.read(0x0005) { gatt.items.append($0) }
        output = att.run(now: t0)
        #expect(output.send.isEmpty)
        // ATT_READ_RSP for the raw request; the client's request follows.
        output = att.receive([0x0B] + Array("OCB".utf8), now: t0)
        #expect(raw.items == [.success([0x0B] + Array("OCB".utf8))])
        #expect(output.send == [[0x0A, 0x05, 0x00]])
        // An Error Response (Read Not Permitted 0x02) is a response too for the client: a typed GATT error.
        _ = att.receive([0x01, 0x0A, 0x05, 0x00, 0x02], now: t0)
        #expect(gatt.items == [.failure(.att(.readNotPermitted, handle: 0x0005))])
    }

    @Test func aReceivedPDUSaysWhetherTheTransactionDeadlineMoved() {
        // The host re-arms its timer only when it did: not for each notification at line rate.
        let att = LinkATT(handle: 0x0040)
        let raw = Results<Result<[UInt8], HostError>>()
        // Handle Value Notification 0x1B | 0x0003 | 2 bytes (Vol 3 Part F §3.4.7.1), nothing outstanding.
        #expect(!att.receive([0x1B, 0x03, 0x00, 0x06, 0x48], now: t0).deadlineChanged)
        // ATT_READ_REQ goes out: its 30 s deadline starts (§3.3.3); a notification meanwhile leaves it where it is.
        _ = att.request([0x0A, 0x03, 0x00], now: t0) { raw.items.append($0) }
        #expect(att.nextDeadline == t0 + .seconds(30))
        #expect(!att.receive([0x1B, 0x03, 0x00, 0x06, 0x49], now: t0 + .seconds(1)).deadlineChanged)
        // ATT_READ_RSP completes it: no deadline any more.
        #expect(att.receive([0x0B, 0x01], now: t0 + .seconds(2)).deadlineChanged)
        #expect(att.nextDeadline == nil)
        #expect(raw.items == [.success([0x0B, 0x01])])
    }

    @Test func rawErrorResponseIsDeliveredAsItsBytesAndNonRequestsAreRefused() {
        let att = LinkATT(handle: 0x0040)
        let raw = Results<Result<[UInt8], HostError>>()
        _ = att.request([0x0A, 0x46, 0x00], now: t0) { raw.items.append($0) }
        _ = att.receive([0x01, 0x0A, 0x46, 0x00, 0x02], now: t0)
        // 0x52 Write Command is not a request (§3.4.5.3); an empty PDU does not decode.
        _ = att.request([0x52, 0x31, 0x00, 0x01], now: t0) { raw.items.append($0) }
        _ = att.request([], now: t0) { raw.items.append($0) }
        #expect(raw.items.count == 3)
        #expect(raw.items.first == .success([0x01, 0x0A, 0x46, 0x00, 0x02]))
        #expect(raw.items.dropFirst().allSatisfy { if case .failure(.attRequestRejected) = $0 { true } else { false } })
    }

    @Test func exchangeMTUOffersTheAskedValueOnceAndReportsTheAgreedMTU() {
        let att = LinkATT(handle: 0x0040)
        let raw = Results<Result<[UInt8], HostError>>()
        // ATT_EXCHANGE_MTU_REQ 0x02 | Client Rx MTU 100 (§3.4.2.1).
        var output = att.exchangeMTU(100, now: t0) { raw.items.append($0) }
        #expect(output.send == [[0x02, 0x64, 0x00]])
        // ATT_EXCHANGE_MTU_RSP with Server Rx MTU 517: ATT_MTU = min(100, 517) = 100 (§3.4.2.2).
        output = att.receive([0x03, 0x05, 0x02], now: t0)
        #expect(output.mtu == 100)
        #expect(raw.items == [.success([0x03, 0x05, 0x02])])
        #expect(att.client.mtu == 100)
        // Offered once per connection.
        _ = att.exchangeMTU(200, now: t0) { raw.items.append($0) }
        if case .failure(.attRequestRejected)? = raw.items.last {} else { Issue.record("second exchange: \(String(describing: raw.items.last))") }
    }

    @Test func gattMTUOfferIsWhatGoesOnTheWireAndEveryLayerSeesTheAgreedValue() {
        // Core v5.4 Vol 3 Part G §4.3.1 over the production wiring (GATT client → LinkATT → ATTBearer).
        let att = LinkATT(handle: 0x0040)
        let result = Results<Result<Int, GATTError>>()
        att.client.exchangeMTU(clientRxMTU: 100) { result.items.append($0) }
        var output = att.run(now: t0)
        // Client → Server: ATT_EXCHANGE_MTU_REQ 0x02 | Client Rx MTU 100 (0x0064), not the bearer's default 517.
        #expect(output.send == [[0x02, 0x64, 0x00]])
        // Server → Client: ATT_EXCHANGE_MTU_RSP 0x03 | Server Rx MTU 247 (0x00F7): ATT_MTU = min(100, 247) = 100.
        output = att.receive([0x03, 0xF7, 0x00], now: t0)
        #expect(result.items == [.success(100)])
        #expect(output.mtu == 100 && att.mtu == 100 && att.client.bearer.mtu == 100 && att.client.bearer.receiveMTU == 100)
    }

    @Test func aWrongKindOfResponseFailsTheGATTRequestAtOnceAndTheQueueMovesOn() {
        let att = LinkATT(handle: 0x0040)
        let gatt = Results<Result<[UInt8], GATTError>>()
        let raw = Results<Result<[UInt8], HostError>>()
        att.client.read(0x0005) { gatt.items.append($0) }
        var output = att.run(now: t0)
        #expect(output.send == [[0x0A, 0x05, 0x00]])
        _ = att.request([0x0A, 0x07, 0x00], now: t0) { raw.items.append($0) }
        // ATT_WRITE_RSP 0x13 to a Read Request: a protocol error now, not after the 30 s transaction timeout.
        output = att.receive([0x13], now: t0)
        #expect(gatt.items == [.failure(.unexpectedResponse("ATT_WRITE_RSP"))])
        #expect(output.send == [[0x0A, 0x07, 0x00]])
        #expect(!att.isClosed)
    }

    @Test func linkEndFailsRawRequestsWithItsErrorAndGATTProceduresWithDisconnected() {
        let att = LinkATT(handle: 0x0040)
        let raw = Results<Result<[UInt8], HostError>>()
        let gatt = Results<Result<[UInt8], GATTError>>()
        _ = att.request([0x0A, 0x03, 0x00], now: t0) { raw.items.append($0) }
        att.client.read(0x0005) { gatt.items.append($0) }
        att.client.read(0x0017) { gatt.items.append($0) }
        _ = att.run(now: t0)
        att.close(.disconnected(0x0040, .remoteUserTerminatedConnection), now: t0)
        #expect(raw.items == [.failure(.disconnected(0x0040, .remoteUserTerminatedConnection))])
        #expect(gatt.items == [.failure(.disconnected), .failure(.disconnected)])
        #expect(att.isClosed)
        // Afterwards everything fails at once.
        _ = att.request([0x0A, 0x03, 0x00], now: t0) { raw.items.append($0) }
        #expect(raw.items.last == .failure(.disconnected(0x0040, .remoteUserTerminatedConnection)))
    }

    @Test func transactionTimeoutClosesTheBearerFor30Seconds() {
        let att = LinkATT(handle: 0x0040)
        let raw = Results<Result<[UInt8], HostError>>()
        _ = att.request([0x0A, 0x03, 0x00], now: t0) { raw.items.append($0) }
        // The deadline is 30 s after sending (§3.3.3).
        #expect(att.nextDeadline == t0 + .seconds(30))
        _ = att.tick(now: t0 + .seconds(29))
        #expect(raw.items.isEmpty)
        _ = att.tick(now: t0 + .seconds(30))
        #expect(raw.items == [.failure(.attTimeout(0x0040))])
        #expect(throws: HostError.attTimeout(0x0040)) { _ = try att.command([0x52, 0x31, 0x00, 0x01], now: .now) }
    }
}
