// One LE Create Connection at a time: queueing, timeouts, cancel and the 0x02 completion, with injected time.

import OCBCore
import OCBHost
import Testing

private let first = PeerAddress(BluetoothAddress("C0:00:00:00:00:01")!, type: .random)
private let second = PeerAddress(BluetoothAddress("C0:00:00:00:00:02")!, type: .random)
private let start = ContinuousClock.now

@Test func secondAttemptWaitsForTheFirstToComplete() {
    var queue = ConnectionAttemptQueue()
    let (a, actionsA) = queue.enqueue(first, timeout: nil, now: start)
    #expect(actionsA == [.create(a)])
    let (b, actionsB) = queue.enqueue(second, timeout: nil, now: start)
    #expect(actionsB.isEmpty)
    #expect(queue.connectionComplete(status: 0x00, handle: 0x0001) == [.finished(a, .connected(handle: 0x0001)), .create(b)])
    #expect(queue.connectionComplete(status: 0x00, handle: 0x0002) == [.finished(b, .connected(handle: 0x0002))])
    #expect(queue.attempts.isEmpty)
}

@Test func timeoutCancelsOnAirThenEndsOnUnknownConnectionIdentifier() {
    var queue = ConnectionAttemptQueue()
    let (a, _) = queue.enqueue(first, timeout: .seconds(2), now: start)
    #expect(queue.nextDeadline == start.advanced(by: .seconds(2)))
    #expect(queue.tick(now: start.advanced(by: .seconds(1))).isEmpty)
    #expect(queue.tick(now: start.advanced(by: .seconds(2))) == [.cancelCreate])
    // LE Connection Complete, Status 0x02 Unknown Connection Identifier (Vol 4 Part E §7.8.13).
    #expect(queue.connectionComplete(status: 0x02, handle: 0) == [.finished(a, .ended(.timedOut))])
}

@Test func cancelOfQueuedAttemptNeedsNoCommand() {
    var queue = ConnectionAttemptQueue()
    let (a, _) = queue.enqueue(first, timeout: nil, now: start)
    let (b, _) = queue.enqueue(second, timeout: nil, now: start)
    #expect(queue.cancel(second, now: start) == [.finished(b, .ended(.cancelled))])
    #expect(queue.cancel(first, now: start) == [.cancelCreate])
    #expect(queue.activeAttempt == a)
}

@Test func cancelWithoutCompletionEndsAfterTheGrace() {
    var queue = ConnectionAttemptQueue(cancelGrace: .seconds(1))
    let (a, _) = queue.enqueue(first, timeout: nil, now: start)
    let (b, _) = queue.enqueue(second, timeout: nil, now: start)
    _ = queue.cancel(first, now: start)
    #expect(queue.tick(now: start.advanced(by: .seconds(1))) == [.finished(a, .ended(.cancelled)), .create(b)])
}

@Test func connectionWinningTheRaceWithCancelIsFlaggedForDisconnect() {
    var queue = ConnectionAttemptQueue()
    let (a, _) = queue.enqueue(first, timeout: nil, now: start)
    _ = queue.cancel(first, now: start)
    #expect(queue.connectionComplete(status: 0x00, handle: 0x0040) == [.finished(a, .connectedAfterCancel(handle: 0x0040, reason: .cancelled))])
}

@Test func rejectedCreateFailsWithItsStatusAndStartsTheNext() {
    var queue = ConnectionAttemptQueue()
    let (a, _) = queue.enqueue(first, timeout: nil, now: start)
    let (b, _) = queue.enqueue(second, timeout: nil, now: start)
    // 0x0C Command Disallowed.
    #expect(queue.createRejected(status: 0x0C) == [.finished(a, .failed(status: 0x0C)), .create(b)])
    #expect(queue.failAll(status: 0x03) == [.finished(b, .failed(status: 0x03))])
}

@Test func queuedAttemptTimesOutWithoutEverGoingOnAir() {
    var queue = ConnectionAttemptQueue()
    _ = queue.enqueue(first, timeout: nil, now: start)
    let (b, _) = queue.enqueue(second, timeout: .milliseconds(100), now: start)
    #expect(queue.tick(now: start.advanced(by: .milliseconds(100))) == [.finished(b, .ended(.timedOut))])
}

@Test func restartCancelsAndSendsTheSameAttemptAgain() {
    var queue = ConnectionAttemptQueue()
    let (a, _) = queue.enqueue(first, timeout: nil, now: start)
    #expect(queue.restart(now: start) == [.cancelCreate])
    #expect(queue.restart(now: start).isEmpty, "one restart at a time")
    // The cancel's LE Connection Complete 0x02 Unknown Connection Identifier: the attempt goes again, not ended.
    #expect(queue.connectionComplete(status: 0x02, handle: 0) == [.create(a)])
    #expect(queue.connectionComplete(status: 0x00, handle: 0x0040) == [.finished(a, .connected(handle: 0x0040))])
}

@Test func restartWhoseCancelLostTheRaceConnects() {
    var queue = ConnectionAttemptQueue()
    let (a, _) = queue.enqueue(first, timeout: nil, now: start)
    _ = queue.restart(now: start)
    #expect(queue.connectionComplete(status: 0x00, handle: 0x0041) == [.finished(a, .connected(handle: 0x0041))])
    let (b, _) = queue.enqueue(second, timeout: nil, now: start)
    _ = queue.restart(now: start)
    #expect(queue.tick(now: start.advanced(by: .seconds(3))) == [.create(b)], "no completion within the grace: sent again")
}
