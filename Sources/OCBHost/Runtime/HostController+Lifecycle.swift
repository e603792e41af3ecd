// Opening and closing the transport, the one timer, and routing every received packet.

import OCBCore
import Dispatch
import Foundation
import OCBHCI
import OCBL2CAP

extension HostController {
    /// Opens the configured transport and runs bring-up: Reset, Read Local Version Information, Supported Commands,
    /// Supported Features, LE Supported Features, Read BD_ADDR, the LE (or shared) buffer sizes, Set Event Mask and
    /// LE Set Event Mask (Vol 4 Part E §7.3.2, §7.4, §7.8.2, §7.3.1, §7.8.1). Fails with
    /// ``HostError/noBluetoothSupport``, ``HostError/permissionDenied(_:)``, ``HostError/transportFailed(_:)``,
    /// ``HostError/commandTimeout(_:)`` or ``HostError/commandFailed(_:_:)``; the completion runs exactly once, also
    /// when ``stop()`` comes first. A started host is stopped and started again.
    public func start(completion: @escaping @Sendable (Result<ControllerInfo, HostError>) -> Void) {
        queue.async { self.startOnQueue(completion) }
    }

    /// Ends scanning, every connection and attempt (with ``HostError/stopped``, links with reason 0x16 Connection
    /// Terminated By Local Host) and closes the transport. No effect when not started.
    public func stop() {
        stop {}
    }

    /// ``stop()``; `completion` runs on the host queue once the transport is closed. Commands already sent (the scan
    /// disable of a `stopScan` just before) get up to ``stopCommandWait`` to be answered first, so the controller ends
    /// what they asked and a btsnoop recording holds their answers (a replay of it then ends as the session did).
    public func stop(completion: @escaping @Sendable () -> Void) {
        queue.async {
            self.finishCommands(until: ContinuousClock.now + Self.stopCommandWait) {
                if self.transport != nil { self.tearDown(.stopped, reason: .connectionTerminatedByLocalHost) }
                completion()
            }
        }
    }

    /// How long ``stop(completion:)`` waits for the answers to commands already sent: 250 ms.
    static let stopCommandWait = Duration.milliseconds(250)

    /// Runs `then` on the queue once no command awaits its answer, or at `deadline` (real time: a controller that
    /// does not answer does not hold a stop).
    private func finishCommands(until deadline: ContinuousClock.Instant, _ then: @escaping @Sendable () -> Void) {
        guard transport != nil, commands.awaitingCount > 0, ContinuousClock.now < deadline else { return then() }
        queue.asyncAfter(deadline: .now() + .milliseconds(2)) { self.finishCommands(until: deadline, then) }
    }

    private func startOnQueue(_ completion: @escaping @Sendable (Result<ControllerInfo, HostError>) -> Void) {
        if transport != nil { tearDown(.stopped, reason: .connectionTerminatedByLocalHost) }
        generation &+= 1
        let current = generation
        setState(.resetting)
        let opened: any HCITransport
        do {
            opened = try configuration.makeTransport()
            if let path = configuration.btsnoopPath {
                do { capture = try BtsnoopFileWriter(path: path) } catch {
                    emit(.recordingProblem("btsnoop recording to \(path) is off: \(error)"))
                }
            }
            try opened.open(queue: queue, onPackets: { [weak self] walk in
                guard let self, self.generation == current else { return }
                self.receive(walk)
            }, onClose: { [weak self] error in
                guard let self, self.generation == current, self.transport != nil else { return }
                self.emit(.transportLost("transport closed: \(error.map { "\($0)" } ?? "end of file")"))
                self.tearDown(.transportClosed, reason: .unspecifiedError)
            })
        } catch {
            let hostError = Self.hostError(opening: error)
            capture?.close()
            capture = nil
            setState(hostError == .noBluetoothSupport ? .unsupported : (Self.isPermission(hostError) ? .unauthorized : .poweredOff))
            deliver { completion(.failure(hostError)) }
            return
        }
        transport = opened
        clock = opened.clock ?? SystemHostClock.shared
        timer.clock = clock
        bringUp { [self] result in
            // The completion is delivered exactly once, also when the host was stopped or torn down meanwhile.
            guard generation == current else {
                let error: HostError = result.error ?? .stopped
                return deliver { completion(.failure(error)) }
            }
            switch result {
            case .success(let info):
                self.info = info
                loadBonds(controller: info.publicAddress != .zero ? info.publicAddress : info.ownAddress.address)
                setState(.poweredOn)
                emit(.bonds(bondBook.bonds.values.sorted { $0.peer < $1.peer }))
            case .failure(let error):
                tearDown(error, reason: .unspecifiedError)
            }
            deliver { completion(result) }
        }
    }

    /// Maps a transport's opening failure to the host's error.
    static func hostError(opening error: any Error) -> HostError {
        if let hostError = error as? HostError { return hostError }
        guard let transportError = error as? HCITransportError else { return .transportFailed("\(error)") }
        switch transportError {
        case .noBluetoothSupport: return .noBluetoothSupport
        case .permissionDenied(let operation): return .permissionDenied(operation)
        default: return .transportFailed("\(transportError)")
        }
    }

    static func isPermission(_ error: HostError) -> Bool {
        if case .permissionDenied = error { return true }
        return false
    }

