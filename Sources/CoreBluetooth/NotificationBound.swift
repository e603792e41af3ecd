// The bound on notification values waiting for a slow delegate: past it values are dropped, counted and logged once.

extension CBCentralManager {
    /// At most this many notification and indication values (all peripherals of one manager together) wait on the
    /// delegate queue for `peripheral(_:didUpdateValueFor:error:)`; further ones are dropped until the delegate catches
    /// up, each counted in the peripheral's ``CBPeripheral/droppedNotificationCount`` (a Linux addition), with one
    /// `[CoreBluetooth] WARNING:` line per overflow (at most one a minute). Memory stays bounded however slow the delegate is (at most 4,096
    /// values of at most ATT_MTU − 3 = 514 bytes each, about 2 MB). 1,024 was too few: a read of notifications at
    /// line rate hands over thousands at once, and a delegate queue that waits one scheduler slice for a core fell
    /// behind that many without being slow. An indication is confirmed by the stack when it
    /// arrives (Core v5.4 Vol 3 Part F §3.4.7.3), dropped or not, so a peer's indications never stall.
    static let notificationQueueBound = 4096

    /// Admits one value from `peer` to the delegate queue, or counts it as dropped (on the backend's queue).
    func admitNotification(from peer: PeerAddress) -> Bool {
        let (admitted, warn) = notificationBoundLock.withLock { notificationBound.admit() }
        if !admitted { lock.run { active[peer]?.storedDroppedNotifications += 1 } }
        if warn {
            Diagnostics.warning("the delegate is slower than the notifications: \(Self.notificationQueueBound) values wait for "
                                + "it, further ones are dropped (CBPeripheral.droppedNotificationCount) until it catches up")
        }
        return admitted
    }

    /// One admitted value reached the delegate queue; when none waits any more, the next overflow warns again.
    func notificationDelivered() {
        notificationBoundLock.withLock { notificationBound.delivered() }
    }
}
