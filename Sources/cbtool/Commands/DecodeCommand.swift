// `cbtool decode FILE`: a capture file told as a story (advertisers, connections, GATT databases, traffic).

import Foundation
import OCBToolKit
import OCBHCI

/// `cbtool decode FILE [--export-db OUT.json]`: reads a btsnoop (1001, 1002, 2001), pcap or pcapng capture and writes
/// its story; with `--export-db`, also the GATT database it reveals (``OCBToolKit/DatabaseExport``) to OUT.json.
///
/// Fails (exit 1) with one line naming the file once and saying why: the system's reason when it cannot be read
/// ("No such file or directory"), "empty file: …" for zero bytes, else the capture format error.
enum DecodeCommand {
    static func run(_ invocation: Invocation, output: OutputSink) throws(ToolError) {
        let path = invocation.operand(0)
        let bytes: [UInt8]
        do {
            bytes = try FileContents.read(path: path)
        } catch {
            throw .failure("cannot decode \(path): \(error.reason)")
        }
        guard !bytes.isEmpty else {
            throw .failure("cannot decode \(path): empty file: not a btsnoop, pcap or pcapng capture")
        }
        let capture: CaptureFile
        do {
            capture = try CaptureFile.read(bytes: bytes)
        } catch {
            throw .failure("cannot decode \(path): \(error)")
        }
        let story = CaptureStoryDecoder.story(of: capture)
        let name = path.split(separator: "/").last.map(String.init) ?? path
        StoryRenderer.emit(story, name: name, to: output)
        if let destination = invocation.exportDatabasePath {
            let database: JSONValue
            do { database = try DatabaseExport.json(story, source: name) } catch {
                throw .failure("cannot export the database of \(path): \(error)")
            }
            do {
                try Data((database.text + "\n").utf8).write(to: URL(fileURLWithPath: destination), options: .atomic)
            } catch {
                throw .failure("cannot write \(destination): \((error as NSError).localizedDescription)")
            }
        }
    }
}
