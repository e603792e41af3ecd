// A reader's turn that yields to an app's request with nothing left unread does not leave the host "behind".

import Dispatch
import Glibc
import OCBHCI
@testable import OCBHost
import Synchronization
import Testing

/// A socketpair's H4 stream on a queue with a ``TurnFlush`` (a host's queue). One Command Complete (Core v5.4 Vol 4
/// Part E §7.7.14) arrives; while its read is handed over, an app's request comes and runs between two packets, as
/// the host runs one (``SerialHost``'s `receive`), so the turn yields instead of reading again. Nothing more was sent:
/// the transport must not say it has unread input. It said so until the peer sent again (the turn set the flag
/// before its first read and yielded with it set), and a host whose command was then left unanswered postponed the
/// command's timeout every 250 ms for ever: the full suite hung about one run in ten in `HostFailureTests`, on a
/// Read RSSI the muted peer never answered, once Read RSSI became a request (2026-12-06).
@Test(.timeLimit(.minutes(1))) func aTurnThatYieldsToARequestWithNothingUnreadIsNotBehind() throws {
    var pair: [Int32] = [0, 0]
    #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
    defer { Glibc.close(pair[1]) }
    let queue = DispatchQueue(label: "TransportYieldTests.host")
    TurnFlush.install(on: queue)
    let transport = H4StreamTransport(endpoint: .fileDescriptor(pair[0]))
    defer { transport.close() }
    let handled = Mutex(0)
    let requestRan = Mutex(false)
    try transport.open(queue: queue, onPackets: { walk in
        _ = walk { _, _ in
            handled.withLock { $0 += 1 }
            // An app's request that came during the read, run between two packets as the host runs one.
            TurnFlush.request(on: queue) { requestRan.withLock { $0 = true } }
            DispatchQueue.getSpecific(key: TurnFlush.key)?.runRequests()
            return .next
        }
    }, onClose: { _ in })
    // Command Complete for HCI_Reset, status success.
    let resetComplete: [UInt8] = [0x04, 0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00]
    #expect(resetComplete.withUnsafeBytes { Glibc.write(pair[1], $0.baseAddress, $0.count) } == resetComplete.count)
    #expect(eventually { queue.sync { handled.withLock { $0 } == 1 } })
    #expect(requestRan.withLock { $0 })
    #expect(queue.sync { transport.hasUnreadInput } == false, "nothing was left unread")
}
