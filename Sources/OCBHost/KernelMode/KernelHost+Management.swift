// Kernel mode's management socket: controller power and presence, and the answers to our management commands.

import Dispatch
import OCBHCI

extension KernelHost {
    /// Opens the management socket once (kept across tear-downs, closed by ``stop()``); a failure is one diagnostic
    /// and the host goes on without power events or kernel discovery (scans use the raw socket's commands).
    func openManagement() {
        guard management == nil else { return }
        do {
            management = try ManagementSocket(queue: queue, onEvent: { [weak self] result in self?.managementEvent(result) },
                                              onEnd: { [weak self] error in self?.managementEnded(error) })
        } catch {
            emit(.diagnostic("management socket unavailable (\(error)): power changes of hci\(controllerIndex) are not followed, "
                             + "scans use the raw socket's commands"))
        }
    }

    /// Closes the management socket; pending management commands fail with ``HostError/stopped``.
    func closeManagement() {
        let closing = management
        management = nil
        closing?.close()
        failManagementCommands(.stopped)
    }

    /// Sends a management command about hci`controllerIndex`; `done` gets its status and return parameters, or the
    /// send error (on `queue`). At most one command per opcode kind is outstanding in this host's use, so the FIFO of
    /// answers (matched by opcode, oldest first) stays a few entries long.
    func managementCommand(_ command: ManagementCommand, _ done: @escaping (Result<(ManagementStatus, [UInt8]), HostError>) -> Void) {
        guard let management else { return done(.failure(.notPoweredOn(currentState))) }
        do {
            try management.send(command)
            managementPending.append((command.opcode, done))
        } catch {
            done(.failure(HostController.hostError(opening: error)))
        }
    }

    private func failManagementCommands(_ error: HostError) {
        let pending = managementPending
        managementPending = []
        for (_, done) in pending { done(.failure(error)) }
    }

    private func managementEnded(_ error: HCITransportError?) {
        guard management != nil else { return }
        management = nil
        failManagementCommands(.transportClosed)
        if let error { emit(.diagnostic("management socket ended (\(error)): power changes are no longer followed")) }
    }

    /// One management event (on `queue`): answers, then what concerns hci`controllerIndex`.
    private func managementEvent(_ result: Result<ManagementEvent, ManagementEventError>) {
        let event: ManagementEvent
        switch result {
        case .success(let decoded): event = decoded
        case .failure(let error): return emit(.diagnostic("\(error) (dropped)"))
        }
        switch event.kind {
        case .commandComplete(let opcode, let status, let parameters): answer(opcode, status, parameters)
        case .commandStatus(let opcode, let status): answer(opcode, status, [])
        default: break
        }
        guard event.index == controllerIndex else { return }
        switch event.kind {
        case .newSettings(let settings):
            let powered = settings & ManagementEvent.poweredSetting != 0
            if !powered, transport != nil {
                emit(.transportLost("hci\(controllerIndex) was powered off"))
                tearDown(.transportFailed("hci\(controllerIndex) was powered off"))
            } else if powered, transport == nil, currentState == .poweredOff {
                emit(.controllerAvailable)
            }
        case .indexRemoved:
            if transport != nil {
                emit(.transportLost("hci\(controllerIndex) was removed"))
                tearDown(.transportClosed)
            }
        case .indexAdded:
            if transport == nil, currentState == .poweredOff { emit(.controllerAvailable) }
        case .discovering(let types, let isDiscovering):
            if !isDiscovering, types & ManagementCommand.leAddressTypes != 0 { discoveryRoundEnded() }
        case .authenticationFailed(let address, _, let status):
            authenticationFailed(address, status: status)
        case .newLongTermKey(let storeHint, let key):
            kernelKeyReported(longTermKey: key, storeHint: storeHint)
        case .userConfirmationRequest(let address, let type, let hint, _):
            userConfirmationRequested(address, addressType: type, confirmHint: hint)
        case .newSignatureResolvingKey(let storeHint, let address, _, let type, let value) where type == 0x00 || type == 0x02:
            kernelSigningKeyReported(address, value: value, storeHint: storeHint)
        case .newIdentityResolvingKey(let storeHint, let randomAddress, let key):
            kernelKeyReported(identityResolvingKey: key, randomAddress: randomAddress, storeHint: storeHint)
        default:
            break
        }
    }

    /// Hands a management answer to its command. Invalid Index (0x11, doc/mgmt-api.txt) to one of ours says the
    /// kernel no longer has the controller: the host ends as on Index Removed first, whichever of the two comes first.
    private func answer(_ opcode: ManagementOpcode, _ status: ManagementStatus, _ parameters: [UInt8]) {
        guard let position = managementPending.firstIndex(where: { $0.0 == opcode }) else { return }
        let (_, done) = managementPending.remove(at: position)
        if status == .invalidIndex, transport != nil {
            emit(.transportLost("hci\(controllerIndex) was removed"))
            tearDown(.transportClosed)
        }
        done(.success((status, parameters)))
    }
}
