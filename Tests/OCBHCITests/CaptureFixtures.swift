// Test helpers: the eight fixture captures read with CaptureFile, their expected values, and tshark.

import Foundation
import OCBHCI

enum CaptureFixtures {
    /// The eight btsnoop captures with their frame counts (tshark 4.0.17 and an independent record walk agree;
    /// captures/SOURCES.md, measured with an earlier tshark, lists one fewer for each).
    static let frameCounts: [String: Int] = [
        "lock-legacy-adv-discovery-indications.btsnoop": 690,
        "toycar-acl-only-read-write.btsnoop": 149,
        "treadmill-legacy-adv-notifications.btsnoop": 2572,
        "scooter-ext-adv-mtu517-indications.btsnoop": 4574,
        "wristband-read-blob-acl-fragments-smp.btsnoop": 897,
        "bottle-legacy-conn-complete-adv-reports.btsnoop": 3046,
        "escooter-ext-adv-nonlegacy-acl-fragments.btsnoop": 2939,
        "toy-legacy-conn-cycles-notify-heavy.btsnoop": 29317,
    ]

    static var names: [String] { frameCounts.keys.sorted() }

    static var root: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    static func path(_ name: String, folder: String = "captures") -> String {
        root.appendingPathComponent("Fixtures").appendingPathComponent(folder).appendingPathComponent(name).path
    }

    static func bytes(_ name: String, folder: String = "captures") throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path(name, folder: folder))))
    }

    /// The capture read with the project's reader, ``CaptureFile/read(path:)``.
    static func read(_ name: String, folder: String = "captures") throws -> CaptureFile {
        try CaptureFile.read(path: path(name, folder: folder))
    }

    /// The HCI packet of frame `number` (1-based, as tshark numbers frames); throws when there is none.
    static func packet(_ name: String, frame number: Int) throws -> HCIPacket {
        let records = try read(name).records
        guard number >= 1, number <= records.count, let packet = records[number - 1].packet else {
            throw CaptureError.io(path: name, message: "no HCI packet at frame \(number)")
        }
        return packet
    }

    /// Decodes the JSON file Fixtures/expected/<folder>/<capture without extension>.json.
    static func expected<T: Decodable>(_ type: T.Type, folder: String, capture name: String) throws -> T {
        let stem = (name as NSString).deletingPathExtension
        let url = root.appendingPathComponent("Fixtures/expected").appendingPathComponent(folder).appendingPathComponent(stem + ".json")
        return try JSONDecoder().decode(T.self, from: Data(contentsOf: url))
    }

    static let tsharkPath: String? = ["/usr/bin/tshark", "/usr/local/bin/tshark"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// Runs tshark on `file` printing `fields`, one line per frame, tab-separated.
    static func tshark(_ file: String, fields: [String]) throws -> [[String]] {
        guard let tsharkPath else { return [] }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tsharkPath)
        process.arguments = ["-r", file, "-T", "fields"] + fields.flatMap { ["-e", $0] }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).split(separator: "\n")
            .map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
    }
}
