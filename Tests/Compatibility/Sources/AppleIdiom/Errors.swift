// CBError, CBATTError, their Code enums and CBErrorDomain / CBATTErrorDomain, used as Swift code on iOS uses them.
import CoreBluetooth

func describeCBErrorCode(_ code: CBError.Code) -> String {
    switch code {
    case .unknown: return "unknown"
    case .invalidParameters: return "invalidParameters"
    case .invalidHandle: return "invalidHandle"
    case .notConnected: return "notConnected"
    case .outOfSpace: return "outOfSpace"
    case .operationCancelled: return "operationCancelled"
    case .connectionTimeout: return "connectionTimeout"
    case .peripheralDisconnected: return "peripheralDisconnected"
    case .uuidNotAllowed: return "uuidNotAllowed"
    case .alreadyAdvertising: return "alreadyAdvertising"
    case .connectionFailed: return "connectionFailed"
    case .connectionLimitReached: return "connectionLimitReached"
    case .unknownDevice: return "unknownDevice"
    case .operationNotSupported: return "operationNotSupported"
    case .peerRemovedPairingInformation: return "peerRemovedPairingInformation"
    case .encryptionTimedOut: return "encryptionTimedOut"
    case .tooManyLEPairedDevices: return "tooManyLEPairedDevices"
    // The two leGatt... codes are watchOS-only (see describeWatchOnlyCBErrorCode). The deprecated misspelling `unkownDevice` is left out on purpose.
    @unknown default: return "CBError \(code.rawValue)"
    }
}

/// The background-notification codes Apple declares for watchOS 9 only.
@available(iOS, unavailable)
@available(macCatalyst, unavailable)
@available(macOS, unavailable)
@available(tvOS, unavailable)
@available(visionOS, unavailable)
@available(watchOS 9.0, *)
func describeWatchOnlyCBErrorCode(_ code: CBError.Code) -> String? {
    let exceeded: CBError.Code = CBError.leGattExceededBackgroundNotificationLimit
    let near: CBError.Code = CBError.leGattNearBackgroundNotificationLimit
    switch code {
    case .leGattExceededBackgroundNotificationLimit: return "leGattExceededBackgroundNotificationLimit \(exceeded.rawValue)"
    case .leGattNearBackgroundNotificationLimit: return "leGattNearBackgroundNotificationLimit \(near.rawValue)"
    default: return nil
    }
}

func describeATTErrorCode(_ code: CBATTError.Code) -> String {
    switch code {
    case .success: return "success"
    case .invalidHandle: return "invalidHandle"
    case .readNotPermitted: return "readNotPermitted"
    case .writeNotPermitted: return "writeNotPermitted"
    case .invalidPdu: return "invalidPdu"
    case .insufficientAuthentication: return "insufficientAuthentication"
    case .requestNotSupported: return "requestNotSupported"
    case .invalidOffset: return "invalidOffset"
    case .insufficientAuthorization: return "insufficientAuthorization"
    case .prepareQueueFull: return "prepareQueueFull"
    case .attributeNotFound: return "attributeNotFound"
    case .attributeNotLong: return "attributeNotLong"
    case .insufficientEncryptionKeySize: return "insufficientEncryptionKeySize"
    case .invalidAttributeValueLength: return "invalidAttributeValueLength"
    case .unlikelyError: return "unlikelyError"
    case .insufficientEncryption: return "insufficientEncryption"
    case .unsupportedGroupType: return "unsupportedGroupType"
    case .insufficientResources: return "insufficientResources"
    @unknown default: return "ATT error 0x\(String(code.rawValue, radix: 16))"
    }
}

/// Every CBError code reached through CBError's static members (the `URLError.timedOut` style).
func allCBErrorCodes() -> [CBError.Code] {
    [
        CBError.unknown, CBError.invalidParameters, CBError.invalidHandle, CBError.notConnected,
        CBError.outOfSpace, CBError.operationCancelled, CBError.connectionTimeout, CBError.peripheralDisconnected,
        CBError.uuidNotAllowed, CBError.alreadyAdvertising, CBError.connectionFailed, CBError.connectionLimitReached,
        CBError.unknownDevice, CBError.operationNotSupported, CBError.peerRemovedPairingInformation,
        CBError.encryptionTimedOut, CBError.tooManyLEPairedDevices,
    ]
}

