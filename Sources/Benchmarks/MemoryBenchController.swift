// The scan-path benchmark's controller over a MemoryTransport: answers bring-up, then hands the report stream over at once.

import Foundation
import OCBHCI
import OCBHost

/// ``BenchController``'s answers without a socket: the controller side of a ``Host/MemoryTransport``. Every command
/// gets ``BenchController/commandComplete(_:_:)``; when LE Set Scan Enable (Core v5.4 Vol 4 Part E §7.8.11) enables
/// scanning, the whole `stream` is handed over in one call (read by the host in 16 KiB chunks, as from a socket), and
/// `marker` again every 5 ms until ``stop()``.
final class MemoryBenchController: @unchecked Sendable {
    /// The host's side of the wire.
    let transport: MemoryTransport
    private let state: State

    /// When the stream was handed over; nil before.
    var streamStart: ContinuousClock.Instant? { state.lock.withLock { state.started } }
    /// The process's CPU seconds when the stream began.
    var startCPU: Double { state.lock.withLock { state.processCPUAtStart } }
    /// CPU seconds this controller spent handing the stream over (in the host's send, on the host's queue).
    var ownCPU: Double { state.lock.withLock { state.cpuUsed } }

    init(stream: [UInt8], marker: [UInt8]) {
        let state = State(stream: stream, marker: marker)
        self.state = state
        transport = MemoryTransport { packet, transport in state.answer(packet, transport) }
    }

    /// Stops the marker and ends the transport.
    func stop() {
        state.lock.withLock { state.stopped = true }
        transport.end()
    }
}

/// What the controller side keeps: the stream, and when it began.
private final class State: @unchecked Sendable {
    let stream: [UInt8]
    let marker: [UInt8]
    let lock = NSLock()
    var started: ContinuousClock.Instant?
    var processCPUAtStart = 0.0
    var cpuUsed = 0.0
    var stopped = false

    init(stream: [UInt8], marker: [UInt8]) {
        self.stream = stream
        self.marker = marker
    }

    /// Answers a command; the scan's enable starts the stream.
    func answer(_ packet: HCIPacket, _ transport: MemoryTransport) {
        guard packet.type == .command, packet.bytes.count >= 3 else { return }
        let opcode = UInt16(packet.bytes[0]) | UInt16(packet.bytes[1]) << 8
        let parameters = Array(packet.bytes.dropFirst(3))
        transport.receive(BenchController.commandComplete(opcode, parameters))
        guard opcode == 0x200C, parameters.first == 0x01, lock.withLock({ started == nil }) else { return }
        let processCPU = BenchController.processCPU()
        let threadCPU = BenchController.threadCPU()
        lock.withLock {
            started = .now
            processCPUAtStart = processCPU
        }
        transport.receive(stream)
        let used = BenchController.threadCPU() - threadCPU
        lock.withLock { cpuUsed = used }
        let markerThread = Thread { [self] in
            while !lock.withLock({ stopped }) {
                transport.receive(marker)
                usleep(5_000)
            }
        }
        markerThread.start()
    }
}
