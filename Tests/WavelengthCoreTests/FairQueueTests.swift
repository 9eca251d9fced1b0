import Testing
import WavelengthCore

@Suite("Fair queue")
struct FairQueueTests {
    @Test func jobsStartWhileSlotsAreFreeThenWait() {
        var queue = FairQueue<String, Int>(slots: 2, maxWaitingPerKey: 10, maxWaiting: 100)
        #expect(queue.submit(1, for: "a") == .start)
        #expect(queue.submit(2, for: "a") == .start)
        #expect(queue.submit(3, for: "a") == .queued)
        #expect(queue.running == 2 && queue.waitingCount == 1)
    }

    /// Eighty signups from one address, then a login from another: the login
    /// starts in the next free slot, not after the eighty.
    @Test func aFloodFromOneAddressDoesNotHoldBackAnother() {
        var queue = FairQueue<String, Int>(slots: 1, maxWaitingPerKey: 100, maxWaiting: 1000)
        #expect(queue.submit(0, for: "flood") == .start)
        for job in 1...80 { #expect(queue.submit(job, for: "flood") == .queued) }
        #expect(queue.submit(1000, for: "login") == .queued)
        #expect(queue.finished() == 1)  // the flood was first in line
        #expect(queue.finished() == 1000)  // then the login's turn
        #expect(queue.finished() == 2)
        #expect(queue.finished() == 3)
    }

    @Test func keysTakeTurnsRoundRobin() {
        var queue = FairQueue<String, String>(slots: 1, maxWaitingPerKey: 10, maxWaiting: 100)
        #expect(queue.submit("running", for: "x") == .start)
        for job in ["a1", "a2", "a3"] { _ = queue.submit(job, for: "a") }
        for job in ["b1", "b2"] { _ = queue.submit(job, for: "b") }
        _ = queue.submit("c1", for: "c")
        var order: [String] = []
        while let next = queue.finished() { order.append(next) }
        #expect(order == ["a1", "b1", "c1", "a2", "b2", "a3"])
        #expect(queue.running == 0 && queue.waitingCount == 0)
    }

    @Test func tooMuchWaitingIsRefused() {
        var queue = FairQueue<String, Int>(slots: 1, maxWaitingPerKey: 2, maxWaiting: 3)
        #expect(queue.submit(0, for: "a") == .start)
        #expect(queue.submit(1, for: "a") == .queued)
        #expect(queue.submit(2, for: "a") == .queued)
        #expect(queue.submit(3, for: "a") == .refused)  // per key
        #expect(queue.submit(4, for: "b") == .queued)
        #expect(queue.submit(5, for: "c") == .refused)  // in all
    }

    @Test func aCancelledJobLeavesTheLine() {
        var queue = FairQueue<String, Int>(slots: 1, maxWaitingPerKey: 5, maxWaiting: 10)
        #expect(queue.submit(0, for: "a") == .start)
        _ = queue.submit(1, for: "a")
        _ = queue.submit(2, for: "b")
        let cancelled = queue.cancel(1, for: "a")
        let again = queue.cancel(1, for: "a")
        #expect(cancelled && !again)
        #expect(queue.finished() == 2)
        #expect(queue.finished() == nil)
        #expect(queue.running == 0)
    }
}
