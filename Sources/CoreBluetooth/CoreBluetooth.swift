// The CoreBluetooth module: Apple's central-role API (CBCentralManager, CBPeripheral, ...) over a `CentralBackend`.
import Foundation

/// Seconds since 2001-01-01 00:00:00 UTC, as CoreFoundation's `CFAbsoluteTime` (not exported by Foundation on Linux).
///
/// Used by `centralManager(_:didDisconnectPeripheral:timestamp:isReconnecting:error:)`.
public typealias CFAbsoluteTime = Double
