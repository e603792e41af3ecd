// Prints whether CrossPlatform saw CoreBluetooth, for scripts/compat-check to assert.
import CrossPlatform

print("canImport(CoreBluetooth): \(sawCoreBluetooth) \(heartRateUUIDText())")
