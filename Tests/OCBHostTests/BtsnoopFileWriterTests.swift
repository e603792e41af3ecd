// The host's live recording file: records written one at a time through a file handle give back the capture's bytes.

import Foundation
import OCBHCI
import OCBHost
import Testing

@Suite struct BtsnoopFileWriterTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/captures/toycar-acl-only-read-write.btsnoop").path

    @Test func recordsWrittenOneByOneGiveTheFixtureFileBackByteForByte() throws {
        // A 1002 record read from a file is written back as it was (flags, drops, timestamp), so the file the
        // writer leaves must equal the fixture: 149 frames, commands, events and fragmented ACL both ways.
        let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.fixture)))
        let capture = try CaptureFile.read(bytes: original)
        #expect(capture.records.count == 149)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ocb-\(UUID().uuidString).btsnoop").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try BtsnoopFileWriter(path: path)
        for record in capture.records { try writer.write(record) }
        writer.close()
        let written = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(written.count == original.count)
        #expect(written == original)
    }

    @Test func aFileThatCannotBeCreatedIsAnIOError() {
        let path = "/nonexistent-ocb-directory/capture.btsnoop"
        #expect(throws: CaptureError.io(path: path, message: "cannot create the file")) { try BtsnoopFileWriter(path: path) }
    }
}
