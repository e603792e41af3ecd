// `cbtool notify`: subscribe to AttributeTarget(operand(1)) and emit timestamped values until interrupted or --duration.

import CBToolKit

/// `cbtool notify`. To wire it to CoreBluetooth: replace the body with the live work, keeping the signature;
/// write every result through `output.emit(_:json:)` and end with `ToolError.failure` for errors a person can act on.
enum NotifyCommand {
    static func run(_ invocation: Invocation, output: OutputSink) throws(ToolError) {
        try LiveCommandSupport.notYetAvailable(invocation)
    }
}
