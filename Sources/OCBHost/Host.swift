// The Host module: transports, controller bring-up, scanning and connections; the only layer that touches sockets, threads and clocks.
//
// Public surface (see each type's documentation):
// - `CentralHost` (protocol): what the CoreBluetooth facade drives, one instance per controller.
//   `HostController` implements it in full-host mode (H4 over TCP/serial, HCI user channel: we Reset and own the
//   controller); `KernelHost` in kernel mode (BlueZ owns the controller: raw HCI socket for scanning, kernel L2CAP
//   ATT sockets for connections).
// - Events (`HostEvent`) are pushed, in order, on the queue given to `setEventHandler(queue:_:)`: stateChanged,
//   discovered, scanStopped, connected, connectionFailed, disconnected(reason, error), mtuChanged, connectionUpdated,
//   dataLengthChanged, phyUpdated, readyToSendWriteWithoutResponse, attReceived (notifications/indications, already
//   confirmed), diagnostic.
// - Calls take completions delivered on that same queue; `CentralHost+Async.swift` gives async forms.
// - ATT and GATT: each connection has one `OCBATT.ATTBearer` (one request outstanding, FIFO, 30 s timeout, Core v5.4
//   Vol 3 Part F §3.3; confirmations; the minimal server) and one `OCBGATT.GATTClient` running over it on the host's
//   queue (`LinkATT`). `withGATT(_:_:)` hands the client to a closure on that queue; procedures go out when it returns,
//   completions and value handlers run on that queue; a link's end closes the client with `GATTError.disconnected`.
//   `canSendWriteWithoutResponse(_:)` and `readyToSendWriteWithoutResponse` follow the ACL buffers.
//   The raw calls `sendATTRequest`, `sendATT` and `exchangeMTU` use the same bearer (for tests and tools).
// - Pure, separately tested logic: `ScanResultMerger` (scan responses, bounded wait, duplicate and service filters;
//   service UUIDs via `OCBAdvertising.AdvertisingData`), `ConnectionAttemptQueue` (one LE Create Connection at a time,
//   timeout, cancel).
import OCBCore
// The kernel ABI shim stays out of this module's interface: `internal import` still makes every client of a
// non-resilient module load COCBBlueZ (so a target with `#if canImport(CoreBluetooth)` would fail with "missing required
// module 'COCBBlueZ'"), `@_implementationOnly` does not. That is sound only while no COCBBlueZ type appears in a stored
// property or a non-private signature; the shim exposes functions over plain integers and pointers for that reason.
@_implementationOnly import COCBBlueZ
