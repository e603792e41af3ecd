// The controller a central manager uses on Linux, parsed from the transport option or OCB_TRANSPORT.

/// Which controller, and how it is reached.
///
/// Text syntax (option `CBCentralManagerOptionTransportKey`, environment variable `OCB_TRANSPORT`):
/// `hci0` kernel HCI socket of hci0 (the default); `user:hci0` HCI user channel (exclusive, needs the device down);
/// `tcp:HOST:PORT` H4 over TCP (e.g. a virtual controller); `serial:/dev/ttyUSB0@1000000` H4 over a UART at a baud rate
/// (`@BAUD` optional, 115200 by default).
package enum CentralTransport: Sendable, Hashable, CustomStringConvertible {
    /// Kernel HCI socket on `hci<index>`.
    case kernel(index: UInt16)
    /// HCI user channel on `hci<index>`.
    case userChannel(index: UInt16)
    /// H4 over TCP.
    case tcp(host: String, port: UInt16)
    /// H4 over a serial device.
    case serial(path: String, baudRate: Int)

    /// The default: the kernel socket on hci0.
    package static let `default` = CentralTransport.kernel(index: 0)

    /// Parses the text syntax; nil if malformed (never traps).
    package init?(_ text: String) {
        if let index = Self.hciIndex(text) {
            self = .kernel(index: index)
        } else if text.hasPrefix("user:"), let index = Self.hciIndex(String(text.dropFirst(5))) {
            self = .userChannel(index: index)
        } else if text.hasPrefix("tcp:") {
            let rest = text.dropFirst(4)
            guard let colon = rest.lastIndex(of: ":") else { return nil }
            let host = String(rest[rest.startIndex..<colon])
            guard !host.isEmpty, let port = UInt16(rest[rest.index(after: colon)...]), port > 0 else { return nil }
            self = .tcp(host: host, port: port)
        } else if text.hasPrefix("serial:") {
            let rest = text.dropFirst(7)
            var path = String(rest)
            var baud = 115_200
            if let at = rest.lastIndex(of: "@") {
                path = String(rest[rest.startIndex..<at])
                guard let value = Int(rest[rest.index(after: at)...]), value > 0 else { return nil }
                baud = value
            }
            guard path.hasPrefix("/") else { return nil }
            self = .serial(path: path, baudRate: baud)
        } else {
            return nil
        }
    }

    package var description: String {
        switch self {
        case .kernel(let index): "hci\(index)"
        case .userChannel(let index): "user:hci\(index)"
        case .tcp(let host, let port): "tcp:\(host):\(port)"
        case .serial(let path, let baud): "serial:\(path)@\(baud)"
        }
    }

    private static func hciIndex(_ text: String) -> UInt16? {
        guard text.hasPrefix("hci"), text.count > 3, text.count <= 8 else { return nil }
        return UInt16(text.dropFirst(3))
    }
}
