// The seeded random generator and byte mutations every fuzz test shares, so each case is reproducible from its seed.

/// A seeded SplitMix64 generator with byte-mutation helpers, so every fuzz case is reproducible from its seed.
public struct FuzzRandom: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    public mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }

    public mutating func byte() -> UInt8 { UInt8.random(in: 0...255, using: &self) }

    public mutating func chance(_ percent: Int) -> Bool { int(0...99) < percent }

    public mutating func bytes(_ count: Int) -> [UInt8] { (0..<max(0, count)).map { _ in byte() } }

    /// A value at the edges where length and handle arithmetic breaks, or any byte.
    public mutating func edgeByte() -> UInt8 { [0x00, 0x01, 0x7F, 0x80, 0xFE, 0xFF, byte()][int(0...6)] }

    /// One to four mutations: bit flips, edge bytes, inserted, deleted or duplicated runs, truncation.
    public mutating func mutate(_ input: [UInt8]) -> [UInt8] {
        var bytes = input
        for _ in 0..<int(1...4) {
            switch int(0...6) {
            case 0 where !bytes.isEmpty:
                let index = int(0...(bytes.count - 1))
                bytes[index] ^= UInt8(1) << UInt8(int(0...7))
            case 1 where !bytes.isEmpty:
                bytes[int(0...(bytes.count - 1))] = edgeByte()
            case 2:
                bytes.insert(contentsOf: self.bytes(int(1...8)), at: int(0...bytes.count))
            case 3 where !bytes.isEmpty:
                let start = int(0...(bytes.count - 1))
                bytes.removeSubrange(start..<min(bytes.count, start + int(1...8)))
            case 4 where !bytes.isEmpty:
                let start = int(0...(bytes.count - 1))
                let run = Array(bytes[start..<min(bytes.count, start + int(1...16))])
                bytes.insert(contentsOf: run, at: int(0...bytes.count))
            case 5:
                bytes = Array(bytes.prefix(int(0...bytes.count)))
            default:
                bytes.append(contentsOf: self.bytes(int(0...4)))
            }
        }
        return bytes
    }
}
