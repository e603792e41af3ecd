// The probe's L2CAPSocket checks: connect timeout, cancel, and a real ATT exchange (Exchange MTU) with the peer.

import OCBATT
import OCBHCI
import OCBCore
import Dispatch
import Foundation
import OCBHost

/// What arrives from an ``L2CAPSocket``: the connect outcome, a PDU, or the end.
enum SocketDelivery: Sendable {
    case connected(Result<ConnectionHandle, HCITransportError>)
    case pdu([UInt8])
    case closed(HCITransportError?)
}

/// Checks of L2CAPSocket (ATT fixed channel, CID 4) through the guest kernel's LE stack.
enum ATTChecks {
    private static let queue = DispatchQueue(label: "probe.att")

    /// Starts connecting a new socket to `peer`; every callback lands in the returned inbox.
    private static func connect(_ peer: BluetoothAddress, _ type: AddressType, timeout: Duration)
        -> Result<(L2CAPSocket, Inbox<SocketDelivery>), HCITransportError> {
        let socket = L2CAPSocket()
        let inbox = Inbox<SocketDelivery>()
        do {
            try socket.connect(to: peer, addressType: type, timeout: timeout, queue: queue,
                               onConnect: { inbox.put(.connected($0)) }, onPDU: { inbox.put(.pdu($0)) },
                               onClose: { inbox.put(.closed($0)) })
        } catch {
            return .failure(error)
        }
        return .success((socket, inbox))
    }

    private static func connectOutcome(_ inbox: Inbox<SocketDelivery>, within timeout: Duration) -> Result<ConnectionHandle, HCITransportError>? {
        guard case let .connected(outcome) = inbox.take(within: timeout, where: {
            if case .connected = $0 { return true }
            return false
        }) else { return nil }
        return outcome
    }

    /// A connect to an address nobody advertises must end with ``HCITransportError/timedOut(operation:)`` after `timeout`.
    static func connectTimeout(absent: BluetoothAddress, timeout: Duration, report: ProbeReport) {
        let started = ContinuousClock.now
        switch connect(absent, .random, timeout: timeout) {
        case let .failure(error):
            report.fail("att timeout", "connect threw \(error)")
        case let .success((_, inbox)):
            let outcome = connectOutcome(inbox, within: timeout + .seconds(5))
            let elapsed = ContinuousClock.now - started
            switch outcome {
            case .failure(.timedOut)?:
                report.check("att timeout", elapsed >= timeout && elapsed < timeout + .seconds(2),
                             "onConnect(timedOut) after \(elapsed) (timeout \(timeout))")
            case let other:
                report.fail("att timeout", "onConnect \(other.map { "\($0)" } ?? "never called") after \(elapsed)")
            }
        }
    }

    /// cancel() during a connect to an absent address must give ``HCITransportError/cancelled`` promptly.
    static func connectCancel(absent: BluetoothAddress, report: ProbeReport) {
        switch connect(absent, .random, timeout: .seconds(30)) {
        case let .failure(error):
            report.fail("att cancel", "connect threw \(error)")
        case let .success((socket, inbox)):
            Thread.sleep(forTimeInterval: 0.3)
            let started = ContinuousClock.now
            socket.cancel()
            let outcome = connectOutcome(inbox, within: .seconds(3))
            let elapsed = ContinuousClock.now - started
            if case .failure(.cancelled)? = outcome {
                report.pass("att cancel", "onConnect(cancelled) \(elapsed) after cancel()")
            } else {
                report.fail("att cancel", "onConnect \(outcome.map { "\($0)" } ?? "never called") after cancel()")
            }
        }
    }

