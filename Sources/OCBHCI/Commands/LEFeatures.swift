// The LE features bit field a controller reports (LE Read Local Supported Features, LE Read Remote Features).

/// The 64-bit LE_Features field (Core v5.4 Vol 6 Part B §4.6), little-endian on the wire.
///
/// Returned by LE Read Local Supported Features (Vol 4 Part E §7.8.3) and in LE Read Remote Features
/// Complete (§7.7.65.4). Bits not named here are kept in ``rawValue``.
public struct LEFeatures: OptionSet, Hashable, Sendable {
    /// The 64-bit field.
    public let rawValue: UInt64
    /// Wraps the field.
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// Bit 0: LE Encryption.
    public static let leEncryption = LEFeatures(rawValue: 1 << 0)
    /// Bit 1: Connection Parameters Request procedure.
    public static let connectionParametersRequestProcedure = LEFeatures(rawValue: 1 << 1)
    /// Bit 2: Extended Reject Indication.
    public static let extendedRejectIndication = LEFeatures(rawValue: 1 << 2)
    /// Bit 3: Peripheral-initiated Features Exchange.
    public static let peripheralInitiatedFeaturesExchange = LEFeatures(rawValue: 1 << 3)
    /// Bit 4: LE Ping.
    public static let lePing = LEFeatures(rawValue: 1 << 4)
    /// Bit 5: LE Data Packet Length Extension.
    public static let leDataPacketLengthExtension = LEFeatures(rawValue: 1 << 5)
    /// Bit 6: LL Privacy.
    public static let llPrivacy = LEFeatures(rawValue: 1 << 6)
    /// Bit 7: Extended Scanning Filter Policies.
    public static let extendedScanningFilterPolicies = LEFeatures(rawValue: 1 << 7)
    /// Bit 8: LE 2M PHY.
    public static let le2MPHY = LEFeatures(rawValue: 1 << 8)
    /// Bit 9: Stable Modulation Index - Transmitter.
    public static let stableModulationIndexTransmitter = LEFeatures(rawValue: 1 << 9)
    /// Bit 10: Stable Modulation Index - Receiver.
    public static let stableModulationIndexReceiver = LEFeatures(rawValue: 1 << 10)
    /// Bit 11: LE Coded PHY.
    public static let leCodedPHY = LEFeatures(rawValue: 1 << 11)
    /// Bit 12: LE Extended Advertising.
    public static let leExtendedAdvertising = LEFeatures(rawValue: 1 << 12)
    /// Bit 13: LE Periodic Advertising.
    public static let lePeriodicAdvertising = LEFeatures(rawValue: 1 << 13)
    /// Bit 14: Channel Selection Algorithm #2.
    public static let channelSelectionAlgorithm2 = LEFeatures(rawValue: 1 << 14)
    /// Bit 15: LE Power Class 1.
    public static let lePowerClass1 = LEFeatures(rawValue: 1 << 15)
    /// Bit 16: Minimum Number of Used Channels procedure.
    public static let minimumNumberOfUsedChannelsProcedure = LEFeatures(rawValue: 1 << 16)
    /// Bit 17: Connection CTE Request.
    public static let connectionCTERequest = LEFeatures(rawValue: 1 << 17)
    /// Bit 18: Connection CTE Response.
    public static let connectionCTEResponse = LEFeatures(rawValue: 1 << 18)
    /// Bit 19: Connectionless CTE Transmitter.
    public static let connectionlessCTETransmitter = LEFeatures(rawValue: 1 << 19)
    /// Bit 20: Connectionless CTE Receiver.
    public static let connectionlessCTEReceiver = LEFeatures(rawValue: 1 << 20)
    /// Bit 21: Antenna Switching During CTE Transmission (AoD).
    public static let antennaSwitchingDuringCTETransmission = LEFeatures(rawValue: 1 << 21)
    /// Bit 22: Antenna Switching During CTE Reception (AoA).
    public static let antennaSwitchingDuringCTEReception = LEFeatures(rawValue: 1 << 22)
    /// Bit 23: Receiving Constant Tone Extensions.
    public static let receivingConstantToneExtensions = LEFeatures(rawValue: 1 << 23)
    /// Bit 24: Periodic Advertising Sync Transfer - Sender.
    public static let periodicAdvertisingSyncTransferSender = LEFeatures(rawValue: 1 << 24)
    /// Bit 25: Periodic Advertising Sync Transfer - Recipient.
    public static let periodicAdvertisingSyncTransferRecipient = LEFeatures(rawValue: 1 << 25)
    /// Bit 26: Sleep Clock Accuracy Updates.
    public static let sleepClockAccuracyUpdates = LEFeatures(rawValue: 1 << 26)
    /// Bit 27: Remote Public Key Validation.
    public static let remotePublicKeyValidation = LEFeatures(rawValue: 1 << 27)
    /// Bit 28: Connected Isochronous Stream - Central.
    public static let connectedIsochronousStreamCentral = LEFeatures(rawValue: 1 << 28)
    /// Bit 29: Connected Isochronous Stream - Peripheral.
    public static let connectedIsochronousStreamPeripheral = LEFeatures(rawValue: 1 << 29)
    /// Bit 30: Isochronous Broadcaster.
    public static let isochronousBroadcaster = LEFeatures(rawValue: 1 << 30)
    /// Bit 31: Synchronized Receiver.
    public static let synchronizedReceiver = LEFeatures(rawValue: 1 << 31)
    /// Bit 32: Connected Isochronous Stream (Host Support).
    public static let connectedIsochronousStreamHostSupport = LEFeatures(rawValue: 1 << 32)
    /// Bit 33: LE Power Control Request.
    public static let lePowerControlRequest = LEFeatures(rawValue: 1 << 33)
    /// Bit 34: LE Power Control Request (second bit, set together with bit 33).
    public static let lePowerControlRequest2 = LEFeatures(rawValue: 1 << 34)
    /// Bit 35: LE Path Loss Monitoring.
    public static let lePathLossMonitoring = LEFeatures(rawValue: 1 << 35)
    /// Bit 36: Periodic Advertising ADI support.
    public static let periodicAdvertisingADISupport = LEFeatures(rawValue: 1 << 36)
    /// Bit 37: Connection Subrating.
    public static let connectionSubrating = LEFeatures(rawValue: 1 << 37)
    /// Bit 38: Connection Subrating (Host Support).
    public static let connectionSubratingHostSupport = LEFeatures(rawValue: 1 << 38)
    /// Bit 39: Channel Classification.
    public static let channelClassification = LEFeatures(rawValue: 1 << 39)
}
