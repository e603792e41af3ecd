// LE Meta subevents about an open connection: updates, features, keys, data length, PHY, channel selection.

/// LE Connection Update Complete, subevent 0x03 (Core v5.4 Vol 4 Part E §7.7.65.3): Status (1), Connection_Handle (2),
/// Connection_Interval (2, 1.25 ms), Peripheral_Latency (2, events), Supervision_Timeout (2, 10 ms).
public struct LEConnectionUpdateComplete: Hashable, Sendable {
    /// Status.
    public var status: HCIErrorCode
    /// Connection_Handle.
    public var handle: ConnectionHandle
    /// Connection_Interval, 1.25 ms units.
    public var connectionInterval: UInt16
    /// Peripheral_Latency, connection events.
    public var peripheralLatency: UInt16
    /// Supervision_Timeout, 10 ms units.
    public var supervisionTimeout: UInt16

    /// Makes the value from its fields.
    public init(status: HCIErrorCode, handle: ConnectionHandle, connectionInterval: UInt16, peripheralLatency: UInt16, supervisionTimeout: UInt16) {
        self.status = status
        self.handle = handle
        self.connectionInterval = connectionInterval
        self.peripheralLatency = peripheralLatency
        self.supervisionTimeout = supervisionTimeout
    }

    static func decode(_ reader: inout FieldReader) throws(HCIEventDecodingError) -> Self {
        reader.event = "LE Connection Update Complete"
        return Self(status: try reader.status(), handle: try reader.handle(), connectionInterval: try reader.u16("Connection_Interval"),
                    peripheralLatency: try reader.u16("Peripheral_Latency"), supervisionTimeout: try reader.u16("Supervision_Timeout"))
    }
}

/// LE Read Remote Features Complete, subevent 0x04 (Core v5.4 Vol 4 Part E §7.7.65.4): Status (1), Connection_Handle (2),
/// LE_Features (8, Vol 6 Part B §4.6).
public struct LEReadRemoteFeaturesComplete: Hashable, Sendable {
    /// Status.
    public var status: HCIErrorCode
    /// Connection_Handle.
    public var handle: ConnectionHandle
    /// The peer's LE features (the controller's view when Status is not 0).
    public var features: LEFeatures

    /// Makes the value from its fields.
    public init(status: HCIErrorCode, handle: ConnectionHandle, features: LEFeatures) {
        self.status = status
        self.handle = handle
        self.features = features
    }

    static func decode(_ reader: inout FieldReader) throws(HCIEventDecodingError) -> Self {
        reader.event = "LE Read Remote Features Complete"
        return Self(status: try reader.status(), handle: try reader.handle(), features: LEFeatures(rawValue: try reader.u64("LE_Features")))
    }
}

/// LE Long Term Key Request, subevent 0x05 (Core v5.4 Vol 4 Part E §7.7.65.5): Connection_Handle (2),
/// Random_Number (8), Encrypted_Diversifier (2). Sent to a peripheral; a central sees it only in tests.
public struct LELongTermKeyRequest: Hashable, Sendable {
    /// Connection_Handle.
    public var handle: ConnectionHandle
    /// Random_Number (Rand).
    public var randomNumber: UInt64
    /// Encrypted_Diversifier (EDIV).
    public var encryptedDiversifier: UInt16

    /// Makes the value from its fields.
    public init(handle: ConnectionHandle, randomNumber: UInt64, encryptedDiversifier: UInt16) {
        self.handle = handle
        self.randomNumber = randomNumber
        self.encryptedDiversifier = encryptedDiversifier
    }

    static func decode(_ reader: inout FieldReader) throws(HCIEventDecodingError) -> Self {
        reader.event = "LE Long Term Key Request"
        return Self(handle: try reader.handle(), randomNumber: try reader.u64("Random_Number"),
                    encryptedDiversifier: try reader.u16("Encrypted_Diversifier"))
    }
}

/// LE Remote Connection Parameter Request, subevent 0x06 (Core v5.4 Vol 4 Part E §7.7.65.6): Connection_Handle (2),
/// Interval_Min (2), Interval_Max (2) in 1.25 ms, Max_Latency (2, events), Timeout (2, 10 ms).
/// Answer with LE Remote Connection Parameter Request Reply or Negative Reply.
public struct LERemoteConnectionParameterRequest: Hashable, Sendable {
    /// Connection_Handle.
    public var handle: ConnectionHandle
    /// Interval_Min, 1.25 ms units.
    public var intervalMin: UInt16
    /// Interval_Max, 1.25 ms units.
    public var intervalMax: UInt16
    /// Max_Latency, connection events.
    public var maxLatency: UInt16
    /// Timeout (supervision), 10 ms units.
    public var timeout: UInt16