    /// Connects to `peer`, sends ATT_EXCHANGE_MTU_REQ and expects ATT_EXCHANGE_MTU_RSP; then closes.
    static func exchangeMTU(peer: BluetoothAddress, type: AddressType, report: ProbeReport) {
        let started = ContinuousClock.now
        let socket: L2CAPSocket
        let inbox: Inbox<SocketDelivery>
        switch connect(peer, type, timeout: .seconds(15)) {
        case let .failure(error):
            report.fail("att connect", "connect threw \(error)")
            return
        case let .success(made):
            (socket, inbox) = made
        }
        switch connectOutcome(inbox, within: .seconds(20)) {
        case let .success(handle)?:
            report.check("att connect", handle.rawValue <= 0x0EFF && socket.connectionHandle == handle,
                         "connected to \(peer) (\(type)) in \(ContinuousClock.now - started), connection handle 0x\(String(handle.rawValue, radix: 16))")
        case let .failure(error)?:
            report.fail("att connect", "onConnect(\(error)) after \(ContinuousClock.now - started)")
            return
        case nil:
            report.fail("att connect", "onConnect never called")
            socket.close()
            return
        }
        let request = ATTExchangeMTURequest(clientRxMTU: 517)
        do {
            try socket.send(request.bytes)
        } catch {
            report.fail("att exchange mtu", "send threw \(error)")
        }
        let reply = inbox.take(within: .seconds(5)) {
            if case .pdu = $0 { return true }
            if case .closed = $0 { return true }
            return false
        }
        switch reply {
        case let .pdu(bytes)?:
            if let response = try? ATTExchangeMTUResponse(bytes: bytes) {
                report.check("att exchange mtu", response.serverRxMTU >= 23,
                             "ATT_EXCHANGE_MTU_RSP server Rx MTU \(response.serverRxMTU) (\(Hex.string(bytes)))")
            } else {
                report.fail("att exchange mtu", "reply is not ATT_EXCHANGE_MTU_RSP: \(Hex.string(bytes))")
            }
        case let .closed(error)?:
            report.fail("att exchange mtu", "socket closed: \(error.map { "\($0)" } ?? "nil")")
        default:
            report.fail("att exchange mtu", "no reply within 5 s")
        }
        socket.close()
        let end = inbox.take(within: .seconds(3)) {
            if case .closed = $0 { return true }
            return false
        }
        if case let .closed(error)? = end {
            report.check("att close", error == nil, "onClose(\(error.map { "\($0)" } ?? "nil"))")
        } else {
            report.fail("att close", "no onClose within 3 s")
        }
    }

    /// Connects to `peer`, finds characteristic 0xFFF1 (ATT_READ_BY_TYPE_REQ), writes it (ATT_WRITE_CMD) so the peer
    /// disconnects (reason 0x15), and expects `onClose(.closed)` and then ``HCITransportError/notOpen`` from send.
    /// The connect is tried up to three times, a second apart: the previous check's link may still be going down in
    /// the kernel (its socket was just closed), and a connect meeting that link fails at once.
    static func remoteDisconnect(peer: BluetoothAddress, type: AddressType, report: ProbeReport) {
        var attempt: (socket: L2CAPSocket, inbox: Inbox<SocketDelivery>)?
        var failures: [String] = []
        for _ in 0..<3 where attempt == nil {
            switch connect(peer, type, timeout: .seconds(15)) {
            case let .failure(error):
                failures.append("connect threw \(error)")
            case let .success((socket, inbox)):
                switch connectOutcome(inbox, within: .seconds(20)) {
                case .success?: attempt = (socket, inbox)
                case let .failure(error)?: failures.append("onConnect(\(error))")
                case nil: failures.append("no onConnect within 20 s")
                }
            }
            if attempt == nil { Thread.sleep(forTimeInterval: 1) }
        }
        guard let (socket, inbox) = attempt else {
            report.fail("att remote disconnect", "could not connect to \(peer): \(failures.joined(separator: ", "))")
            return
        }
        if !failures.isEmpty { report.note("att remote disconnect", "connected after \(failures.joined(separator: ", "))") }
        let find = ATTReadByTypeRequest(startingHandle: 0x0001, endingHandle: 0xFFFF, attributeType: BluetoothUUID(0xFFF1))
        try? socket.send(find.bytes)
        guard case let .pdu(bytes)? = inbox.take(within: .seconds(5), where: { if case .pdu = $0 { true } else { false } }),
              let response = try? ATTReadByTypeResponse(bytes: bytes), let handle = response.attributeDataList.first?.attributeHandle else {
            report.fail("att remote disconnect", "no ATT_READ_BY_TYPE_RSP for 0xFFF1")
            socket.close()
            return
        }
        let started = ContinuousClock.now
        do {
            try socket.send(ATTWriteCommand(attributeHandle: handle, attributeValue: [0x01]).bytes)
        } catch {
            report.fail("att remote disconnect", "send ATT_WRITE_CMD threw \(error)")
        }
        let end = inbox.take(within: .seconds(10)) { if case .closed = $0 { true } else { false } }
        guard case let .closed(error)? = end else {
            report.fail("att remote disconnect", "no onClose within 10 s of the peer's disconnect")
            socket.close()
            return
        }
        report.check("att remote disconnect", error == .closed,
                     "onClose(\(error.map { "\($0)" } ?? "nil")) \(ContinuousClock.now - started) after ATT_WRITE_CMD to 0x\(String(handle.rawValue, radix: 16))")
        do {
            try socket.send(ATTExchangeMTURequest(clientRxMTU: 23).bytes)
            report.fail("att send after close", "send succeeded on a closed socket")
        } catch {
            report.check("att send after close", error == .notOpen, "send threw \(error)")
        }
    }
}
