// Cross-platform code that does not depend on CoreBluetooth but uses it where it can be imported; scripts/compat-check
// builds it after CoreBluetooth so that canImport finds our module in the same build.
#if canImport(CoreBluetooth)
import CoreBluetooth

/// True: this build found a CoreBluetooth module.
public let sawCoreBluetooth = true

/// The Heart Rate service UUID's text form through CoreBluetooth.
public func heartRateUUIDText() -> String { CBUUID(string: "180D").uuidString }
#else
/// False: this build found no CoreBluetooth module.
public let sawCoreBluetooth = false

/// Without CoreBluetooth, the same text.
public func heartRateUUIDText() -> String { "180D" }
#endif
