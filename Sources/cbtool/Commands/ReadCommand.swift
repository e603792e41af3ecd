// `cbtool read`: read AttributeTarget(operand(1)) on operand(0) and print GATTValueDecoder.text.

import CBToolKit

/// `cbtool read`. To wire it to CoreBluetooth: replace the body with the live work, keeping the signature;
/// write every result through `output.emit(_:json:)` and end with `ToolError.failure` for errors a person can act on.
enum ReadCommand {
    static func run(_ invocation: Invocation, output: OutputSink) throws(ToolError) {
        try LiveCommandSupport.notYetAvailable(invocation)
    }
}
