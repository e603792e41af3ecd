// Controller bring-up: Reset, the reads, buffer sizes, event masks and the own address.

import OCBCore
import OCBHCI

/// What bring-up has gathered so far.
private struct BringUpState {
    var version: HCIReadLocalVersionInformation.ReturnParameters?
    var commands = SupportedCommands(bytes: [])
    var leFeatures = LEFeatures(rawValue: 0)
    var publicAddress = BluetoothAddress.zero
    var bufferLength = 0
    var bufferCount = 0
}

extension HostController {
    /// Runs bring-up (Core v5.4 Vol 4 Part E §7.3.2 Reset, §7.4.1-§7.4.6 reads, §7.8.2 LE buffer size [v1] or [v2],
    /// §7.3.1/§7.8.1 event masks, §7.8.4 random address) and reports the result (on `queue`).
    func bringUp(_ done: @escaping (Result<ControllerInfo, HostError>) -> Void) {
        var state = BringUpState()
        func fail(_ error: HostError) { done(.failure(error)) }
        send(HCIReset()) { [self] in
            if case .failure(let error) = $0 { return fail(error) }
            acl = nil
            send(HCIReadLocalVersionInformation()) { [self] in
                guard case .success(let version) = $0 else { return fail($0.error ?? .stopped) }
                state.version = version
                send(HCIReadLocalSupportedCommands()) { [self] in
                    guard case .success(let supported) = $0 else { return fail($0.error ?? .stopped) }
                    state.commands = supported
                    send(HCIReadLocalSupportedFeatures()) { [self] _ in  // LMP features: only read, LE needs none of them
                        send(HCILEReadLocalSupportedFeatures()) { [self] in
                            guard case .success(let features) = $0 else { return fail($0.error ?? .stopped) }
                            state.leFeatures = features
                            send(HCIReadBDADDR()) { [self] in
                                state.publicAddress = (try? $0.get()) ?? .zero
                                readBufferSize(state) { [self] in
                                    switch $0 {
                                    case .failure(let error): fail(error)
                                    case .success(let sized): configureMasks(sized, done)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// LE Read Buffer Size v2 when supported, else v1; Read Buffer Size when LE reports 0 (shared buffers, §7.8.2).
    private func readBufferSize(_ state: BringUpState, _ done: @escaping (Result<BringUpState, HostError>) -> Void) {
        var state = state
        let apply: (Result<LEBufferSize, HostError>) -> Void = { [self] result in
            guard case .success(let size) = result else { return done(.failure(result.error ?? .stopped)) }
            if size.leACLDataPacketLength > 0 && size.totalNumLEACLDataPackets > 0 {
                state.bufferLength = Int(size.leACLDataPacketLength)
                state.bufferCount = Int(size.totalNumLEACLDataPackets)
                return done(.success(state))
            }
            send(HCIReadBufferSize()) { shared in
                guard case .success(let size) = shared else { return done(.failure(shared.error ?? .stopped)) }
                state.bufferLength = Int(size.aclDataPacketLength)
                state.bufferCount = Int(size.totalNumACLDataPackets)
                guard state.bufferLength > 0, state.bufferCount > 0 else {
                    return done(.failure(.unsupported("controller reports no ACL buffers")))
                }
                done(.success(state))
            }
        }
        if state.commands.contains(.leReadBufferSizeV2) {
            send(HCILEReadBufferSizeV2(), apply)
        } else {
            send(HCILEReadBufferSizeV1(), apply)
        }
    }

    private func configureMasks(_ state: BringUpState, _ done: @escaping (Result<ControllerInfo, HostError>) -> Void) {
        send(HCISetEventMask(mask: .central)) { [self] in
            if case .failure(let error) = $0 { return done(.failure(error)) }
            send(HCILESetEventMask(mask: .central)) { [self] in
                if case .failure(let error) = $0 { return done(.failure(error)) }
                let own = ownAddress(publicAddress: state.publicAddress)
                let finish: () -> Void = { [self] in
                    acl = ACLFlow(maxDataLength: state.bufferLength, totalPackets: state.bufferCount)
                    let info = ControllerInfo(hciVersion: state.version?.hciVersion ?? 0,
                                              manufacturer: state.version?.companyIdentifier ?? 0,
                                              publicAddress: state.publicAddress, ownAddress: own,
                                              supportedCommands: state.commands, leFeatures: state.leFeatures,
                                              aclDataPacketLength: state.bufferLength, aclDataPacketCount: state.bufferCount)
                    done(.success(info))
                }
                guard own.type == .random else { return finish() }
                send(HCILESetRandomAddress(address: own.address)) {
                    if case .failure(let error) = $0 { return done(.failure(error)) }
                    finish()
                }
            }
        }
    }

    /// The own address per configuration (Vol 6 Part B §1.3.2.1 for random static).
    private func ownAddress(publicAddress: BluetoothAddress) -> PeerAddress {
        switch configuration.ownAddress {
        case .public:
            return PeerAddress(publicAddress, type: .public)
        case .automatic where publicAddress != .zero:
            return PeerAddress(publicAddress, type: .public)
        case .randomStatic(let fixed?):
            return PeerAddress(fixed, type: .random)
        case .automatic, .randomStatic(nil):
            return PeerAddress(Self.makeRandomStaticAddress(), type: .random)
        }
    }

    /// A random static address: top two bits 0b11; the random part neither all zeros nor all ones (Vol 6 Part B §1.3.2.1).
    static func makeRandomStaticAddress() -> BluetoothAddress {
        var generator = SystemRandomNumberGenerator()
        while true {
            var bytes = (0..<6).map { _ in UInt8.random(in: 0...255, using: &generator) }
            bytes[0] |= 0xC0
            let rest = [bytes[0] & 0x3F] + bytes.dropFirst()
            if rest.allSatisfy({ $0 == 0 }) || (bytes[0] == 0xFF && bytes.dropFirst().allSatisfy({ $0 == 0xFF })) { continue }
            if let address = BluetoothAddress(bytes: bytes) { return address }
        }
    }
}

extension Result {
    /// The failure, if any.
    var error: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
