// Placeholder so the package resolves until the BluetoothCore tests land (added on the hci-packets branch only to build).
import Testing
@Test func placeholderBluetoothCoreTests() {}
