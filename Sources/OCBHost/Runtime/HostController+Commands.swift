// Sending HCI commands through the command flow control and handing each its Command Complete / Command Status.

import OCBCore
import OCBHCI

/// How a command ended, as the host's handlers see it.
enum CommandAnswer {
    /// Command Complete with Status 0x00: the return parameters after Status.
    case complete([UInt8])
    /// Command Status 0x00: accepted, a later event finishes the procedure.
    case pending
    /// A non-zero status, a malformed answer, no answer (timeout) or the transport went away.
    case failed(HostError)
}

extension HostController {
    /// Sends a command answered by Command Complete and decodes its return parameters (on `queue`).
    func send<C: HCICommand>(_ command: C, _ done: @escaping (Result<C.ReturnParameters, HostError>) -> Void) {
        submit(command) { answer in
            switch answer {
            case .complete(let rest):
                do {
                    done(.success(try C.decodeReturnParameters(rest)))
                } catch {
                    done(.failure(.malformedResponse(C.opcode, "\(error)")))
                }
            case .pending:
                done(.failure(.malformedResponse(C.opcode, "Command Status where Command Complete was expected")))
            case .failed(let error):
                done(.failure(error))
            }
        }
    }

    /// Sends a command answered by Command Status (or, from some controllers, Command Complete); nil on success.
    func sendExpectingStatus<C: HCICommand>(_ command: C, _ done: @escaping (HostError?) -> Void) {
        submit(command) { answer in
            if case .failed(let error) = answer { return done(error) }
            done(nil)
        }
    }

    private func submit<C: HCICommand>(_ command: C, _ handler: @escaping (CommandAnswer) -> Void) {
        guard transport != nil else { return handler(.failed(.notPoweredOn(currentState))) }
        let ticket = commands.enqueue(command)
        commandHandlers[ticket] = handler
        flushCommands()
    }

    /// Sends what the credits allow and re-arms the timer.
    func flushCommands() {
        for packet in commands.nextPacketsToSend(now: clock.now) { write(packet) }
        rescheduleTimer()
    }

    /// Hands completions to their handlers.
    func complete(_ completions: [HCICommandFlow.Completion]) {
        for completion in completions {
            guard let handler = commandHandlers.removeValue(forKey: completion.ticket) else { continue }
            switch completion.outcome {
            case .completed(let event): handler(.complete(event.parametersAfterStatus))
            case .pending: handler(.pending)
            case .failed(.failed(let status)): handler(.failed(.commandFailed(completion.opcode, status)))
            case .failed(.timedOut(let opcode)): handler(.failed(.commandTimeout(opcode)))
            case .failed(let other): handler(.failed(.malformedResponse(completion.opcode, "\(other)")))
            }
        }
    }

    /// Fails commands whose deadline passed. A controller that leaves a command unanswered while powered on is out of
    /// step with the host (the command may or may not have taken effect): after the command's own failure the host
    /// emits ``HostEvent/controllerUnresponsive(_:)`` and tears down (scan and links end with
    /// ``HostError/commandTimeout(_:)``, state ``HostState/resetting``), so that a start resets and re-initialises it.
    /// While the transport has unread input (a flood of reports the host has not caught up with) the deadlines move
    /// on by 250 ms: the answer may be among those bytes, and a healthy controller must not be reset for the host's delay.
    func tickCommands(now: ContinuousClock.Instant) {
        if transport?.hasUnreadInput == true { commands.postponeDeadlines(to: now.advanced(by: .milliseconds(250))) }
        let completions = commands.tick(now: now)
        complete(completions)
        if currentState == .poweredOn, transport != nil,
           let silent = completions.first(where: { if case .failed(.timedOut) = $0.outcome { true } else { false } }) {
            emit(.controllerUnresponsive(silent.opcode))
            return tearDown(.commandTimeout(silent.opcode), reason: .unspecifiedError, state: .resetting)
        }
        for packet in commands.nextPacketsToSend(now: now) { write(packet) }
    }

    /// Fails every command in flight or waiting with `error` (transport gone).
    func failAllCommands(_ error: HostError) {
        let dropped = commands.cancelAll()
        commands = HCICommandFlow(timeout: configuration.commandTimeout)
        for completion in dropped {
            commandHandlers.removeValue(forKey: completion.ticket)?(.failed(error))
        }
        let rest = commandHandlers
        commandHandlers = [:]
        for (_, handler) in rest { handler(.failed(error)) }
    }
}
