import WavelengthCore
import WavelengthWire

extension StationView {
    /// The view as one person may see it: with their role, and without the
    /// frequency of a code-protected station they haven't joined (there the
    /// frequency is half of the secret).
    func seen(as role: StationRole) -> StationView {
        var view = self
        view.role = role
        if visibility == .code, role == .none { view.frequency = nil }
        return view
    }
}

extension StationDirectory {
    /// The station named by the `{id}` path parameter, or a 404.
    func hub(_ context: AppRequestContext) async throws -> StationHub {
        let id = try context.id("id")
        guard let hub = try await hub(id: id) else { throw APIError.notFound("No station with id \(id).") }
        return hub
    }
}
