// `cbtool write`: write WriteValue.bytes(operand(2), encoding: invocation.valueEncoding) to AttributeTarget(operand(1)), with or without response.

import CBToolKit

/// `cbtool write`. To wire it to CoreBluetooth: replace the body with the live work, keeping the signature;
/// write every result through `output.emit(_:json:)` and end with `ToolError.failure` for errors a person can act on.
enum WriteCommand {
    static func run(_ invocation: Invocation, output: OutputSink) throws(ToolError) {
        try LiveCommandSupport.notYetAvailable(invocation)
    }
}
