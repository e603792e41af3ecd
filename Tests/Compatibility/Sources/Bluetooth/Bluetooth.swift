// A stand-in for another Swift Bluetooth package's module named Bluetooth (its name is the point, not its content).
public struct BluetoothAddress: Sendable {
    public let bytes: [UInt8]
    public init(bytes: [UInt8]) { self.bytes = bytes }
}
