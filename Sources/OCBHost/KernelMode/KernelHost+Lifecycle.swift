// Kernel mode start and stop: the device list, the raw HCI socket, the reads that do not disturb the kernel.

import OCBCore
import Dispatch
import OCBHCI

extension KernelHost {
    /// Finds hciN in the kernel's device list, opens a raw HCI socket on it and reads Supported Commands and LE
    /// Features (Vol 4 Part E §7.4.2, §7.8.3) without resetting or reconfiguring the controller. Fails with
    /// ``HostError/noBluetoothSupport`` (state ``HostState/unsupported``), ``HostError/permissionDenied(_:)``
    /// (``HostState/unauthorized``) or ``HostError/transportFailed(_:)`` when hciN is missing or down
    /// (``HostState/poweredOff``). ControllerInfo's version, manufacturer and buffer sizes are 0 in this mode.
    /// With a ``btsnoopPath`` the recording starts once the raw socket is open, before the first command; one that
    /// cannot start is reported as a ``HostEvent/diagnostic(_:)`` and the start goes on.
    public func start(completion: @escaping @Sendable (Result<ControllerInfo, HostError>) -> Void) {
        queue.async { self.startOnQueue(completion) }
    }

    /// Disables scanning, then closes the raw socket and every L2CAP socket: the scan, connections and attempts end
    /// with ``HostError/stopped``. The controller stays up, owned by the kernel. A recording gets what the kernel
    /// reported up to this point and its file is closed.
    ///
    /// The kernel does not stop a scan when the raw socket that enabled it closes, so while scanning this sends LE Set
    /// (Extended) Scan Enable with Enable 0 in the family in use (Vol 4 Part E §7.8.11, §7.8.65), emits
    /// ``HostEvent/scanStopped(_:)`` at once, and closes the sockets when the controller answered or after
    /// ``scanDisableWait``, whichever comes first. Otherwise the sockets close at once.
    public func stop() {
        queue.async { self.stopOnQueue() }
    }

    /// How long ``stop()`` waits for the answer to its scan disable before it closes the sockets anyway.
    static let scanDisableWait: DispatchTimeInterval = .seconds(1)

    private func stopOnQueue() {
        guard let socket = transport, let session = scan else { return tearDown(.stopped) }
        scan = nil
        _ = reassembler.reset()
        emit(.scanStopped(.stopped))
        // Holds the host until the sockets are closed, also when its owner lets go of it right after stop();
        // the closure leaves commandHandlers at the latest with the tear-down after the wait.
        let close: @Sendable () -> Void = { [self] in
            // Nothing to do when the host was torn down meanwhile, or restarted on a new socket.
            guard transport === socket else { return }
            tearDown(.stopped)
        }
        disableScan(session.family) { _ in close() }
        queue.asyncAfter(deadline: .now() + Self.scanDisableWait, execute: close)
    }

    private func startOnQueue(_ completion: @escaping @Sendable (Result<ControllerInfo, HostError>) -> Void) {
        tearDown(.stopped)
        setState(.resetting)
        let fail: (HostError) -> Void = { [self] error in
            setState(error == .noBluetoothSupport ? .unsupported : (HostController.isPermission(error) ? .unauthorized : .poweredOff))
            deliver { completion(.failure(error)) }
        }
        let device: HCIDeviceInfo
        do {
            guard let found = try HCIDeviceList.devices().first(where: { $0.index == controllerIndex }) else {
                return fail(.transportFailed("no controller hci\(controllerIndex)"))
            }
            device = found
        } catch {
            return fail(HostController.hostError(opening: error))
        }
        guard device.isUp else { return fail(.transportFailed("hci\(controllerIndex) is down")) }
        let socket = HCISocketTransport(controller: controllerIndex, channel: .raw)
        do {
            try socket.open(queue: queue, onPacket: { [weak self] packet in self?.receive(packet) },
                            onClose: { [weak self] error in
                                guard let self, self.transport === socket else { return }
                                self.tearDown(error == nil ? .stopped : .transportClosed)
                            })
        } catch {
            return fail(HostController.hostError(opening: error))
        }
        transport = socket
        startRecording()
        commands = HCICommandFlow()
        command(HCIReadLocalSupportedCommands.self, HCIReadLocalSupportedCommands()) { [self] supported in
            command(HCILEReadLocalSupportedFeatures.self, HCILEReadLocalSupportedFeatures()) { [self] features in
                let info = ControllerInfo(hciVersion: 0, manufacturer: 0, publicAddress: device.address,
                                          ownAddress: PeerAddress(device.address, type: .public),
                                          supportedCommands: (try? supported.get()) ?? SupportedCommands(bytes: []),
                                          leFeatures: (try? features.get()) ?? LEFeatures(rawValue: 0),
                                          aclDataPacketLength: 0, aclDataPacketCount: 0)
                self.info = info
                setState(.poweredOn)
                deliver { completion(.success(info)) }
            }
        }
    }

