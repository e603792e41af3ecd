// A btsnoop recording the host cannot open is reported as a recording problem; the host itself comes up.

import OCBCore
import Dispatch
import Foundation
import OCBHost
import Testing

@Test func unopenableRecordingIsReportedAndTheHostStillComesUp() async throws {
    let controller = ScriptedController()
    let path = "/nonexistent-\(UUID().uuidString)/session.btsnoop"
    let host = HostController(configuration: HostConfiguration(makeTransport: { controller }, btsnoopPath: path))
    let log = EventLog()
    host.setEventHandler(queue: DispatchQueue(label: "RecordingProblemTests.events")) { log.append($0) }
    defer { host.stop() }
    try await host.start()
    let problem = log.first(within: 2) { event -> String? in
        if case .recordingProblem(let text) = event { text } else { nil }
    }
    #expect(problem?.hasPrefix("btsnoop recording to \(path) is off: ") == true)
    #expect(host.state == .poweredOn)
    #expect(!FileManager.default.fileExists(atPath: path))
}
