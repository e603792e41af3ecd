// async/await forms of the CentralHost calls that complete once.

import OCBHCI

extension CentralHost {
    /// ``start(completion:)`` as async; throws ``HostError``.
    @discardableResult
    public func start() async throws(HostError) -> ControllerInfo {
        let result = await withCheckedContinuation { continuation in start { continuation.resume(returning: $0) } }
        return try result.get()
    }

    /// ``startScan(_:completion:)`` as async; throws ``HostError``.
    public func startScan(_ options: ScanOptions) async throws(HostError) {
        let error = await withCheckedContinuation { continuation in startScan(options) { continuation.resume(returning: $0) } }
        if let error { throw error }
    }

    /// ``stopScan(completion:)`` as async; throws ``HostError``.
    public func stopScan() async throws(HostError) {
        let error = await withCheckedContinuation { continuation in stopScan { continuation.resume(returning: $0) } }
        if let error { throw error }
    }

    /// ``readRSSI(_:completion:)`` as async: the RSSI in dBm; throws ``HostError``.
    public func readRSSI(_ handle: ConnectionHandle) async throws(HostError) -> Int8 {
        let result = await withCheckedContinuation { continuation in readRSSI(handle) { continuation.resume(returning: $0) } }
        return try result.get()
    }

    /// ``sendATTRequest(_:on:completion:)`` as async: the response PDU; throws ``HostError``.
    public func sendATTRequest(_ pdu: [UInt8], on handle: ConnectionHandle) async throws(HostError) -> [UInt8] {
        let result = await withCheckedContinuation { continuation in sendATTRequest(pdu, on: handle) { continuation.resume(returning: $0) } }
        return try result.get()
    }

    /// ``sendATT(_:on:completion:)`` as async; throws ``HostError``.
    public func sendATT(_ pdu: [UInt8], on handle: ConnectionHandle) async throws(HostError) {
        let error = await withCheckedContinuation { continuation in sendATT(pdu, on: handle) { continuation.resume(returning: $0) } }
        if let error { throw error }
    }

    /// ``exchangeMTU(_:on:completion:)`` as async: the agreed ATT_MTU; throws ``HostError``.
    public func exchangeMTU(_ mtu: UInt16, on handle: ConnectionHandle) async throws(HostError) -> UInt16 {
        let result = await withCheckedContinuation { continuation in exchangeMTU(mtu, on: handle) { continuation.resume(returning: $0) } }
        return try result.get()
    }
}
