// `cbtool scan`: list advertisers (AdvertiserFormatter.line / .json per advertiser, then a summary).

import CBToolKit

/// `cbtool scan`. To wire it to CoreBluetooth: replace the body with the live work, keeping the signature;
/// write every result through `output.emit(_:json:)` and end with `ToolError.failure` for errors a person can act on.
enum ScanCommand {
    static func run(_ invocation: Invocation, output: OutputSink) throws(ToolError) {
        try LiveCommandSupport.notYetAvailable(invocation)
    }
}
