import Foundation
import WavelengthCore
import WavelengthStorage
import WavelengthWire

/// Finds station hubs, loading each from storage the first time it is
/// needed, so a thousand quiet stations cost only their rows on disk.
actor StationDirectory {
    private let context: StationContext
    private var hubs: [StationID: StationHub] = [:]

    init(context: StationContext) {
        self.context = context
    }

    func hub(id: StationID) async throws -> StationHub? {
        if let hub = hubs[id] { return hub }
        guard let loaded = try await context.repository.loadStation(id: id) else { return nil }
        // Another caller may have loaded it while we awaited storage.
        if let hub = hubs[id] { return hub }
        let hub = StationHub(loaded: loaded, context: context)
        hubs[id] = hub
        return hub
    }

    func hub(frequency: String) async throws -> StationHub? {
        guard let record = try await context.repository.station(frequency: frequency) else { return nil }
        return try await hub(id: record.id)
    }

    /// Creates a station with a free frequency and returns its owner key,
    /// which is shown this once and stored only as a hash.
    func create(name: String, owner: String) async throws -> (StationHub, ownerKey: String) {
        let ownerKey = OwnerKey.generate()
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<5 {
            let taken = try await context.repository.takenFrequencies()
            guard let frequency = FrequencyDial.pick(excluding: taken, using: &rng) else { break }
            let record = StationRecord(
                id: "s" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased(),
                name: name, owner: owner, ownerKeyHash: OwnerKey.hash(ownerKey), frequency: frequency,
                quietSince: context.clock.now(), createdAt: context.clock.now())
            do {
                try await context.repository.insertStation(record)
            } catch StorageError.frequencyTaken {
                continue  // someone took it between the read and the insert
            }
            guard let hub = try await hub(id: record.id) else { break }
            return (hub, ownerKey)
        }
        throw APIError(.serviceUnavailable, code: "no_frequency", "No free frequency is left on the dial.")
    }

    /// Every station, with live details for the ones that are loaded.
    func list() async throws -> [StationView] {
        var views: [StationView] = []
        for record in try await context.repository.allStations() {
            if let hub = hubs[record.id] {
                views.append(try await hub.view())
            } else {
                views.append(
                    StationView(
                        id: record.id, name: record.name, owner: record.owner, frequency: record.frequency,
                        revision: record.revision, listeners: 0, onAir: false, nowPlaying: nil,
                        createdAt: record.createdAt))
            }
        }
        // On the air first, busiest first; then the rest in creation order.
        return views.enumerated().sorted { a, b in
            if a.element.onAir != b.element.onAir { return a.element.onAir }
            if a.element.listeners != b.element.listeners { return a.element.listeners > b.element.listeners }
            return a.offset < b.offset
        }.map(\.element)
    }
}
