// cbtool's JSON lines: RFC 8259 escapes, keys in byte order, and what Foundation's parser reads back.

import Foundation
import OCBToolKit
import Testing

@Suite struct JSONValueTests {
    /// Strings of up to 40 characters drawn from plain ASCII, the escaped bytes (every control character, `"`, `\\`) and
/// multi-byte UTF-8, 2,000 of them seeded: each is written as a byte-by-byte reference escapes it (RFC 8259 §7), whatever
/// eight-byte words its escaped bytes fall in.
@Test func stringsAreEscapedAsTheByteByByteReferenceDoes() {
    func reference(_ text: String) -> String {
        var out: [UInt8] = [0x22]
        for byte in text.utf8 {
            switch byte {
            case 0x22: out += Array("\\\"".utf8)
            case 0x5C: out += Array("\\\\".utf8)
            case 0x0A: out += Array("\\n".utf8)
            case 0x0D: out += Array("\\r".utf8)
            case 0x09: out += Array("\\t".utf8)
            case 0..<0x20: out += Array(("\\u00" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16)).utf8)
            default: out.append(byte)
            }
        }
        return String(decoding: out + [0x22], as: UTF8.self)
    }
    let pieces: [String] = ["a", "Z", "0", " ", "~", "\"", "\\", "é", "温", "🌡", "\u{7F}"] + (0..<0x20).map { String(UnicodeScalar(UInt8($0))) }
    var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
    for _ in 0..<2_000 {
        var text = ""
        seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        for step in 0..<Int(seed >> 59) + Int(seed >> 40 & 7) * 2 {
            text += pieces[Int((seed >> UInt64(step % 50)) % UInt64(pieces.count))]
            if step % 5 == 4 { text += "plain text" }
        }
        #expect(JSONValue.string(text).text == reference(text), "\(text.debugDescription)")
    }
}

@Test func stringsAreEscapedAsRFC8259SaysAndReadBackUnchanged() throws {
        #expect(JSONValue.string("a\"b\\c\nd\re\tf\u{00}g\u{1F}").text == #""a\"b\\c\nd\re\tf\u0000g\u001f""#)
        // Multi-byte UTF-8 right beside escapes (the runs between escapes are copied whole).
        #expect(JSONValue.string("é\"温\n🌡").text == "\"é\\\"温\\n🌡\"")
        #expect(JSONValue.string("").text == "\"\"")
        // Every control character, and the text around it, survives a round trip through an independent parser.
        let every = String((0..<0x20).map { Character(Unicode.Scalar(UInt8($0))) }) + "Ünï\"\\/🌡"
        let line = JSONValue.array([.string(every)]).text
        #expect(!line.contains("\n"))
        let parsed = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String]
        #expect(parsed == [every])
    }

    @Test func objectKeysAreWrittenInUTF8ByteOrder() {
        let object: JSONValue = ["rssi": -60, "address": "C0:00:00:00:00:01", "Z": true, "é": .null, "name": .array(["x", 1])]
        #expect(object.text == #"{"Z":true,"address":"C0:00:00:00:00:01","name":["x",1],"rssi":-60,"é":null}"#)
    }
}
