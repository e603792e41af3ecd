// One cbtool run's CBCentralManager: opened on the chosen transport, waited on synchronously, closed cleanly.

import OCBCore
import OCBToolKit
import CoreBluetooth
import Foundation
import OCBHost

/// A central manager driven from the command thread: each step starts a CoreBluetooth call, then blocks on the
/// delegate's events (``EventInbox``) until the answer, a disconnection or the step's deadline.
///
/// Deadlines: bringing the controller up, finding a device and connecting take `--timeout` (default 10 s) each;
/// a GATT request takes `--timeout` or 35 s (just above the ATT transaction timeout of 30 s, Core v5.4 Vol 3 Part F
/// §3.3.3, so the stack's own timeout reports first).
final class CentralSession {
    let invocation: Invocation
    let inbox = EventInbox()
    let delegate: SessionDelegate
    private let queue = DispatchQueue(label: "cbtool.central")
    private var storedManager: CBCentralManager?
    /// Peripherals this session connected (to disconnect at the end).
    private var peripherals: [CBPeripheral] = []

    /// The step timeout (`--timeout`, default 10 s).
    var stepTimeout: Duration { invocation.timeout ?? .seconds(10) }
    /// The GATT request timeout (`--timeout`, default 35 s).
    var requestTimeout: Duration { invocation.timeout ?? .seconds(35) }

    /// The manager (present until ``close()``).
    var manager: CBCentralManager {
        guard let storedManager else { preconditionFailure("CentralSession used after close()") }
        return storedManager
    }

    /// Opens the transport through CoreBluetooth (`CBCentralManagerOptionTransportKey`, and
    /// `CBCentralManagerOptionBtsnoopPathKey` for `--btsnoop`) and waits for `.poweredOn`.
    ///
    /// Throws: a usage error for a malformed `--transport`; a failure when the btsnoop file cannot be created, when
    /// the manager reports unsupported or unauthorized, or powered off and the transport cannot be opened (the
    /// transport is opened once directly so the message says why: no kernel support, missing capabilities, controller
    /// busy, connection refused), or when the controller does not power on within `--timeout` (default 10 s).
    init(_ invocation: Invocation) throws(ToolError) {
        self.invocation = invocation
        delegate = SessionDelegate(inbox: inbox)
        let spec = try LiveCommandSupport.transportSpec(invocation)
        // No "[CoreBluetooth] WARNING" line: cbtool says itself, in one line, why the controller is unavailable.
        var options: [String: Any] = [CBCentralManagerOptionTransportKey: invocation.transport,
                                      CBCentralManagerOptionShowPowerAlertKey: false]
        if let path = invocation.btsnoopPath {
            guard FileManager.default.createFile(atPath: path, contents: nil) else {
                throw .failure("cannot create the btsnoop file \(path) (does its folder exist, may it be written?)")
            }
            options[CBCentralManagerOptionBtsnoopPathKey] = path
        }
        storedManager = CBCentralManager(delegate: delegate, queue: queue, options: options)
        let deadline = ContinuousClock.now + stepTimeout
        var probed = false
        while true {
            guard let event = inbox.next(until: deadline) else {
                let wasOff = storedManager?.state == .poweredOff
                close()
                try LiveCommandSupport.probe(spec)
                throw .failure("timeout: the controller at \(spec) did not power on within \(Self.seconds(stepTimeout)) "
                               + (wasOff ? "(it opens but does not come up: is another program using it? is it powered?)"
                                         : "(is it answering? is another program using it?)"))
            }
            guard case .stateChanged(let state) = event else { continue }
            switch state {
            case .poweredOn:
                return
            case .unknown, .resetting:
                continue
            case .poweredOff:
                // The backend opens the controller again by itself (0.5 s, doubling). Say at once why when the
                // transport cannot be opened at all; otherwise (a busy one-client server, a controller still
                // resetting) wait for the retry until the deadline.
                if case .replay(let path, _) = spec {
                    // A recording does not come back: its end (or a strict mismatch, in the WARNING line above) is final;
                    // a file that cannot be read says so (the probe opens it once more).
                    close()
                    try LiveCommandSupport.probe(spec)
                    throw .failure("the replay of \(path) ended before the controller came up "
                                   + "(a strict replay's [CoreBluetooth] WARNING line above says where the stack left the recording)")
                }
                guard !probed else { continue }
                probed = true
                do {
                    try LiveCommandSupport.probe(spec)
                } catch {
                    close()
                    throw error
                }
            case .unsupported, .unauthorized:
                close()
                try LiveCommandSupport.probe(spec)
                throw Self.stateError(state, spec: spec)
            }
        }
    }

