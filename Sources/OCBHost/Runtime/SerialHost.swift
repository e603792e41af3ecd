// What both hosts share around their one serial queue: the queue hop, event and completion delivery, the state.

import Dispatch

/// A host whose state lives on one private serial queue and whose events and completions go to the handler's
/// queue, in order: ``HostController`` and ``KernelHost`` (on `queue` only unless said otherwise).
///
/// The extension gives both the same delivery (``emit(_:)``, ``deliver(_:)``, ``setState(_:)``) and the queue hop
/// ``onQueue(_:)`` that lets a synchronous call work from a `withGATT` body, which already runs on `queue`.
protocol SerialHost: AnyObject, Sendable {
    /// The private serial queue every piece of state is touched on.
    var queue: DispatchQueue { get }
    /// Where events and completions run; a private serial queue until ``replaceEventHandler(queue:_:)``.
    var eventQueue: DispatchQueue { get set }
    /// Who gets events; nil drops them.
    var eventHandler: (@Sendable (HostEvent) -> Void)? { get set }
    /// The state last reported with ``HostEvent/stateChanged(_:)``.
    var currentState: HostState { get set }
}

/// The queue-specific key whose value on a host's queue is that host's `ObjectIdentifier` (see ``SerialHost/onQueue(_:)``).
private let serialHostQueueKey = DispatchSpecificKey<ObjectIdentifier>()

extension SerialHost {
    /// Marks `queue` as this host's, for ``onQueue(_:)``; called once from the initializer.
    func claimQueue() {
        queue.setSpecific(key: serialHostQueueKey, value: ObjectIdentifier(self))
    }

    /// Runs `work` on `queue`: directly when already there (e.g. inside a `withGATT` body), else synchronously.
    func onQueue<T>(_ work: () -> T) -> T {
        if DispatchQueue.getSpecific(key: serialHostQueueKey) == ObjectIdentifier(self) { return work() }
        return queue.sync(execute: work)
    }

    /// The current state, read synchronously on `queue` (from any thread but `queue` itself).
    func readState() -> HostState {
        queue.sync { currentState }
    }

    /// Sets the queue and handler for events and completions, replacing earlier ones (from any thread but `queue`).
    func replaceEventHandler(queue eventQueue: DispatchQueue, _ handler: @escaping @Sendable (HostEvent) -> Void) {
        queue.sync {
            self.eventQueue = eventQueue
            self.eventHandler = handler
        }
    }

    /// Hands an event to the handler on its queue.
    func emit(_ event: HostEvent) {
        guard let handler = eventHandler else { return }
        eventQueue.async { handler(event) }
    }

    /// Runs a completion on the event queue.
    func deliver(_ work: @escaping @Sendable () -> Void) {
        eventQueue.async(execute: work)
    }

    /// Records `state` and emits ``HostEvent/stateChanged(_:)`` when it differs from the current one.
    func setState(_ state: HostState) {
        guard state != currentState else { return }
        currentState = state
        emit(.stateChanged(state))
    }
}