    /// Starts the btsnoop recording when a path is set; reports why it is off otherwise (on `queue`).
    private func startRecording() {
        guard let path = btsnoopPath else { return }
        do {
            recording = try KernelRecording.start(path: path, controller: controllerIndex) { [weak self] problem in
                guard let host = self else { return }
                host.queue.async { host.emit(.recordingProblem(problem)) }
            }
        } catch {
            emit(.recordingProblem("btsnoop recording to \(path) is off: \(error.reason)"))
        }
    }

    /// Ends scanning and every connection with `error`; closes the raw socket and ends the recording.
    func tearDown(_ error: HostError) {
        let closing = transport
        transport = nil
        closing?.close()
        let handlers = commandHandlers
        commandHandlers = [:]
        _ = commands.cancelAll()
        for (_, handler) in handlers { handler(.failure(error)) }
        if scan != nil {
            scan = nil
            emit(.scanStopped(error))
        }
        for (peer, socket) in connecting {
            socket.close()
            emit(.connectionFailed(peer, error))
        }
        connecting = [:]
        for handle in links.keys.sorted() { endLink(handle, reason: .connectionTerminatedByLocalHost, error: error) }
        timer.cancel()
        family = nil
        info = nil
        recording?.stop()
        recording = nil
        if currentState != .unknown && currentState != .unsupported && currentState != .unauthorized { setState(.poweredOff) }
    }

    // MARK: - Commands on the raw socket

    /// Sends a command; the result is its return parameters after Status (on `queue`).
    func command<C: HCICommand>(_ type: C.Type, _ command: C, _ done: @escaping (Result<C.ReturnParameters, HostError>) -> Void) {
        guard let transport else { return done(.failure(.notPoweredOn(currentState))) }
        let ticket = commands.enqueue(command)
        commandHandlers[ticket] = { result in
            done(result.flatMap { bytes in
                do { return .success(try C.decodeReturnParameters(bytes)) } catch { return .failure(.malformedResponse(C.opcode, "\(error)")) }
            })
        }
        for packet in commands.nextPacketsToSend(now: .now) { try? transport.send(packet) }
        rescheduleTimer()
    }

    /// Arms the one timer for the earliest deadline of the command flow, the scan's merger and the links' ATT.
    func rescheduleTimer() {
        let deadlines = [commands.nextDeadline, scan?.merger.nextDeadline, nextLinkDeadline].compactMap { $0 }
        timer.arm(deadlines.min(), on: queue) { [weak self] in self?.tick(now: .now) }
    }

    /// Advances the command flow, the scan's merger and the links' ATT to `now`.
    func tick(now: ContinuousClock.Instant) {
        finish(commands.tick(now: now))
        for device in scan?.merger.tick(now: now) ?? [] { emit(.discovered(device)) }
        tickLinks(now: now)
        rescheduleTimer()
    }

    func finish(_ completions: [HCICommandFlow.Completion]) {
        for completion in completions {
            guard let handler = commandHandlers.removeValue(forKey: completion.ticket) else { continue }
            switch completion.outcome {
            case .completed(let event): handler(.success(event.parametersAfterStatus))
            case .pending: handler(.success([]))
            case .failed(.failed(let status)): handler(.failure(.commandFailed(completion.opcode, status)))
            case .failed(.timedOut(let opcode)): handler(.failure(.commandTimeout(opcode)))
            case .failed(let other): handler(.failure(.malformedResponse(completion.opcode, "\(other)")))
            }
        }
    }

    /// A packet from the raw socket: command answers, advertising reports and Disconnection Complete (for its reason);
    /// everything else belongs to the kernel.
    func receive(_ packet: HCIPacket) {
        guard packet.type == .event, let event = try? HCIEvent(bytes: packet.bytes) else { return }
        switch event {
        case .commandComplete, .commandStatus:
            finish(commands.handle(event))
            if let transport { for packet in commands.nextPacketsToSend(now: .now) { try? transport.send(packet) } }
        case .leMeta(.advertisingReport(let reports)):
            for report in reports.reports { observe(AdvertisingObservation(HCIAdvertisingReport(report))) }
        case .leMeta(.extendedAdvertisingReport(let reports)):
            for report in reassembler.add(reports).reports { observe(AdvertisingObservation(report)) }
        case .disconnectionComplete(let disconnection):
            linkDisconnected(disconnection)
        case .hardwareError(let code):
            tearDown(.hardwareError(code))
        default:
            break
        }
        rescheduleTimer()
    }

    func observe(_ observation: AdvertisingObservation) {
        for device in scan?.merger.receive(observation, now: .now) ?? [] { emit(.discovered(device)) }
    }
}
