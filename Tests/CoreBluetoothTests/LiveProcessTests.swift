// Integration: the example executables run as separate processes against the virtual peer (guide central, state restoration).
import Foundation
import PeerSupport
import Testing

/// What one run of an example executable printed.
struct ExampleRun {
    var status: Int32
    var lines: [String]

    /// Runs `.build/debug/<name>` with `arguments` and extra environment; at most `seconds` before it is killed.
    static func run(_ name: String, _ arguments: [String] = [], environment: [String: String], seconds: Double = 25) throws -> ExampleRun {
        let binary = VirtualPeer.packageRoot.appendingPathComponent(".build/debug/\(name)")
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: binary.path])
        }
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let killer = DispatchWorkItem { process.terminate() }
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: killer)
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        killer.cancel()
        return ExampleRun(status: process.terminationStatus,
                          lines: String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init))
    }
}

extension LiveSuite {
    @Test func guideExampleRunsAgainstThePeer() throws {
        let run = try ExampleRun.run("CentralExample", environment: ["OCB_TRANSPORT": try LivePeer.transport(2)])
        #expect(run.status == 0, "\(run.lines.joined(separator: "\n"))")
        let lines = run.lines
        #expect(lines.first == "Central manager state poweredOn")
        #expect(lines.contains("Discovered OCB Alpha RSSI -45"))
        #expect(lines.contains("Peripheral connected"))
        for service in ["Generic Access", "Generic Attribute", "Device Information", "Battery Service", "Heart Rate", "0CB10001-7E57-4C0D-A9E5-0123456789AB"] {
            #expect(lines.contains("Discovered service \(service)"), "service \(service)")
        }
        #expect(lines.contains("Discovered characteristic Heart Rate Measurement"))
        #expect(lines.contains("Value of Device Name: OCB Alpha"))
        #expect(lines.contains("Value of Manufacturer Name String: OpenCoreBluetooth"))
        #expect(lines.contains("Notifying Heart Rate Measurement: true"))
        #expect(lines.contains("Wrote value for characteristic 0CB10004-7E57-4C0D-A9E5-0123456789AB"))
        // Heart Rate Measurement: flags 00, then bpm = 60 + n % 60 counting from the subscription (Tests/Peer/README.md).
        let beats = lines.filter { $0.hasPrefix("Notification Heart Rate Measurement: 00 ") }
        #expect(beats.count >= 3)
        let bpm = beats.compactMap { UInt8($0.suffix(2), radix: 16) }
        #expect(zip(bpm, bpm.dropFirst()).allSatisfy { $1 == 60 + ($0 - 60 + 1) % 60 }, "consecutive beats: \(bpm)")
        #expect(lines.last == "Done")
    }

    @Test func stateRestorationAcrossTwoProcesses() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ocb-restore-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let environment = ["OCB_TRANSPORT": try LivePeer.transport(3), "OCB_STATE_DIR": directory.path]

        let first = try ExampleRun.run("RestorationExample", ["first"], environment: environment)
        #expect(first.status == 0, "\(first.lines.joined(separator: "\n"))")
        let identifier = try #require(first.lines.first { $0.hasPrefix("connected ") }?.dropFirst("connected ".count))
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("OCBRestorationExample.json").path))

        // The peer's controller takes its departed client's reset before serving the next one.
        Thread.sleep(forTimeInterval: 0.3)
        let second = try ExampleRun.run("RestorationExample", ["second"], environment: environment)
        #expect(second.status == 0, "\(second.lines.joined(separator: "\n"))")
        let lines = second.lines
        #expect(lines.first == "willRestoreState keys=[\"kCBRestoredPeripherals\", \"kCBRestoredScanOptions\", \"kCBRestoredScanServices\"] "
                + "peripherals=[\"\(identifier)/OCB Alpha/connecting\"] scanServices=[\"180D\"] allowDuplicates=false",
                "willRestoreState comes first, with the three keys")
        let firstState = lines.firstIndex { $0.hasPrefix("state ") }
        #expect(firstState == 1, "then the state update")
        #expect(lines.contains("state poweredOn isScanning=true"), "the scan is resumed")
        #expect(lines.last == "reconnected \(identifier) OCB Alpha isScanning=true", "the pending connection is resumed")
    }
}