    /// Makes the value from its fields.
    public init(handle: ConnectionHandle, intervalMin: UInt16, intervalMax: UInt16, maxLatency: UInt16, timeout: UInt16) {
        self.handle = handle
        self.intervalMin = intervalMin
        self.intervalMax = intervalMax
        self.maxLatency = maxLatency
        self.timeout = timeout
    }

    static func decode(_ reader: inout FieldReader) throws(HCIEventDecodingError) -> Self {
        reader.event = "LE Remote Connection Parameter Request"
        return Self(handle: try reader.handle(), intervalMin: try reader.u16("Interval_Min"), intervalMax: try reader.u16("Interval_Max"),
                    maxLatency: try reader.u16("Max_Latency"), timeout: try reader.u16("Timeout"))
    }
}

/// LE Data Length Change, subevent 0x07 (Core v5.4 Vol 4 Part E §7.7.65.7): Connection_Handle (2), Max_TX_Octets (2),
/// Max_TX_Time (2, µs), Max_RX_Octets (2), Max_RX_Time (2, µs).
public struct LEDataLengthChange: Hashable, Sendable {
    /// Connection_Handle.
    public var handle: ConnectionHandle
    /// Max_TX_Octets, bytes of LL payload.
    public var maxTxOctets: UInt16
    /// Max_TX_Time, microseconds.
    public var maxTxTime: UInt16
    /// Max_RX_Octets, bytes of LL payload.
    public var maxRxOctets: UInt16
    /// Max_RX_Time, microseconds.
    public var maxRxTime: UInt16

    /// Makes the value from its fields.
    public init(handle: ConnectionHandle, maxTxOctets: UInt16, maxTxTime: UInt16, maxRxOctets: UInt16, maxRxTime: UInt16) {
        self.handle = handle
        self.maxTxOctets = maxTxOctets
        self.maxTxTime = maxTxTime
        self.maxRxOctets = maxRxOctets
        self.maxRxTime = maxRxTime
    }

    static func decode(_ reader: inout FieldReader) throws(HCIEventDecodingError) -> Self {
        reader.event = "LE Data Length Change"
        return Self(handle: try reader.handle(), maxTxOctets: try reader.u16("Max_TX_Octets"), maxTxTime: try reader.u16("Max_TX_Time"),
                    maxRxOctets: try reader.u16("Max_RX_Octets"), maxRxTime: try reader.u16("Max_RX_Time"))
    }
}

/// LE PHY Update Complete, subevent 0x0C (Core v5.4 Vol 4 Part E §7.7.65.12): Status (1), Connection_Handle (2),
/// TX_PHY (1), RX_PHY (1).
public struct LEPHYUpdateComplete: Hashable, Sendable {
    /// Status.
    public var status: HCIErrorCode
    /// Connection_Handle.
    public var handle: ConnectionHandle
    /// Transmitter PHY.
    public var txPHY: LEPHY
    /// Receiver PHY.
    public var rxPHY: LEPHY

    /// Makes the value from its fields.
    public init(status: HCIErrorCode, handle: ConnectionHandle, txPHY: LEPHY, rxPHY: LEPHY) {
        self.status = status
        self.handle = handle
        self.txPHY = txPHY
        self.rxPHY = rxPHY
    }

    static func decode(_ reader: inout FieldReader) throws(HCIEventDecodingError) -> Self {
        reader.event = "LE PHY Update Complete"
        return Self(status: try reader.status(), handle: try reader.handle(), txPHY: LEPHY(rawValue: try reader.u8("TX_PHY")),
                    rxPHY: LEPHY(rawValue: try reader.u8("RX_PHY")))
    }
}

/// LE Channel Selection Algorithm, subevent 0x14 (Core v5.4 Vol 4 Part E §7.7.65.20): Connection_Handle (2),
/// Channel_Selection_Algorithm (1: 0x00 #1, 0x01 #2).
public struct LEChannelSelectionAlgorithm: Hashable, Sendable {
    /// Connection_Handle.
    public var handle: ConnectionHandle
    /// Channel_Selection_Algorithm byte (0x00 algorithm #1, 0x01 algorithm #2).
    public var algorithm: UInt8

    /// Makes the value from its fields.
    public init(handle: ConnectionHandle, algorithm: UInt8) {
        self.handle = handle
        self.algorithm = algorithm
    }

    static func decode(_ reader: inout FieldReader) throws(HCIEventDecodingError) -> Self {
        reader.event = "LE Channel Selection Algorithm"
        return Self(handle: try reader.handle(), algorithm: try reader.u8("Channel_Selection_Algorithm"))
    }
}
