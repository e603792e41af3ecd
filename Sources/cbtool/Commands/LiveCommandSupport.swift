// What every live command shares: the transport check, the direct transport probe, and finding + connecting a device.

import OCBCore
import OCBToolKit
import Dispatch
import Foundation
import OCBHost

/// Shared steps of the live commands (scan, gatt, read, write, notify, rssi).
enum LiveCommandSupport {
    /// Parses `--transport` with Host's TransportSpec; a malformed spec is a usage error (exit 2).
    static func transportSpec(_ invocation: Invocation) throws(ToolError) -> TransportSpec {
        do {
            return try TransportSpec(invocation.transport)
        } catch {
            throw .usage("\(error)", usage: "usage: " + invocation.command.usage)
        }
    }

    /// Opens and closes the transport once, so a missing controller, a kernel without Bluetooth, missing capabilities,
    /// a busy controller or a refused connection are reported with the transport's own one-line message (exit 1).
    /// Used after CoreBluetooth reported a state below `.poweredOn`, to say why.
    static func probe(_ spec: TransportSpec) throws(ToolError) {
        let transport = spec.makeTransport()
        do {
            try transport.open(queue: DispatchQueue(label: "cbtool.probe"), onPacket: { _ in }, onClose: { _ in })
        } catch {
            throw ToolError.transport(error, spec: spec.description)
        }
        transport.close()
    }

    /// Opens a session, scans until the device at operand 0 advertises, and connects to it.
    /// Throws the session's failures, "device not found", "advertises as non-connectable" (at once, not after the
    /// connect timeout) and connection failures; the session is closed on failure.
    static func connectedDevice(_ invocation: Invocation) throws(ToolError) -> (CentralSession, FoundDevice) {
        guard let address = BluetoothAddress(invocation.operand(0)) else {
            throw .usage("\"\(invocation.operand(0))\" is not a device address like 12:34:56:78:9A:BC", usage: "usage: " + invocation.command.usage)
        }
        let session = try CentralSession(invocation)
        do throws(ToolError) {
            let device = try session.find(address)
            guard device.isConnectable else {
                throw .failure("\(address) advertises as non-connectable (ADV_NONCONN_IND or ADV_SCAN_IND): "
                                        + "it cannot be connected")
            }
            try session.connect(device.peripheral)
            return (session, device)
        } catch {
            session.close()
            throw error
        }
    }

    /// A timestamp for JSON lines: ISO 8601 in UTC with milliseconds ("2025-01-31T12:00:00.123Z").
    /// The same formatter as `decode --json` (``ISOTime``).
    static func isoTime(_ date: Date) -> String {
        ISOTime.string(microsecondsSince1970: microsecondsSince1970(date))
    }

    /// The microseconds from 1970-01-01T00:00:00Z to `date`, rounded down (0 for a date no Int64 holds): what
    /// ``isoTime(_:)`` formats.
    static func microsecondsSince1970(_ date: Date) -> Int64 {
        Int64(exactly: (date.timeIntervalSince1970 * 1_000_000).rounded(.down)) ?? 0
    }

    /// A timestamp for text lines: local time of day with milliseconds ("14:03:22.517").
    static func clockTime(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "HH:mm:ss.SSS"
        return formatter.string(from: date)
    }

    /// Seconds with one decimal ("3.0") for summaries.
    static func secondsText(_ duration: Duration) -> String {
        let tenths = (duration.components.seconds * 10) + duration.components.attoseconds / 100_000_000_000_000_000
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// Seconds as a JSON number with millisecond precision.
    static func secondsJSON(_ duration: Duration) -> JSONValue {
        let millis = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        return .double(Double(millis) / 1000)
    }
}
