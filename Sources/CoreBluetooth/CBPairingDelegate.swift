// Linux only: how Passkey Entry and Numeric Comparison reach the app (iOS shows its own system dialog instead).

/// Linux only (not in Apple's SDK): the user steps of pairing. iOS asks the user itself in a system alert; a Linux
/// gateway has no such alert, so the app answers here. Set ``CBCentralManager/pairingDelegate`` to one: this host then
/// pairs with IO capability KeyboardDisplay and asks for MITM protection, so a peripheral with a display or keyboard
/// pairs with Passkey Entry or Numeric Comparison (Core v5.4 Vol 3 Part H §2.3.5.1) and the keys are authenticated
/// (what a characteristic answering Insufficient Authentication needs). Without one, pairing is Just Works.
/// Called on the manager's queue; reply from any thread, within the 30 s SMP timeout.
public protocol CBPairingDelegate: AnyObject {
    /// Passkey Entry, the peripheral shows a six-digit passkey: reply with it (0...999,999), or nil to cancel.
    func centralManager(_ central: CBCentralManager, peripheral: CBPeripheral, needsPasskey reply: @escaping @Sendable (UInt32?) -> Void)
    /// Passkey Entry, this side shows the passkey: display it (six digits, leading zeros) for the user to type on the
    /// peripheral.
    func centralManager(_ central: CBCentralManager, peripheral: CBPeripheral, displayPasskey passkey: UInt32)
    /// Numeric Comparison: show the six-digit number and reply true when the peripheral shows the same, false otherwise.
    func centralManager(_ central: CBCentralManager, peripheral: CBPeripheral, confirmNumber number: UInt32,
                        reply: @escaping @Sendable (Bool) -> Void)
}

extension CBPairingDelegate {
    /// Default: cancels (the pairing fails with Passkey Entry Failed).
    public func centralManager(_ central: CBCentralManager, peripheral: CBPeripheral, needsPasskey reply: @escaping @Sendable (UInt32?) -> Void) {
        reply(nil)
    }
    /// Default: shows nothing.
    public func centralManager(_ central: CBCentralManager, peripheral: CBPeripheral, displayPasskey passkey: UInt32) {}
    /// Default: says no (the pairing fails with Numeric Comparison Failed).
    public func centralManager(_ central: CBCentralManager, peripheral: CBPeripheral, confirmNumber number: UInt32,
                               reply: @escaping @Sendable (Bool) -> Void) {
        reply(false)
    }
}
