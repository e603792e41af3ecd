// cbtool's JSON lines: RFC 8259 escapes, keys in byte order, and what Foundation's parser reads back.

import Foundation
import OCBToolKit
import Testing

@Suite struct JSONValueTests {
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
