// cbtool's inbox: a full one makes the delegate wait for room while the output takes events, and drops only when it stalls.
@testable import cbtool
import Foundation
import Testing

@Suite struct EventInboxTests {
    private static func discovery(_ index: Int) -> SessionEvent {
        .advertised(address: String(format: "D0:00:00:00:%02X:%02X", index >> 8 & 0xFF, index & 0xFF), addressType: "random",
                    advertisement: [:], rssi: -70)
    }

    @Test func aFullInboxWaitsForTheOutputInsteadOfDropping() {
        // Twice the bound is posted while the command thread takes the events a little later: none is dropped, and all
        // come out in the order posted.
        let inbox = EventInbox()
        let total = 2 * EventInbox.discoveryLimit
        let posted = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            for index in 0..<total { inbox.post(Self.discovery(index)) }
            posted.signal()
        }
        usleep(50_000)  // the poster fills the inbox and waits
        var taken: [String] = []
        while taken.count < total, let event = inbox.next(until: .now + .seconds(5)) {
            if case .advertised(let address, _, _, _) = event { taken.append(address) }
        }
        #expect(posted.wait(timeout: .now() + 5) == .success)
        #expect(inbox.droppedDiscoveries == 0)
        #expect(taken == (0..<total).map { index in
            String(format: "D0:00:00:00:%02X:%02X", index >> 8 & 0xFF, index & 0xFF)
        })
    }

    @Test func aStalledOutputDropsAfterTheWaitAndCountsTheRest() {
        // Nobody takes events: the first discovery past the bound waits EventInbox.roomWait, then it and the rest are
        // dropped at once (counted); other events still go in. Once one is taken, posting waits again.
        let inbox = EventInbox()
        for index in 0..<EventInbox.discoveryLimit { inbox.post(Self.discovery(index)) }
        let start = Date()
        for index in 0..<100 { inbox.post(Self.discovery(EventInbox.discoveryLimit + index)) }
        let waited = Date().timeIntervalSince(start)
        #expect(inbox.droppedDiscoveries == 100)
        #expect(waited >= EventInbox.roomWait * 0.9, "the first one waited for room: \(waited) s")
        #expect(waited < EventInbox.roomWait * 20, "only the first one waited: \(waited) s")
        inbox.post(.interrupted)
        #expect(inbox.hasWaiting)
        _ = inbox.next(until: .now)
        inbox.post(Self.discovery(0))  // room for one again: taken in without a drop
        #expect(inbox.droppedDiscoveries == 100)
    }
}
