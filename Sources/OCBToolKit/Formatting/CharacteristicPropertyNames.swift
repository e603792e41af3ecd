// The names cbtool prints for the bits of a characteristic's Properties (GATT's value type).

import OCBGATT

extension GATTCharacteristicProperties {
    /// The set bits as cbtool prints them, in bit order: "broadcast", "read", "write-without-response", "write",
    /// "notify", "indicate", "signed-write", "extended" (Core v5.4 Vol 3 Part G §3.3.1.1, bits 0x01...0x80).
    public var names: [String] {
        let labels: [(GATTCharacteristicProperties, String)] = [
            (.broadcast, "broadcast"), (.read, "read"), (.writeWithoutResponse, "write-without-response"),
            (.write, "write"), (.notify, "notify"), (.indicate, "indicate"),
            (.authenticatedSignedWrites, "signed-write"), (.extendedProperties, "extended"),
        ]
        return labels.filter { contains($0.0) }.map(\.1)
    }
}
