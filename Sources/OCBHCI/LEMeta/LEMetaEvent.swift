// The LE Meta event (0x3E) decoded by subevent code; unknown subevents kept raw.

/// An LE Meta event's subevent (Core v5.4 Vol 4 Part E §7.7.65).
///
/// Layout: Subevent_Code (1), then the subevent's parameters. Unknown subevents are kept as
/// ``unknown(subevent:parameters:)``, never an error.
public enum LEMetaEvent: Hashable, Sendable {
    /// 0x01 LE Connection Complete.
    case connectionComplete(LEConnectionComplete)
    /// 0x02 LE Advertising Report (one or more reports).
    case advertisingReport(LEAdvertisingReportEvent)
    /// 0x03 LE Connection Update Complete.
    case connectionUpdateComplete(LEConnectionUpdateComplete)
    /// 0x04 LE Read Remote Features Complete.
    case readRemoteFeaturesComplete(LEReadRemoteFeaturesComplete)
    /// 0x05 LE Long Term Key Request.
    case longTermKeyRequest(LELongTermKeyRequest)
    /// 0x06 LE Remote Connection Parameter Request.
    case remoteConnectionParameterRequest(LERemoteConnectionParameterRequest)
    /// 0x07 LE Data Length Change.
    case dataLengthChange(LEDataLengthChange)
    /// 0x0A LE Enhanced Connection Complete [v1].
    case enhancedConnectionComplete(LEConnectionComplete)
    /// 0x0B LE Directed Advertising Report (one or more reports).
    case directedAdvertisingReport(LEDirectedAdvertisingReportEvent)
    /// 0x0C LE PHY Update Complete.
    case phyUpdateComplete(LEPHYUpdateComplete)
    /// 0x0D LE Extended Advertising Report (one or more reports).
    case extendedAdvertisingReport(LEExtendedAdvertisingReportEvent)
    /// 0x11 LE Scan Timeout (no parameters).
    case scanTimeout
    /// 0x14 LE Channel Selection Algorithm.
    case channelSelectionAlgorithm(LEChannelSelectionAlgorithm)
    /// 0x29 LE Enhanced Connection Complete [v2].
    case enhancedConnectionCompleteV2(LEConnectionComplete)
    /// Any other subevent: its code and the parameters after it.
    case unknown(subevent: UInt8, parameters: [UInt8])

    /// Decodes the LE Meta event parameters (Subevent_Code first). Throws ``HCIEventDecodingError`` when the
    /// subevent code is missing or a known subevent is malformed; offsets count from the subevent code byte.
    public init(parameters: [UInt8]) throws(HCIEventDecodingError) {
        guard let subevent = parameters.first else {
            throw HCIEventDecodingError(event: "LE Meta", field: "Subevent_Code", offset: 0, reason: "needed 1 byte(s), 0 available")
        }
        var reader = FieldReader(parameters, event: "LE Meta")
        _ = try reader.u8("Subevent_Code")
        switch subevent {
        case 0x01: self = .connectionComplete(try LEConnectionComplete.decode(&reader, version: .legacy))
        case 0x02: self = .advertisingReport(try LEAdvertisingReportEvent.decode(&reader))
        case 0x03: self = .connectionUpdateComplete(try LEConnectionUpdateComplete.decode(&reader))
        case 0x04: self = .readRemoteFeaturesComplete(try LEReadRemoteFeaturesComplete.decode(&reader))
        case 0x05: self = .longTermKeyRequest(try LELongTermKeyRequest.decode(&reader))
        case 0x06: self = .remoteConnectionParameterRequest(try LERemoteConnectionParameterRequest.decode(&reader))
        case 0x07: self = .dataLengthChange(try LEDataLengthChange.decode(&reader))
        case 0x0A: self = .enhancedConnectionComplete(try LEConnectionComplete.decode(&reader, version: .enhancedV1))
        case 0x0B: self = .directedAdvertisingReport(try LEDirectedAdvertisingReportEvent.decode(&reader))
        case 0x0C: self = .phyUpdateComplete(try LEPHYUpdateComplete.decode(&reader))
        case 0x0D: self = .extendedAdvertisingReport(try LEExtendedAdvertisingReportEvent.decode(&reader))
        case 0x11: self = .scanTimeout
        case 0x14: self = .channelSelectionAlgorithm(try LEChannelSelectionAlgorithm.decode(&reader))
        case 0x29: self = .enhancedConnectionCompleteV2(try LEConnectionComplete.decode(&reader, version: .enhancedV2))
        default: self = .unknown(subevent: subevent, parameters: Array(parameters.dropFirst()))
        }
    }
}
