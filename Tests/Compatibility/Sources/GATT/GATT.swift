// A stand-in for another Swift Bluetooth package's module named GATT (its name is the point, not its content).
public struct GATTAttribute: Sendable {
    public let handle: UInt16
    public init(handle: UInt16) { self.handle = handle }
}
