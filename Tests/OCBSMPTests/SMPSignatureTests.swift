// The LE data signing (Signed Write Command signatures) against BlueZ's unit/test-crypto.c vectors.
import OCBCore
import OCBSMP
import Testing

@Suite("LE data signing")
struct SMPSignatureTests {
    /// BlueZ's test key, given there least significant octet first (3c 4f cf 09 … 7e 2b): the RFC 4493 key
    /// 2b7e1516 28aed2a6 abf71588 09cf4f3c, most significant first as SMP keeps a CSRK.
    static let csrk = Hex.bytes("2b7e151628aed2a6abf7158809cf4f3c") ?? []

    @Test("an empty message and counter 0 give BlueZ's t_msg_1: 00000000 b3a8594127ebc2c0")
    func emptyMessage() throws {
        #expect(try SMPSignature.sign([], csrk: Self.csrk, counter: 0) == Hex.bytes("00000000b3a8594127ebc2c0"))
    }

    @Test("RFC 4493's 16-byte M and counter 0 give BlueZ's t_msg_2: 00000000 273974f4392a232a")
    func sixteenBytes() throws {
        let message = Hex.bytes("6bc1bee22e409f96e93d7e117393172a") ?? []
        #expect(try SMPSignature.sign(message, csrk: Self.csrk, counter: 0) == Hex.bytes("00000000273974f4392a232a"))
    }

    @Test("the counter leads the signature little-endian and changes the MAC")
    func counter() throws {
        let first = try SMPSignature.sign([0xD2, 0x0C, 0x00, 0x41], csrk: Self.csrk, counter: 0x0102_0304)
        #expect(first.prefix(4) == [0x04, 0x03, 0x02, 0x01])
        #expect(try SMPSignature.sign([0xD2, 0x0C, 0x00, 0x41], csrk: Self.csrk, counter: 0x0102_0305).suffix(8) != first.suffix(8))
    }
}
