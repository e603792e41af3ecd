// Test helpers: the eight fixture captures read with CaptureFile, and the expected values beside them.

import Foundation
import OCBHCI

enum CaptureFixtures {
    /// The eight btsnoop captures of Fixtures/captures (sources in captures/SOURCES.md).
    static let names = [
        "bottle-legacy-conn-complete-adv-reports.btsnoop", "escooter-ext-adv-nonlegacy-acl-fragments.btsnoop",
        "lock-legacy-adv-discovery-indications.btsnoop", "scooter-ext-adv-mtu517-indications.btsnoop",
        "toy-legacy-conn-cycles-notify-heavy.btsnoop", "toycar-acl-only-read-write.btsnoop",
        "treadmill-legacy-adv-notifications.btsnoop", "wristband-read-blob-acl-fragments-smp.btsnoop",
    ]

    static var fixtures: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures")
    }

    /// The capture read with the project's reader.
    static func read(_ name: String) throws -> CaptureFile {
        try CaptureFile.read(path: fixtures.appendingPathComponent("captures").appendingPathComponent(name).path)
    }

    /// Decodes Fixtures/expected/<folder>/<capture without extension>.json.
    static func expected<T: Decodable>(_ type: T.Type, folder: String, capture name: String) throws -> T {
        let stem = (name as NSString).deletingPathExtension
        let url = fixtures.appendingPathComponent("expected").appendingPathComponent(folder).appendingPathComponent(stem + ".json")
        return try JSONDecoder().decode(T.self, from: Data(contentsOf: url))
    }
}
