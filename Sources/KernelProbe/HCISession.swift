// An open HCISocketTransport with blocking helpers: send a command and wait for its Command Complete, wait for events.

import Dispatch
import OCBHCI
import OCBHost

/// What arrives from an ``HCISocketTransport``: a packet, or the transport's end.
enum TransportDelivery: Sendable {
    case packet(HCIPacket)
    case closed(HCITransportError?)
}

/// A transport opened for the probe; every received packet lands in ``inbox``.
final class HCISession: @unchecked Sendable {
    let transport: HCISocketTransport
    let inbox = Inbox<TransportDelivery>()
    private let queue = DispatchQueue(label: "probe.hci")

    /// Opens hci`controller` on `channel`. Throws what ``HCISocketTransport/open(queue:onPacket:onClose:)`` throws.
    init(controller: UInt16, channel: HCISocketTransport.Channel) throws(HCITransportError) {
        transport = HCISocketTransport(controller: controller, channel: channel)
        let inbox = self.inbox
        try transport.open(queue: queue, onPacket: { inbox.put(.packet($0)) }, onClose: { inbox.put(.closed($0)) })
    }

    /// Sends `command` and waits up to `timeout` for the Command Complete with its opcode.
    /// Returns the decoded return parameters, or a message saying what went wrong.
    func run<C: HCICommand>(_ command: C, timeout: Duration = .seconds(5)) -> Result<C.ReturnParameters, ProbeError> {
        do {
            try transport.send(command.packet)
        } catch {
            return .failure(ProbeError("send \(C.opcode): \(error)"))
        }
        var complete: HCICommandCompleteEvent?
        var statusFailure: HCICommandStatusEvent?
        _ = inbox.take(within: timeout) { delivery in
            guard case let .packet(packet) = delivery, packet.type == .event, let event = try? HCIEvent(packet: packet) else {
                return false
            }
            switch event {
            case let .commandComplete(found) where found.opcode == C.opcode:
                complete = found
                return true
            case let .commandStatus(found) where found.opcode == C.opcode && !found.status.isSuccess:
                statusFailure = found
                return true
            default:
                return false
            }
        }
        if let statusFailure { return .failure(ProbeError("\(C.opcode) failed: status \(statusFailure.status)")) }
        guard let complete else { return .failure(ProbeError("no Command Complete for \(C.opcode) within \(timeout)")) }
        do {
            return .success(try complete.returnParameters(of: C.self))
        } catch {
            return .failure(ProbeError("\(C.opcode): \(error)"))
        }
    }

    /// Waits up to `timeout` for an event for which `match` returns a value; other packets are dropped.
    func waitForEvent<T>(within timeout: Duration, _ match: (HCIEvent) -> T?) -> T? {
        var found: T?
        _ = inbox.take(within: timeout) { delivery in
            guard case let .packet(packet) = delivery, packet.type == .event, let event = try? HCIEvent(packet: packet),
                  let value = match(event) else { return false }
            found = value
            return true
        }
        return found
    }

    /// Closes the transport and waits (up to 2 s) for its `onClose`; returns the error it reported (nil after close()).
    func close() -> (closed: Bool, error: HCITransportError?) {
        transport.close()
        var reported: HCITransportError??
        _ = inbox.take(within: .seconds(2)) { delivery in
            guard case let .closed(error) = delivery else { return false }
            reported = .some(error)
            return true
        }
        guard let reported else { return (false, nil) }
        return (true, reported)
    }
}

/// A probe failure message.
struct ProbeError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
