// What every live command does before it needs the radio: check the transport, open it once, report availability.

import CBToolKit
import Dispatch
import Host

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

    /// Opens and closes the transport once so a missing controller, a kernel without Bluetooth, missing capabilities
    /// or a busy controller are reported now, with the mapped one-line message (exit 1).
    static func probe(_ spec: TransportSpec) throws(ToolError) {
        let transport = spec.makeTransport()
        do {
            try transport.open(queue: DispatchQueue(label: "cbtool.probe"), onPacket: { _ in }, onClose: { _ in })
        } catch {
            throw ToolError.transport(error, spec: spec.description)
        }
        transport.close()
    }

    /// The stand-in until the CoreBluetooth facade is wired: checks the transport, then says the command is not available.
    static func notYetAvailable(_ invocation: Invocation) throws(ToolError) -> Never {
        let spec = try transportSpec(invocation)
        try probe(spec)
        throw .failure("\(invocation.command.rawValue) needs the CoreBluetooth runtime, which this build does not have yet; "
                       + "`cbtool decode FILE` works on recorded captures meanwhile")
    }
}
