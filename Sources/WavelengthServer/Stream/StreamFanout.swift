import NIOCore

/// One stream's listeners on one event loop: the stream wakes them all with
/// one hop per loop when its encoder has more, instead of one task a
/// listener waiting on the stream's actor.
final class StreamFanout: Sendable {
    let loop: any EventLoop
    private let listeners: NIOLoopBoundBox<[UInt64: StreamListenerHandler]>

    init(loop: any EventLoop) {
        self.loop = loop
        listeners = .makeBoxSendingValue([:], eventLoop: loop)
    }

    /// On the loop.
    func add(_ ticket: UInt64, _ listener: StreamListenerHandler) {
        listeners.value[ticket] = listener
    }

    /// On the loop.
    func remove(_ ticket: UInt64) {
        listeners.value[ticket] = nil
    }

    /// Each listener takes what it hasn't sent yet, as far as its socket lets it.
    func pump() {
        loop.execute { [listeners] in
            for listener in listeners.value.values { listener.pump() }
        }
    }

    /// Lets go the listeners whose socket has taken nothing for `timeout`
    /// (on the stream's clock, read as `now`): a player that vanished
    /// without closing.
    func letGoStalled(now: Duration, timeout: Duration) {
        loop.execute { [listeners] in
            for listener in listeners.value.values { listener.letGoIfStalled(now: now, timeout: timeout) }
        }
    }

    /// Lets every listener go: the stream ended.
    func letEveryoneGo() {
        loop.execute { [listeners] in
            for listener in listeners.value.values { listener.letGo(.ended) }
        }
    }
}
