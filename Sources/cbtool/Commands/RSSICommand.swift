// `cbtool rssi`: connect to operand(0) and print the RSSI in dBm.

import CBToolKit

/// `cbtool rssi`. To wire it to CoreBluetooth: replace the body with the live work, keeping the signature;
/// write every result through `output.emit(_:json:)` and end with `ToolError.failure` for errors a person can act on.
enum RSSICommand {
    static func run(_ invocation: Invocation, output: OutputSink) throws(ToolError) {
        try LiveCommandSupport.notYetAvailable(invocation)
    }
}