    /// The message for a manager state below `.poweredOn` once the transport itself opened fine.
    static func stateError(_ state: CBManagerState, spec: TransportSpec) -> ToolError {
        switch state {
        case .unauthorized:
            .failure("not allowed to use \(spec): "
                     + (spec.description.hasPrefix("user:") ? "the user channel needs CAP_NET_ADMIN"
                                                            : "the kernel path needs CAP_NET_RAW (and CAP_NET_ADMIN for the kernel's discovery)")
                     + ": run as root, or `sudo setcap cap_net_raw,cap_net_admin+ep` on cbtool, or AmbientCapabilities= in its systemd unit")
        case .poweredOff:
            .failure("the controller at \(spec) is powered off: power it on (btmgmt power on)")
        default:
            .failure("the controller at \(spec) cannot act as a Bluetooth LE central (CoreBluetooth reports \(state))")
        }
    }

    /// Stops scanning, disconnects what this session connected (waiting up to 3 s for each), and releases the
    /// manager so its backend closes the transport and finishes the btsnoop file. Idempotent.
    func close() {
        guard let manager = storedManager else { return }
        if manager.state == .poweredOn {
            if manager.isScanning { manager.stopScan() }
            for peripheral in peripherals where peripheral.state == .connected || peripheral.state == .connecting {
                disconnect(peripheral)
            }
        }
        peripherals = []
        manager.delegate = nil
        storedManager = nil
        queue.sync {}
        queue.sync {}
    }

    deinit { close() }

    /// Remembers a peripheral to disconnect at ``close()``.
    func track(_ peripheral: CBPeripheral) {
        if !peripherals.contains(where: { $0 === peripheral }) { peripherals.append(peripheral) }
    }

    /// Waits for the first event `match` accepts (events it does not accept are dropped).
    ///
    /// A disconnection of `peripheral` (when given) ends the wait with "ADDRESS disconnected: why"; an interruption
    /// with "interrupted"; the deadline with `onTimeout()`.
    func wait<T>(timeout: Duration, peripheral: CBPeripheral? = nil, onTimeout: () -> ToolError,
                 _ match: (SessionEvent) throws(ToolError) -> T?) throws(ToolError) -> T {
        let deadline = ContinuousClock.now + timeout
        while true {
            guard let event = inbox.next(until: deadline) else { throw onTimeout() }
            if let value = try match(event) { return value }
            switch event {
            case .disconnected(let lost, let error) where lost === peripheral:
                throw .failure("\(Self.name(lost)) disconnected" + (error.map { ": " + ErrorText.describe($0) } ?? ""))
            case .interrupted:
                throw .failure("interrupted")
            default:
                continue
            }
        }
    }

    /// Runs one GATT request on `peripheral`: `start()` makes the CoreBluetooth call, `match` picks its answer.
    /// Throws "WHAT failed: why" for an error answer, "timeout: …" past ``requestTimeout``.
    func request<T>(_ what: String, on peripheral: CBPeripheral, start: () -> Void,
                    _ match: (SessionEvent) -> Result<T, any Error>?) throws(ToolError) -> T {
        start()
        let result = try wait(timeout: requestTimeout, peripheral: peripheral,
                              onTimeout: { .failure("timeout: \(what) got no answer within \(Self.seconds(requestTimeout))") }) { event in
            match(event)
        }
        switch result {
        case .success(let value): return value
        case .failure(let error): throw .failure("\(what) failed: \(ErrorText.describe(error))")
        }
    }

    /// "C1:A0:00:00:00:01", or the identifier where the address is unknown.
    static func name(_ peripheral: CBPeripheral) -> String {
        peripheral.address ?? peripheral.identifier.uuidString
    }

    /// "10 s", "2.5 s".
    static func seconds(_ duration: Duration) -> String {
        let millis = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        return millis % 1000 == 0 ? "\(millis / 1000) s" : "\(Double(millis) / 1000) s"
    }

    /// Writes a progress line ("connecting to …") on standard error, escaped (``TerminalText``: it may hold a name).
    static func progress(_ text: String) {
        FileHandle.standardError.write(Data((TerminalText.escaped(text) + "\n").utf8))
    }
}
