// The Host module: transports, controller bring-up, scanning and connections; the only layer that touches sockets, threads and clocks.
//
// Public surface (see each type's documentation):
// - `CentralHost` (protocol): what the CoreBluetooth facade drives, one instance per controller.
//   `HostController` implements it in full-host mode (H4 over TCP/serial, HCI user channel: we Reset and own the
//   controller); `KernelHost` in kernel mode (BlueZ owns the controller: raw HCI socket for scanning, kernel L2CAP
//   ATT sockets for connections).
// - Events (`HostEvent`) are pushed, in order, on the queue given to `setEventHandler(queue:_:)`: stateChanged,
//   discovered, scanStopped, connected, connectionFailed, disconnected(reason, error), mtuChanged, connectionUpdated,
//   dataLengthChanged, phyUpdated, attReceived (notifications/indications, already confirmed), diagnostic.
// - Calls take completions delivered on that same queue; `CentralHost+Async.swift` gives async forms.
// - ATT: `sendATTRequest` sequences requests (one outstanding per connection, 30 s timeout, Core v5.4 Vol 3 Part F
//   §3.3); `sendATT` sends commands or raw PDUs. A GATTClient is driven over these: send each PDU of
//   `takeOutgoing()` (requests with `sendATTRequest`, commands with `sendATT`), feed responses to
//   `receiveResponse(_:)` and `attReceived` PDUs to `receiveServerPDU(_:)`.
// - Pure, separately tested logic: `ScanResultMerger` (scan responses, bounded wait, duplicate and service filters),
//   `ConnectionAttemptQueue` (one LE Create Connection at a time, timeout, cancel), ATT sequencing (`ATTTransactions`).
import BluetoothCore
import CBlueZ
