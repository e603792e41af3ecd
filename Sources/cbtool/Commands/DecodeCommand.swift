// `cbtool decode FILE`: a capture file told as a story (advertisers, connections, GATT databases, traffic).

import CBToolKit
import HCI

/// `cbtool decode FILE`: reads a btsnoop (1001, 1002, 2001), pcap or pcapng capture and writes its story.
enum DecodeCommand {
    static func run(_ invocation: Invocation, output: OutputSink) throws(ToolError) {
        let path = invocation.operand(0)
        let capture: CaptureFile
        do {
            capture = try CaptureFile.read(path: path)
        } catch {
            throw .failure("cannot decode \(path): \(error)")
        }
        let story = CaptureStoryDecoder.story(of: capture)
        StoryRenderer.emit(story, name: path.split(separator: "/").last.map(String.init) ?? path, to: output)
    }
}
