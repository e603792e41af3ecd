// The Number Of Completed Packets event: ACL credits returned per connection handle.

/// The Number Of Completed Packets event, code 0x13 (Core v5.4 Vol 4 Part E §7.7.19).
///
/// Layout: Num_Handles (1), then per handle (interleaved, Vol 4 Part E §5.2): Connection_Handle (2),
/// Num_Completed_Packets (2). Decoded leniently: if the event is cut inside an entry, the whole entries before
/// it are kept (credits must not be lost) and ``diagnostic`` says where it broke.
public struct HCINumberOfCompletedPacketsEvent: Hashable, Sendable {
    /// One handle's returned credits.
    public struct Entry: Hashable, Sendable {
        /// Connection_Handle.
        public var handle: ConnectionHandle
        /// Num_Completed_Packets: packets of that handle the controller has finished with.
        public var completedPackets: UInt16
        /// Makes an entry.
        public init(handle: ConnectionHandle, completedPackets: UInt16) {
            self.handle = handle
            self.completedPackets = completedPackets
        }
    }

    /// The entries, in event order.
    public var entries: [Entry]
    /// Set when the event was cut short after some entries.
    public var diagnostic: HCIEventDecodingError?

    /// Makes the event.
    public init(entries: [Entry], diagnostic: HCIEventDecodingError? = nil) {
        self.entries = entries
        self.diagnostic = diagnostic
    }

    static func decode(_ parameters: [UInt8]) throws(HCIEventDecodingError) -> Self {
        var reader = FieldReader(parameters, event: "Number Of Completed Packets")
        let count = Int(try reader.u8("Num_Handles"))
        var entries: [Entry] = []
        for index in 0..<count {
            do {
                let handle = try reader.handle("Connection_Handle[\(index)]")
                entries.append(Entry(handle: handle, completedPackets: try reader.u16("Num_Completed_Packets[\(index)]")))
            } catch {
                if entries.isEmpty { throw error }
                return Self(entries: entries, diagnostic: error)
            }
        }
        return Self(entries: entries)
    }
}
