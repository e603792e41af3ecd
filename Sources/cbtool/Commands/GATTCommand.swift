// `cbtool gatt`: connect to operand(0) and print the database (GATTTreePrinter.emit).

import CBToolKit

/// `cbtool gatt`. To wire it to CoreBluetooth: replace the body with the live work, keeping the signature;
/// write every result through `output.emit(_:json:)` and end with `ToolError.failure` for errors a person can act on.
enum GATTCommand {
    static func run(_ invocation: Invocation, output: OutputSink) throws(ToolError) {
        try LiveCommandSupport.notYetAvailable(invocation)
    }
}
