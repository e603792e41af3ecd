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

    /// Ends scanning, then closes the raw socket, the management socket and every L2CAP socket: the scan,
    /// connections and attempts end with ``HostError/stopped``. The controller stays up, owned by the kernel. A
    /// recording gets what the kernel reported up to this point and its file is closed.
    ///
    /// The kernel stops neither a discovery nor a raw-socket scan when the socket that asked for it closes, so while
    /// scanning this sends Stop Discovery (a discovery of ours) or LE Set (Extended) Scan Enable with Enable 0 in the
    /// family in use (Vol 4 Part E §7.8.11, §7.8.65), emits ``HostEvent/scanStopped(_:)`` at once, and closes the
    /// sockets when the answer came or after ``scanDisableWait``, whichever comes first. Otherwise they close at once.
    public func stop() {
        stop {}
    }

    /// ``stop()``; `completion` runs on the host queue once the sockets are closed (after the scan's end was answered,
    /// or after ``scanDisableWait``).
    public func stop(completion: @escaping @Sendable () -> Void) {
        queue.async { self.stopOnQueue(completion) }
    }

    /// How long ``stop()`` waits for the answer to its scan disable before it closes the sockets anyway.
    static let scanDisableWait: DispatchTimeInterval = .seconds(1)

    private func stopOnQueue(_ completion: @escaping @Sendable () -> Void) {
        guard let socket = transport, let session = scan else {
            closeManagement()
            tearDown(.stopped)
            return completion()
        }
        scan = nil
        discoveryRecordSpares.removeAll()
        _ = reassembler.reset()
        emit(.scanStopped(.stopped))
        // Holds the host until the sockets are closed, also when its owner lets go of it right after stop();
        // the closure leaves commandHandlers at the latest with the tear-down after the wait.
        let close: @Sendable () -> Void = { [self] in
            // Nothing to do when the host was torn down meanwhile, or restarted on a new socket.
            guard transport === socket else { return }
            closeManagement()
            tearDown(.stopped)
            completion()
        }
        endScan(session) { _ in close() }
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
            let devices = try HCIDeviceList.devices()
            openManagement()  // before the checks below, so a missing or powered-off hciN is seen coming back
            guard let found = devices.first(where: { $0.index == controllerIndex }) else {
                return fail(.transportFailed("no controller hci\(controllerIndex)"))
            }
            device = found
        } catch {
            return fail(HostController.hostError(opening: error))
        }
        guard device.isUp else { return fail(.transportFailed("hci\(controllerIndex) is down")) }
        if let capabilities = ProcessCapabilities.current(), !capabilities.has(ProcessCapabilities.netRaw) {
            return fail(.permissionDenied("the kernel path (raw HCI socket on hci\(controllerIndex)) needs CAP_NET_RAW: run as root, "
                                          + "or grant it (`setcap cap_net_raw,cap_net_admin+ep BINARY`, or systemd AmbientCapabilities=CAP_NET_RAW CAP_NET_ADMIN)"))
        }
        let socket = HCISocketTransport(controller: controllerIndex, channel: .raw)
        do {
            try socket.open(queue: queue, onPackets: { [weak self] walk in self?.receive(walk) },
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
        // A read that fails ends the start with its error (EPERM on send: unauthorized; no answer: a timeout).
        command(HCIReadLocalSupportedCommands.self, HCIReadLocalSupportedCommands()) { [self] supported in
            let supportedCommands: SupportedCommands
            switch supported {
            case .success(let value): supportedCommands = value
            case .failure(let error): tearDown(error); return fail(error)
            }
            command(HCILEReadLocalSupportedFeatures.self, HCILEReadLocalSupportedFeatures()) { [self] features in
                let leFeatures: LEFeatures
                switch features {
                case .success(let value): leFeatures = value
                case .failure(let error): tearDown(error); return fail(error)
                }
                let info = ControllerInfo(hciVersion: 0, manufacturer: 0, publicAddress: device.address,
                                          ownAddress: PeerAddress(device.address, type: .public),
                                          supportedCommands: supportedCommands, leFeatures: leFeatures,
                                          aclDataPacketLength: 0, aclDataPacketCount: 0)
                self.info = info
                setState(.poweredOn)
                loadKernelBonds(controller: device.address)
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
            discoveryRecordSpares.removeAll()
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
        if HostController.isPermission(error) {
            setState(.unauthorized)
        } else if currentState != .unknown && currentState != .unsupported && currentState != .unauthorized {
            setState(.poweredOff)
        }
    }

    // MARK: - Commands on the raw socket

    /// Sends a command; the result is its return parameters after Status (on `queue`).
    func command<C: HCICommand>(_ type: C.Type, _ command: C, _ done: @escaping (Result<C.ReturnParameters, HostError>) -> Void) {
        guard transport != nil else { return done(.failure(.notPoweredOn(currentState))) }
        let ticket = commands.enqueue(command)
        commandHandlers[ticket] = { result in
            done(result.flatMap { bytes in
                do { return .success(try C.decodeReturnParameters(bytes)) } catch { return .failure(.malformedResponse(C.opcode, "\(error)")) }
            })
        }
        sendPending()
        rescheduleTimer()
    }

    /// Sends the commands the flow lets go. A send that fails ends the host with its error: EPERM (a raw socket
    /// without CAP_NET_RAW) as ``HostError/permissionDenied(_:)`` and ``HostState/unauthorized``, anything else as
    /// ``HostError/transportFailed(_:)``.
    func sendPending() {
        guard let transport else { return }
        for packet in commands.nextPacketsToSend(now: .now) {
            do {
                try transport.send(packet)
            } catch {
                emit(.transportLost("send failed: \(error)"))
                return tearDown(HostController.hostError(opening: error))
            }
        }
    }

    /// Arms the one timer for the earliest deadline of the command flow, the scan's merger and the links' ATT.
    func rescheduleTimer() {
        let next = DeadlineTimer.earliest(DeadlineTimer.earliest(commands.nextDeadline, scan?.merger.nextDeadline), nextLinkDeadline)
        if next == timer.deadline { return }  // armed already (or disarmed already): no handler to make
        timer.arm(next, on: queue) { [weak self] in self?.tick(now: .now) }
    }

    /// Advances the command flow, the scan's merger and the links' ATT to `now`.
    func tick(now: ContinuousClock.Instant) {
        // Unread datagrams on the HCI socket (a flood of reports): an answer may be among them (see HostController).
        if transport?.hasUnreadInput == true { commands.postponeDeadlines(to: now.advanced(by: .milliseconds(250))) }
        finish(commands.tick(now: now))
        for device in scan?.merger.tick(now: now) ?? [] {
            if !emitDiscovery(device) { scan?.merger.forgetReported(device.peer) }
        }
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

    /// The packets of a read from the raw socket (one datagram), each to ``receive(_:_:)``, but legacy advertising
    /// reports skipped unread while the host is behind the socket and waits for a command's answer
    /// (``SerialHost/receive(_:behind:awaiting:_:)``).
    func receive(_ walk: HCIPacketWalk) {
        // Only a command's answer can be behind the reports on this socket: the kernel connects, and ATT comes, on
        // sockets of their own.
        receive(walk, behind: { transport?.isBehind == true }, awaiting: { awaitsAnswer }) { type, bytes in
            receive(type, bytes)
        }
    }

    /// ``SerialHost/awaitsAnswer``: a command's answer (the kernel's sockets bring the rest).
    var awaitsAnswer: Bool { commands.awaitingCount > 0 }

    /// ``SerialHost/transportHasInputWaiting``.
    var transportHasInputWaiting: Bool { transport?.hasInputWaiting == true }

    /// A packet from the raw socket: command answers, advertising reports and Disconnection Complete (for its reason);
    /// everything else belongs to the kernel.
    func receive(_ type: HCIPacketType, _ bytes: ArraySlice<UInt8>) {
        guard type == .event else { return }
        // The scan path: a well-formed report event of legacy PDUs goes to the scan read in place, not decoded into values.
        if let reports = LEAdvertisingReportView(eventPacket: bytes), observe(reports) { return }
        guard let event = try? HCIEvent(bytes: Array(bytes)) else { return }
        switch event {
        case .commandComplete, .commandStatus:
            finish(commands.handle(event))
            sendPending()
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
        // Joins the read's discoveries (``ScanSession/found``), handed over with them at the read's end.
        // (The deadline is re-armed by the caller, after the event: hand the discoveries over on a full batch only.)
        // At the read's time, as the reports read in place beside it (``SerialHost/readStamp``).
        if scan?.collect(observation, at: scanStamp).isFull == true { flushDiscoveries() }
    }
}
