// The CoreBluetooth module: Apple's central-role API (CBCentralManager, CBPeripheral, ...) over a `CentralBackend`;
// like Apple's framework it re-exports Foundation (and with it Dispatch), so `import CoreBluetooth` alone gives `Data`,
// `UUID`, `NSNumber`, `Date` and `DispatchQueue`.
@_exported public import Foundation

/// Seconds since 2001-01-01 00:00:00 UTC, as CoreFoundation's `CFAbsoluteTime` (not exported by Foundation on Linux).
///
/// Used by `centralManager(_:didDisconnectPeripheral:timestamp:isReconnecting:error:)`.
public typealias CFAbsoluteTime = Double

/// The current absolute time in seconds since 2001-01-01 00:00:00 UTC, as CoreFoundation's
/// `CFAbsoluteTimeGetCurrent()` (which Apple's CoreBluetooth makes visible through Foundation and Foundation on Linux
/// does not export): `Date().timeIntervalSinceReferenceDate`, the wall clock, so it can step when the clock is set.
public func CFAbsoluteTimeGetCurrent() -> CFAbsoluteTime {
    Date().timeIntervalSinceReferenceDate
}
