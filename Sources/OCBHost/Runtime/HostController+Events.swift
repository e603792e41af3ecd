// Routing decoded HCI events to command flow, ACL flow, scanning, connections and failure handling.

import OCBHCI

extension HostController {
    /// One decoded event from the controller (on `queue`).
    func handleEvent(_ event: HCIEvent) {
        switch event {
        case .commandComplete, .commandStatus:
            complete(commands.handle(event))
            flushCommands()
        case .numberOfCompletedPackets(let completed):
            _ = acl?.handle(completed)
            if let diagnostic = completed.diagnostic { emit(.diagnostic("Number Of Completed Packets: \(diagnostic)")) }
            pumpACL()
            reportWriteWithoutResponseReady()
        case .disconnectionComplete(let disconnection):
            handleDisconnectionComplete(disconnection)
        case .hardwareError(let code):
            emit(.diagnostic("Hardware Error 0x\(String(code, radix: 16))"))
            tearDown(.hardwareError(code), reason: .hardwareFailure)
        case .dataBufferOverflow(let linkType):
            emit(.diagnostic("Data Buffer Overflow (link type 0x\(String(linkType, radix: 16)))"))
        case .leMeta(let meta):
            handleLEMeta(meta)
        case .encryptionChange(let change):
            handleEncryptionChange(handle: change.handle, status: change.status, encrypted: change.isEncrypted, keySize: change.encryptionKeySize)
        case .encryptionKeyRefreshComplete(let status, let handle):
            handleEncryptionChange(handle: handle, status: status, encrypted: true, keySize: nil)
        case .readRemoteVersionInformationComplete, .vendor, .unknown:
            break
        }
    }

    private func handleLEMeta(_ meta: LEMetaEvent) {
        switch meta {
        case .connectionComplete(let complete), .enhancedConnectionComplete(let complete), .enhancedConnectionCompleteV2(let complete):
            handleConnectionComplete(complete)
        case .advertisingReport(let event):
            for report in event.reports { observe(AdvertisingObservation(HCIAdvertisingReport(report))) }
            if let diagnostic = event.diagnostic { emit(.diagnostic("LE Advertising Report: \(diagnostic)")) }
        case .directedAdvertisingReport(let event):
            for report in event.reports { observe(AdvertisingObservation(HCIAdvertisingReport(report))) }
        case .extendedAdvertisingReport(let event):
            let output = reassembler.add(event)
            for report in output.reports { observe(AdvertisingObservation(report)) }
            for diagnostic in output.diagnostics { emit(.diagnostic("extended advertising: \(diagnostic)")) }
        case .scanTimeout:
            scanEndedByController()
        case .connectionUpdateComplete(let update):
            handleConnectionUpdateComplete(update)
        case .remoteConnectionParameterRequest(let request):
            handleRemoteConnectionParameterRequest(request)
        case .dataLengthChange(let change):
            guard links[change.handle] != nil else { return }
            emit(.dataLengthChanged(handle: change.handle, maxTxOctets: change.maxTxOctets, maxTxTime: change.maxTxTime,
                                    maxRxOctets: change.maxRxOctets, maxRxTime: change.maxRxTime))
        case .phyUpdateComplete(let update):
            guard update.status.isSuccess, links[update.handle] != nil else { return }
            emit(.phyUpdated(handle: update.handle, txPHY: update.txPHY.rawValue, rxPHY: update.rxPHY.rawValue))
        case .longTermKeyRequest(let request):
            // No bonding: no key (Vol 4 Part E §7.8.26).
            send(HCILELongTermKeyRequestNegativeReply(handle: request.handle)) { _ in }
        case .readRemoteFeaturesComplete, .channelSelectionAlgorithm, .unknown:
            break
        }
    }
}
