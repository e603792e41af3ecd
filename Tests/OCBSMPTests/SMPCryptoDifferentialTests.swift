// OCBSMP's functions beside Bumble's (bumble.crypto, PyPI, pinned) on 200 seeded random inputs: the same outputs.
import Foundation
import FuzzSupport
import OCBCore
import OCBSMP
import Testing

@Suite("SMP functions against Bumble")
struct SMPCryptoDifferentialTests {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("f4, f5, f6, g2, ah, c1, s1 and AES-CMAC give what Bumble's implementation gives, for 200 random input sets")
    func sameAsBumble() throws {
        let python = ProcessInfo.processInfo.environment["OCB_PYTHON"].flatMap { $0.isEmpty ? nil : $0 }
            ?? Self.root.appendingPathComponent(".venv/bin/python").path
        try #require(FileManager.default.isExecutableFile(atPath: python), "the project venv (scripts/setup) at \(python)")
        var random = FuzzRandom(seed: 15)
        func bytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) } }
        var cases: [[String: Any]] = []
        var inputs: [(u: [UInt8], v: [UInt8], x: [UInt8], y: [UInt8], z: UInt8, w: [UInt8], n1: [UInt8], n2: [UInt8], a1: [UInt8],
                      a2: [UInt8], k: [UInt8], r: [UInt8], io: [UInt8], r3: [UInt8], preq: [UInt8], pres: [UInt8], iat: UInt8,
                      rat: UInt8, ia: [UInt8], ra: [UInt8], m: [UInt8])] = []
        for _ in 0..<200 {
            let input = (u: bytes(32), v: bytes(32), x: bytes(16), y: bytes(16), z: UInt8.random(in: 0...255, using: &random),
                         w: bytes(32), n1: bytes(16), n2: bytes(16), a1: [UInt8.random(in: 0...1, using: &random)] + bytes(6),
                         a2: [UInt8.random(in: 0...1, using: &random)] + bytes(6), k: bytes(16), r: bytes(16), io: bytes(3),
                         r3: bytes(3), preq: bytes(7), pres: bytes(7), iat: UInt8.random(in: 0...1, using: &random),
                         rat: UInt8.random(in: 0...1, using: &random), ia: bytes(6), ra: bytes(6), m: bytes(Int.random(in: 0...70, using: &random)))
            inputs.append(input)
            cases.append(["u": Hex.string(input.u), "v": Hex.string(input.v), "x": Hex.string(input.x), "y": Hex.string(input.y),
                          "z": Int(input.z), "w": Hex.string(input.w), "n1": Hex.string(input.n1), "n2": Hex.string(input.n2),
                          "a1": Hex.string(input.a1), "a2": Hex.string(input.a2), "k": Hex.string(input.k), "r": Hex.string(input.r),
                          "io": Hex.string(input.io), "r3": Hex.string(input.r3), "preq": Hex.string(input.preq),
                          "pres": Hex.string(input.pres), "iat": Int(input.iat), "rat": Int(input.rat), "ia": Hex.string(input.ia),
                          "ra": Hex.string(input.ra), "m": Hex.string(input.m)])
        }
        let stdin = try cases.map { String(decoding: try JSONSerialization.data(withJSONObject: $0), as: UTF8.self) }.joined(separator: "\n") + "\n"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [Self.root.appendingPathComponent("Tests/OCBSMPTests/bumble_crypto.py").path]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(stdin.utf8))
        try input.fileHandleForWriting.close()
        let answer = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let lines = String(decoding: answer, as: UTF8.self).split(separator: "\n")
        try #require(lines.count == inputs.count)
        for (line, input) in zip(lines, inputs) {
            let theirs = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let ours: [String: Any] = [
                "f4": Hex.string(try SMPCrypto.f4(u: input.u, v: input.v, x: input.x, z: input.z)),
                "f6": Hex.string(try SMPCrypto.f6(w: input.k, n1: input.n1, n2: input.n2, r: input.r, ioCap: input.io, a1: input.a1, a2: input.a2)),
                "ah": Hex.string(try SMPCrypto.ah(k: input.k, r: input.r3)),
                "c1": Hex.string(try SMPCrypto.c1(k: input.k, r: input.r, preq: input.preq, pres: input.pres, iat: input.iat, ia: input.ia,
                                                  rat: input.rat, ra: input.ra)),
                "s1": Hex.string(try SMPCrypto.s1(k: input.k, r1: input.r, r2: input.x)),
                "cmac": Hex.string(try SMPCrypto.cmac(key: input.k, input.m)),
            ]
            for (name, value) in ours { #expect(theirs[name] as? String == value as? String, "\(name)") }
            let f5 = try SMPCrypto.f5(w: input.w, n1: input.n1, n2: input.n2, a1: input.a1, a2: input.a2)
            #expect(theirs["f5"] as? [String] == [Hex.string(f5.macKey), Hex.string(f5.ltk)])
            #expect((theirs["g2"] as? NSNumber)?.uint32Value == (try SMPCrypto.g2(u: input.u, v: input.v, x: input.x, y: input.y)))
        }
    }
}
