// The controller a central manager uses on Linux: Host's TransportSpec, read from the transport option or OCB_TRANSPORT.

package import OCBHost

/// Which controller, and how it is reached: ``Host/TransportSpec``, whose text syntax the option
/// `CBCentralManagerOptionTransportKey` and the environment variable `OCB_TRANSPORT` use: `hci0` kernel HCI socket
/// of hci0 (the default); `user:hci0` HCI user channel (exclusive, needs the device down); `tcp:HOST:PORT` H4 over
/// TCP (e.g. a virtual controller); `serial:/dev/ttyUSB0@1000000` H4 over a UART (`@BAUD` optional, 115200 default);
/// `replay:PATH` a capture file played back to the stack, each packet it sends checked byte for byte against the
/// recording (`replay-tolerant:PATH` for recordings of other stacks: answered by kind).
package typealias CentralTransport = TransportSpec

extension TransportSpec {
    /// The default: the kernel socket on hci0.
    package static let `default` = TransportSpec.hciSocket(controller: 0, channel: .raw)

    /// Parses the text syntax; nil if malformed (never traps; ``Host/TransportSpec/init(_:)`` says why).
    package init?(parsing text: String) {
        guard let spec = try? TransportSpec(text) else { return nil }
        self = spec
    }
}
