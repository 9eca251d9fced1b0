import Hummingbird
import WavelengthCore
import WavelengthStore
import WavelengthWire

/// The party over HTTP: what it looks like now, and the owner's mode and
/// request settings. Requests and votes themselves are commands
/// (`POST /api/stations/{id}/commands` or the live WebSocket).
struct PartyController {
    let directory: StationDirectory
    let stations: any StationRepository
    let gate: StationGate

    func addRoutes(to router: Router<AppRequestContext>) {
        router.get("/api/stations/{id}/party", use: party)
        router.patch("/api/stations/{id}/party", use: updateParty)
    }

    /// The party as the caller may see it, with their own votes.
    @Sendable func party(_ request: Request, context: AppRequestContext) async throws -> PartyView {
        let hub = try await directory.hub(context)
        let role = try await gate.requireListener(context.caller, on: await hub.record)
        return try await hub.partyView(as: role, votesOf: context.caller.personID)
    }

    /// The owner changes the mode or the rules; everyone listening gets the
    /// new state at once, with no reload.
    @Sendable func updateParty(_ request: Request, context: AppRequestContext) async throws -> PartyView {
        let hub = try await directory.hub(context)
        let record = await hub.record
        _ = try await gate.require(.editSettings, context.caller, on: record)
        let patch = try await request.decode(as: PartySettingsPatch.self, context: context)
        let changed: RequestSettings
        do {
            changed = try patch.applied(to: record.requestSettings ?? RequestSettings())
        } catch {
            throw APIError.badRequest("The settings could not be read: \(error)")
        }
        let settings: RequestSettings
        do {
            settings = try changed.validated()
        } catch {
            throw APIError(error)
        }
        guard
            let updated = try await stations.updateParty(
                stationID: record.id, mode: patch.mode ?? record.mode, requestSettings: settings)
        else { throw APIError.notFound("No station with id \(record.id).") }
        await hub.applySettings(of: updated)
        // A party or a lobby is heard on its own node only: relays elsewhere
        // seat their listeners again.
        if updated.mode != record.mode { await directory.accessChanged(record.id) }
        return try await hub.partyView(as: .owner, votesOf: context.caller.personID)
    }
}
