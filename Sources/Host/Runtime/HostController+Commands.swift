// Sending HCI commands and matching their Command Complete / Command Status, with the command timeout.

import BluetoothCore
import HCI

/// How a command ended, as the pipeline saw it.
enum CommandAnswer {
    /// Command Complete: Status and the return parameters after it.
    case complete(HCIErrorCode, [UInt8])
    /// Command Status.
    case status(HCIErrorCode)
    /// No answer (timeout) or the transport went away.
    case failed(HostError)
}

extension HostController {
    /// Sends a command answered by Command Complete and decodes its return parameters (on `queue`).
    func send<C: HCICommand>(_ command: C, _ done: @escaping (Result<C.ReturnParameters, HostError>) -> Void) {
        submit(command.packet, opcode: C.opcode) { answer in
            switch answer {
            case .complete(let status, let rest):
                guard status.isSuccess else { return done(.failure(.commandFailed(C.opcode, status))) }
                do {
                    done(.success(try C.decodeReturnParameters(rest)))
                } catch {
                    done(.failure(.malformedResponse(C.opcode, "\(error)")))
                }
            case .status(let status):
                done(.failure(.commandFailed(C.opcode, status.isSuccess ? .unspecifiedError : status)))
            case .failed(let error):
                done(.failure(error))
            }
        }
    }

    /// Sends a command answered by Command Status (or, from some controllers, Command Complete); nil on success.
    func sendExpectingStatus<C: HCICommand>(_ command: C, _ done: @escaping (HostError?) -> Void) {
        submit(command.packet, opcode: C.opcode) { answer in
            switch answer {
            case .complete(let status, _), .status(let status):
                done(status.isSuccess ? nil : .commandFailed(C.opcode, status))
            case .failed(let error):
                done(error)
            }
        }
    }

    private func submit(_ packet: HCIPacket, opcode: HCIOpcode, _ handler: @escaping (CommandAnswer) -> Void) {
        guard transport != nil else { return handler(.failed(.notPoweredOn(currentState))) }
        let (id, ready) = commands.submit(packet, opcode: opcode, timeout: configuration.commandTimeout, now: .now)
        commandHandlers[id] = handler
        for packet in ready { write(packet) }
        rescheduleTimer()
    }

    /// Handles Command Complete: credits, then the waiting handler.
    func handleCommandComplete(_ event: HCICommandCompleteEvent) {
        let (id, ready) = commands.answer(opcode: event.opcode, credits: event.numHCICommandPackets, now: .now)
        let status = HCIErrorCode(rawValue: event.returnParameters.first ?? 0xFF)
        if let id, let handler = commandHandlers.removeValue(forKey: id) {
            handler(.complete(status, event.parametersAfterStatus))
        }
        for packet in ready { write(packet) }
        rescheduleTimer()
    }

    /// Handles Command Status: credits, then the waiting handler.
    func handleCommandStatus(_ event: HCICommandStatusEvent) {
        let (id, ready) = commands.answer(opcode: event.opcode, credits: event.numHCICommandPackets, now: .now)
        if let id, let handler = commandHandlers.removeValue(forKey: id) {
            handler(.status(event.status))
        }
        for packet in ready { write(packet) }
        rescheduleTimer()
    }

    /// Fails commands whose deadline passed.
    func tickCommands(now: ContinuousClock.Instant) {
        let (expired, ready) = commands.tick(now: now)
        for (id, opcode) in expired {
            guard let handler = commandHandlers.removeValue(forKey: id) else { continue }
            handler(.failed(.commandTimeout(opcode)))
        }
        for packet in ready { write(packet) }
    }

    /// Fails every command in flight or waiting (transport gone).
    func failAllCommands(_ error: HostError) {
        _ = commands.reset()
        let handlers = commandHandlers
        commandHandlers = [:]
        for (_, handler) in handlers.sorted(by: { $0.key < $1.key }) { handler(.failed(error)) }
    }
}
