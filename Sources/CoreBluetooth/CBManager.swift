// CBManager: the base of Core Bluetooth managers, with the state and the authorization.
import Foundation

/// The base class of managers (Apple's `CBManager`).
open class CBManager: NSObject, @unchecked Sendable {
    /// Guards the manager, its peripherals and their attributes.
    let lock = StateLock()
    var storedState: CBManagerState = .unknown

    /// The base's designated initialiser, for `CBCentralManager` (Linux addition; apps make a `CBCentralManager`, not a
    /// bare manager). It is public only because Swift lets a subclass in another module that overrides
    /// `init(delegate:queue:options:)` inherit `init()` and `init(delegate:queue:)`, as with Apple's SDK, only when its
    /// base's designated initialisers are accessible; an override of `init()` instead draws a false "infinite recursion"
    /// warning from the compiler.
    public init(subclass: Void) { super.init() }

    /// The current state; `.unknown` until the first `centralManagerDidUpdateState(_:)`.
    open var state: CBManagerState { lock.run { storedState } }

    /// The app's authorization: `.allowedAlways` on Linux (no permission prompt; capabilities show as `.unauthorized` state).
    open class var authorization: CBManagerAuthorization { .allowedAlways }

    /// The app's authorization (iOS 13.0 instance form): `.denied` while the state is `.unauthorized`.
    @available(*, deprecated, message: "Use CBManager.authorization instead")
    open var authorization: CBManagerAuthorization { state == .unauthorized ? .denied : .allowedAlways }
}
