// The text form of a transport ("hci0", "user:hci0", "tcp:HOST:PORT", "serial:DEVICE[@BAUD]", "replay:PATH") and the transport it names.

/// A transport named by text, as a command line takes it (`--transport SPEC`).
///
/// - `hciN`: Linux HCI socket, raw channel, controller N.
/// - `user:hciN`: Linux HCI socket, user channel (exclusive), controller N.
/// - `tcp:HOST:PORT`: H4 over TCP; HOST may be a name, IPv4 or `[IPv6]`; PORT 1...65535.
/// - `serial:DEVICE[@BAUD]`: H4 over a serial device or pty, 8N1 with RTS/CTS, BAUD bits/s (default 115200).
/// - `replay:PATH`: a capture file (btsnoop, pcap, pcapng) played back strictly; `replay-tolerant:PATH` tolerantly
///   (``ReplayTransport``). PATH is the rest of the text (it may hold colons).
public enum TransportSpec: Hashable, Sendable, CustomStringConvertible {
    /// A Linux HCI socket on controller `controller` and `channel`.
    case hciSocket(controller: UInt16, channel: HCISocketTransport.Channel)
    /// H4 over a TCP client connection.
    case tcp(host: String, port: UInt16)
    /// H4 over a serial device.
    case serial(path: String, baudRate: Int)
    /// A recording played back (``ReplayTransport``): `replay:PATH` strict, `replay-tolerant:PATH` tolerant.
    case replay(path: String, mode: ReplayMode)

    /// The default serial speed.
    public static let defaultBaudRate = 115_200

    /// Parses `text`. Throws ``HCITransportError/invalidSpecification(_:)`` with a one-line message naming what is wrong.
    public init(_ text: String) throws(HCITransportError) {
        func invalid(_ why: String) -> HCITransportError {
            .invalidSpecification("invalid transport \"\(text)\": \(why) (expected hciN, user:hciN, tcp:HOST:PORT, serial:DEVICE[@BAUD], replay:PATH or replay-tolerant:PATH)")
        }
        func controller(_ name: Substring) throws(HCITransportError) -> UInt16 {
            guard name.hasPrefix("hci"), let index = UInt16(name.dropFirst(3)), !name.dropFirst(3).hasPrefix("+") else {
                throw invalid("\"\(name)\" is not a controller name like hci0")
            }
            return index
        }
        if text.hasPrefix("replay:") || text.hasPrefix("replay-tolerant:") {
            let tolerant = text.hasPrefix("replay-tolerant:")
            let path = String(text.dropFirst(tolerant ? 16 : 7))
            guard !path.isEmpty else { throw invalid("missing the capture file's PATH") }
            self = .replay(path: path, mode: tolerant ? .tolerant : .strict)
        } else if text.hasPrefix("user:") {
            self = .hciSocket(controller: try controller(text.dropFirst(5)), channel: .user)
        } else if text.hasPrefix("tcp:") {
            let rest = text.dropFirst(4)
            guard let colon = rest.lastIndex(of: ":") else { throw invalid("missing :PORT") }
            var host = rest[..<colon]
            if host.hasPrefix("["), host.hasSuffix("]") { host = host.dropFirst().dropLast() }
            guard !host.isEmpty else { throw invalid("missing HOST") }
            guard let port = UInt16(rest[rest.index(after: colon)...]), port > 0 else {
                throw invalid("port \"\(rest[rest.index(after: colon)...])\" is not a number in 1...65535")
            }
            self = .tcp(host: String(host), port: port)
        } else if text.hasPrefix("serial:") {
            let rest = text.dropFirst(7)
            var path = rest
            var rate = Self.defaultBaudRate
            if let at = rest.lastIndex(of: "@") {
                path = rest[..<at]
                guard let parsed = Int(rest[rest.index(after: at)...]), parsed > 0 else {
                    throw invalid("baud rate \"\(rest[rest.index(after: at)...])\" is not a positive number")
                }
                rate = parsed
            }
            guard !path.isEmpty else { throw invalid("missing DEVICE") }
            self = .serial(path: String(path), baudRate: rate)
        } else if text.hasPrefix("hci") {
            self = .hciSocket(controller: try controller(text[...]), channel: .raw)
        } else {
            throw invalid("unknown kind")
        }
    }

    /// A new, unopened transport for this spec (serial lines use RTS/CTS flow control).
    public func makeTransport() -> any HCITransport {
        switch self {
        case let .hciSocket(controller, channel): HCISocketTransport(controller: controller, channel: channel)
        case let .tcp(host, port): H4StreamTransport(endpoint: .tcp(host: host, port: port))
        case let .serial(path, rate): H4StreamTransport(endpoint: .serial(path: path, baudRate: rate, flowControl: true))
        case let .replay(path, mode): ReplayTransport(session: ReplaySession(path: path, mode: mode))
        }
    }

    /// What a host opens at each start: a fresh transport each time, except that every transport of a replay shares
    /// one ``ReplaySession`` (the recording plays once; a retry after its end is refused).
    public func makeTransportFactory() -> @Sendable () -> any HCITransport {
        if case let .replay(path, mode) = self {
            let session = ReplaySession(path: path, mode: mode)
            return { ReplayTransport(session: session) }
        }
        return { self.makeTransport() }
    }

    /// The spec in its text form (parses back to the same value).
    public var description: String {
        switch self {
        case let .hciSocket(controller, channel): channel == .raw ? "hci\(controller)" : "user:hci\(controller)"
        case let .tcp(host, port): host.contains(":") ? "tcp:[\(host)]:\(port)" : "tcp:\(host):\(port)"
        case let .serial(path, rate): "serial:\(path)@\(rate)"
        case let .replay(path, mode): (mode == .strict ? "replay:" : "replay-tolerant:") + path
        }
    }
}
