// The size of each packet type's header on H4 and where its length field sits.

extension HCIPacketType {
    /// Number of header bytes after the indicator that carry the packet's length
    /// (Core v5.4 Vol 4 Part E §5.4): command 3 (opcode 2, length 1), ACL 4 (handle 2, length 2),
    /// SCO 3 (handle 2, length 1), event 2 (code 1, length 1), ISO 4 (handle 2, length 14 bits).
    public var h4HeaderLength: Int {
        switch self {
        case .command, .sco: 3
        case .acl, .iso: 4
        case .event: 2
        }
    }

    /// The payload length announced by `header` (exactly ``h4HeaderLength`` bytes, without the indicator).
    ///
    /// Command: byte 2. ACL: bytes 2...3 little-endian. SCO: byte 2. Event: byte 1.
    /// ISO: bytes 2...3 little-endian masked to 14 bits (ISO_Data_Load_Length, §5.4.5).
    /// Returns nil when `header` is shorter than ``h4HeaderLength``.
    public func h4PayloadLength(header: ArraySlice<UInt8>) -> Int? {
        guard header.count >= h4HeaderLength else { return nil }
        let base = header.startIndex
        switch self {
        case .command, .sco:
            return Int(header[base + 2])
        case .event:
            return Int(header[base + 1])
        case .acl:
            return Int(header[base + 2]) | Int(header[base + 3]) << 8
        case .iso:
            return (Int(header[base + 2]) | Int(header[base + 3]) << 8) & 0x3FFF
        }
    }
}