/// Every CBATTError code reached through CBATTError's static members.
func allATTErrorCodes() -> [CBATTError.Code] {
    [
        CBATTError.success, CBATTError.invalidHandle, CBATTError.readNotPermitted, CBATTError.writeNotPermitted,
        CBATTError.invalidPdu, CBATTError.insufficientAuthentication, CBATTError.requestNotSupported,
        CBATTError.invalidOffset, CBATTError.insufficientAuthorization, CBATTError.prepareQueueFull,
        CBATTError.attributeNotFound, CBATTError.attributeNotLong, CBATTError.insufficientEncryptionKeySize,
        CBATTError.invalidAttributeValueLength, CBATTError.unlikelyError, CBATTError.insufficientEncryption,
        CBATTError.unsupportedGroupType, CBATTError.insufficientResources,
    ]
}

/// Throws Core Bluetooth errors the way a wrapper around CBPeripheral would.
func requireConnected(_ peripheral: CBPeripheral) throws {
    switch peripheral.state {
    case .connected:
        return
    case .connecting:
        throw CBError(.connectionTimeout, userInfo: [NSLocalizedDescriptionKey: "Connection timed out", "attempts": 1])
    case .disconnecting:
        throw CBError(.peripheralDisconnected)
    case .disconnected:
        throw CBATTError(.insufficientEncryption)
    @unknown default:
        throw CBError(.unknown, userInfo: [:])
    }
}

/// Catches Core Bluetooth errors by type and code.
func handleErrors(_ peripheral: CBPeripheral) -> String {
    do {
        try requireConnected(peripheral)
        return "connected"
    } catch let error as CBError where error.code == .peripheralDisconnected {
        return "disconnected: \(error.localizedDescription)"
    } catch CBError.connectionTimeout {
        return "timed out"
    } catch let error as CBError {
        let code: CBError.Code = error.code
        let number: Int = error.errorCode
        let info: [String: Any] = error.errorUserInfo
        let domain: String = CBError.errorDomain
        return "\(domain) \(number) \(describeCBErrorCode(code)) \(info.count)"
    } catch let error as CBATTError where error.code == .insufficientEncryption {
        return "pair first (ATT 0x\(String(CBATTError.Code.insufficientEncryption.rawValue, radix: 16)))"
    } catch let error as CBATTError {
        return "\(CBATTError.errorDomain) \(describeATTErrorCode(error.code)) \(error.errorCode)"
    } catch {
        return "other: \(error.localizedDescription)"
    }
}

/// NSErrors in the Core Bluetooth domains, as Objective-C code or an XPC reply would deliver them.
func makeDomainErrors() -> [NSError] {
    [
        NSError(
            domain: CBErrorDomain,
            code: CBError.Code.connectionFailed.rawValue,
            userInfo: [NSLocalizedDescriptionKey: "The connection failed."]
        ),
        NSError(domain: CBATTErrorDomain, code: CBATTError.Code.readNotPermitted.rawValue, userInfo: nil),
    ]
}

/// Classifies an NSError by domain and rebuilds the typed code from its raw value.
func classify(_ error: NSError) -> String {
    switch error.domain {
    case CBErrorDomain:
        return describeCBErrorCode(CBError.Code(rawValue: error.code) ?? .unknown)
    case CBATTErrorDomain:
        return describeATTErrorCode(CBATTError.Code(rawValue: error.code) ?? .unlikelyError)
    default:
        return "foreign domain \(error.domain)"
    }
}

/// Bridges an NSError back to the typed Swift error, as `error as? CBError` does on Apple platforms.
func typedError(_ error: NSError) -> String {
    let anyError: any Error = error
    if let cbError = anyError as? CBError {
        return describeCBErrorCode(cbError.code)
    }
    if let attError = anyError as? CBATTError {
        return describeATTErrorCode(attError.code)
    }
    return classify(error)
}
