import Foundation
import Hummingbird
import WavelengthCore
import WavelengthStore
import WavelengthWire

/// The control room's "at a glance": stations on the air and listeners on
/// this node, live sources, CPU and memory, disk, the library's analysis,
/// sign-ups waiting and the last warnings from the log. Administrators only.
struct OverviewController {
    let directory: StationDirectory
    let liveSources: LiveSources
    let store: any OperatorRepository & AnalysisRepository
    let figures: ProcessFigures
    let folders: FolderSizes
    let warnings: RecentWarnings
    let startedAt: Date

    func addRoutes(to router: Router<AppRequestContext>) {
        router.get("/api/admin/overview", use: overview)
    }

    @Sendable func overview(_ request: Request, context: AppRequestContext) async throws -> ServerOverview {
        _ = try AdminController.administrator(context)
        let audiences = await directory.audiences()
        let counts = try await store.serverCounts()
        let analysis = try await store.analysisCounts()
        let reading = figures.read()
        // The disk's figures are the last measured while a walk runs long.
        let sizes = try? await folders.sizes()
        return ServerOverview(
            stationsOnAir: audiences.count, stations: counts.stations,
            listeners: audiences.reduce(0) { $0 + $1.1.listeners }, appListeners: audiences.reduce(0) { $0 + $1.1.app },
            streamListeners: audiences.reduce(0) { $0 + $1.1.stream }, liveSources: await liveSources.count,
            people: counts.users, cpuPercent: reading.map { ($0.cpuPercent * 10).rounded() / 10 },
            memoryBytes: reading?.residentBytes, cores: ProcessInfo.processInfo.activeProcessorCount,
            dataFolderBytes: sizes?.dataBytes, libraryBytes: sizes?.libraryBytes, tracks: analysis.total,
            tracksAnalyzed: analysis.analyzed, waitingSignups: counts.waitingSignups,
            uptimeSeconds: Int64(Date().timeIntervalSince(startedAt)),
            warnings: warnings.recent.prefix(20).map {
                .init(at: EpochMillis($0.at.timeIntervalSince1970 * 1000), level: $0.level.rawValue, message: $0.message)
            })
    }
}
