// `cbtool decode FILE`: a capture file told as a story (advertisers, connections, GATT databases, traffic).

import OCBToolKit
import OCBHCI

/// `cbtool decode FILE`: reads a btsnoop (1001, 1002, 2001), pcap or pcapng capture and writes its story.
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
        StoryRenderer.emit(story, name: path.split(separator: "/").last.map(String.init) ?? path, to: output)
    }
}
