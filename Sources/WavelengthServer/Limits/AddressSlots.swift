import Synchronization

/// Connections of one kind each client address may hold open at once: the
/// radio stream's players, live sources. One address can't take every slot
/// of the machine (a player reconnecting in a loop, a script opening
/// thousands of source connections and sending nothing).
///
/// A slot is given back when the last reference to it goes, so a connection
/// or an answer dropped on any path gives it back too.
final class AddressSlots: Sendable {
    let perAddress: Int
    private let held = Mutex<[String: Int]>([:])

    init(perAddress: Int) {
        self.perAddress = perAddress
    }

    /// One of the address's slots, nil when all are taken.
    func reserve(address: String) -> Slot? {
        let taken = held.withLock { counts in
            guard counts[address, default: 0] < perAddress else { return false }
            counts[address, default: 0] += 1
            return true
        }
        return taken ? Slot(slots: self, address: address) : nil
    }

    fileprivate func release(address: String) {
        held.withLock { counts in
            let left = counts[address, default: 1] - 1
            counts[address] = left > 0 ? left : nil
        }
    }

    /// One slot of an address, held by whatever uses it.
    final class Slot: Sendable {
        private let slots: AddressSlots
        private let address: String

        fileprivate init(slots: AddressSlots, address: String) {
            self.slots = slots
            self.address = address
        }

        deinit { slots.release(address: address) }
    }
}
