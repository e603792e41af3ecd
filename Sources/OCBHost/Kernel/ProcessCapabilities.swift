// The process's effective Linux capabilities (CapEff in /proc/self/status), for the errors a missing one gives.

import Foundation

/// The effective capability set of this process (capabilities(7)), read from the `CapEff:` line of
/// `/proc/self/status` (a 64-bit mask in hexadecimal, bit N = capability N).
///
/// The kernel's Bluetooth sockets check two of them (net/bluetooth/hci_sock.c): CAP_NET_RAW (13) to send commands
/// on a raw HCI socket and to read the HCI monitor channel, CAP_NET_ADMIN (12) to bind the user channel and for the
/// management commands (mgmt-api.txt "trusted" sockets). The check runs at open, so a missing capability is
/// reported as ``HostState/unauthorized`` with what to grant, not found later as a command that never answers.
/// Inside a user namespace CapEff can list what the kernel's init-namespace check refuses; the sockets' own
/// EPERM is then still mapped to ``HostError/permissionDenied(_:)``.
public struct ProcessCapabilities: Sendable, Equatable {
    /// The effective set, bit N = capability N.
    public let effective: UInt64

    /// CAP_NET_ADMIN, capability 12.
    public static let netAdmin = 12
    /// CAP_NET_RAW, capability 13.
    public static let netRaw = 13

    /// A set from its mask.
    public init(effective: UInt64) { self.effective = effective }

    /// Whether capability `number` (0...63) is effective.
    public func has(_ number: Int) -> Bool {
        (0..<64).contains(number) && effective & (UInt64(1) << UInt64(number)) != 0
    }

    /// The set from the text of /proc/PID/status: the `CapEff:` line's hexadecimal mask; nil when the line is missing
    /// or is not 1 to 16 hexadecimal digits.
    public static func parse(status text: String) -> ProcessCapabilities? {
        for line in text.split(separator: "\n") where line.hasPrefix("CapEff:") {
            let digits = line.dropFirst("CapEff:".count).trimmingCharacters(in: .whitespaces)
            guard (1...16).contains(digits.count), let mask = UInt64(digits, radix: 16) else { return nil }
            return ProcessCapabilities(effective: mask)
        }
        return nil
    }

    /// This process's set; nil when /proc/self/status cannot be read or parsed (the sockets' EPERM then decides).
    public static func current() -> ProcessCapabilities? {
        guard let data = FileManager.default.contents(atPath: "/proc/self/status") else { return nil }
        return parse(status: String(decoding: data, as: UTF8.self))
    }
}
