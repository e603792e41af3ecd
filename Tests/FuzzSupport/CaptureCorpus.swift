// The advertising payloads of the fixture captures, the real-world corpus the fuzz and equivalence tests start from.

import Foundation
import OCBHCI

/// Inputs taken from the captures in `Fixtures/captures` (third-party recordings, see their sources there).
public enum CaptureCorpus {
    /// Every advertising and scan response payload of the fixture captures' LE Advertising Reports and LE Extended
    /// Advertising Reports (Core v5.4 Vol 4 Part E §7.7.65.2, §7.7.65.13), each once, in byte order.
    public static let advertisingPayloads: [[UInt8]] = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let folder = root.appendingPathComponent("Fixtures/captures")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.filter { $0.hasSuffix(".btsnoop") }.sorted() ?? []
        var payloads: Set<[UInt8]> = []
        for name in names {
            guard let capture = try? CaptureFile.read(path: folder.appendingPathComponent(name).path) else { continue }
            for record in capture.records {
                guard let packet = record.packet, packet.type == .event, case .leMeta(let meta)? = try? HCIEvent(packet: packet) else { continue }
                switch meta {
                case .advertisingReport(let event): event.reports.forEach { payloads.insert($0.data) }
                case .extendedAdvertisingReport(let event): event.reports.forEach { payloads.insert($0.data) }
                default: break
                }
            }
        }
        return payloads.sorted { $0.lexicographicallyPrecedes($1) }
    }()
}