    /// Ends everything with `error`: commands, scan, attempts, connections; closes the transport and sets `state`
    /// (on `queue`).
    func tearDown(_ error: HostError, reason: HCIErrorCode, state: HostState = .poweredOff) {
        generation &+= 1
        let closing = transport
        transport = nil
        closing?.close()
        failAllCommands(error)
        if scan != nil {
            scan = nil
            discoveryRecordSpares.removeAll()
            emit(.scanStopped(error))
        }
        for action in attempts.failAll(status: 0x1F) {
            if case .finished(let attempt, _) = action {
                attemptOptions[attempt.id] = nil
                emit(.connectionFailed(attempt.peer, error))
            }
        }
        for handle in links.keys.sorted() {
            endLink(handle, reason: reason, error: error)
        }
        acl = nil
        recombiner = L2CAPRecombiner()
        reassembler = ExtendedAdvertisingReassembler()
        commandFamily = nil
        info = nil
        capture?.close()
        capture = nil
        timer.cancel()
        setState(state)
    }

    // MARK: - Packets

    /// Sends a packet to the controller, recording it.
    func write(_ packet: HCIPacket) {
        guard let transport else { return }
        record(packet, direction: .sent)
        do {
            try transport.send(packet)
            if packet.type == .command, packet.bytes.count >= 2 {
                HostTimeline.commandWritten(UInt16(packet.bytes[0]) | UInt16(packet.bytes[1]) << 8)
            }
            for notice in transport.takeNotices() { emit(.notice(notice)) }
        } catch {
            // A strict replay's mismatch is the reason a test fails: always said, whatever the app's alert settings.
            if case .replayMismatch(let mismatch) = error { emit(.notice(mismatch.description)) }
            emit(.transportLost("send failed: \(error)"))
            tearDown(.transportFailed("\(error)"), reason: .unspecifiedError)
        }
    }

    private func record(_ packet: HCIPacket, direction: CaptureDirection) {
        guard let capture else { return }
        let microseconds = Int64((Date().timeIntervalSince1970 * 1_000_000).rounded())
        try? capture.write(packet, direction: direction, timestamp: microseconds)
    }

    /// The packets of one read (``HCITransport``'s `onPackets`), each to ``receive(_:_:)``, but legacy advertising
    /// reports skipped unread while the host is behind the controller and waits for a command's answer, an ATT
    /// response or a fresh connection attempt's LE Connection Complete (``SerialHost/receive(_:behind:awaiting:_:)``).
    func receive(_ walk: HCIPacketWalk) {
        let recordSkipped: ((HCIPacketType, ArraySlice<UInt8>) -> Void)? = capture == nil ? nil : { type, bytes in
            self.record(HCIPacket(type: type, bytes: Array(bytes)), direction: .received)
        }
        receive(walk, behind: { transport?.isBehind == true }, awaiting: { awaitsAnswer },
                skipped: recordSkipped) { type, bytes in
            receive(type, bytes)
        }
    }

    /// One packet from the controller: its type and its bytes, a slice of the read it came in. An advertising report
    /// is read where it lies; any other packet is copied into a value.
    func receive(_ type: HCIPacketType, _ bytes: ArraySlice<UInt8>) {
        if capture != nil { record(HCIPacket(type: type, bytes: Array(bytes)), direction: .received) }
        switch type {
        case .event:
            // The scan path: a well-formed report event of legacy PDUs goes to the scan read in place, not decoded into values.
            if let reports = LEAdvertisingReportView(eventPacket: bytes), observe(reports) { return }
            HostTimeline.eventRead(bytes)
            do {
                let event = try HCIEvent(bytes: Array(bytes))
                handleEvent(event)
                // A report changes no deadline but the scan's, which observe(_:) re-arms for when it moved.
                if event.isAdvertisingReport { return }
            } catch {
                emit(.diagnostic("dropped malformed event: \(error)"))
            }
        case .acl:
            do {
                handleACL(try HCIACLDataPacket(bytes: Array(bytes)))
            } catch {
                emit(.diagnostic("dropped malformed ACL packet: \(error)"))
            }
            // ACL data moves only the links' ATT deadlines, which applyATT re-arms for when they moved, and commands
            // it causes (a connection update, a disconnect) re-arm on sending: no check per packet here.
            return
        default:
            break
        }
        rescheduleTimer()
    }

    /// ``SerialHost/awaitsAnswer``: a command's answer, an ATT response (a link's deadline), or a fresh attempt's
    /// LE Connection Complete.
    var awaitsAnswer: Bool { commands.awaitingCount > 0 || attemptIsFresh || nextLinkDeadline != nil }

    /// ``SerialHost/transportHasInputWaiting``.
    var transportHasInputWaiting: Bool { transport?.hasInputWaiting == true }

    /// A connection attempt went on air within ``HostConfiguration/attemptSheddingWindow``: its LE Connection
    /// Complete, when the peer is at hand, may be behind the reports. An older attempt waits for a peer that is not
    /// (a reconnect may wait for hours), and skipping reports would not bring it sooner.
    var attemptIsFresh: Bool {
        guard let sent = attemptSentAt else { return false }
        return clock.now - sent < configuration.attemptSheddingWindow
    }

    // MARK: - Timer

    /// Arms the one timer for the earliest deadline of every state machine.
    func rescheduleTimer() {
        guard transport != nil else { return }
        let earliest = DeadlineTimer.earliest
        let next = earliest(earliest(commands.nextDeadline, attempts.nextDeadline), earliest(scan?.merger.nextDeadline, earliest(nextLinkDeadline, nextSecurityDeadline)))
        if next == timer.deadline { return }  // armed already (or disarmed already): no handler to make
        timer.arm(next, on: queue) { [weak self] in
            guard let self else { return }
            self.tick(now: self.clock.now)
        }
    }

    /// Advances every state machine to `now`.
    func tick(now: ContinuousClock.Instant) {
        tickCommands(now: now)
        tickAttempts(now: now)
        tickScan(now: now)
        tickLinks(now: now)
        tickSecurity(now: now)
        rescheduleTimer()
    }
}
