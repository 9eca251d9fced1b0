import Foundation
import NIOPosix
import Synchronization

/// This process's CPU and memory, from Linux's `/proc/self` (files held in
/// memory by the kernel, so reading them never waits on a disk).
final class ProcessFigures: Sendable {
    struct Reading: Sendable {
        /// Of one core, since the reading before (or since the process began).
        var cpuPercent: Double
        var residentBytes: Int64
    }

    private struct Sample {
        var wall: Double
        var cpu: Double
    }

    private let last = Mutex<Sample?>(nil)
    private let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
    private let pageSize = Int64(sysconf(Int32(_SC_PAGESIZE)))

    /// Nil where `/proc` can't be read (not Linux).
    func read() -> Reading? {
        guard let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
            let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
            let uptime = try? String(contentsOfFile: "/proc/uptime", encoding: .utf8),
            let now = uptime.split(separator: " ").first.flatMap({ Double($0) }),
            // The command name may hold spaces; the fields count from the last ')'.
            let close = stat.lastIndex(of: ")")
        else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After the name: state is field 3, utime 14, stime 15, starttime 22.
        guard fields.count > 19, let user = Double(fields[11]), let system = Double(fields[12]),
            let started = Double(fields[19]),
            let pages = statm.split(separator: " ").dropFirst().first.flatMap({ Int64($0) })
        else { return nil }
        let cpu = (user + system) / ticksPerSecond
        let sample = Sample(wall: now, cpu: cpu)
        let before = last.withLock { last in
            defer { last = sample }
            return last ?? Sample(wall: started / ticksPerSecond, cpu: 0)
        }
        let wall = max(sample.wall - before.wall, 0.001)
        return Reading(cpuPercent: max(0, (sample.cpu - before.cpu) / wall * 100), residentBytes: pages * pageSize)
    }
}

/// How much the data folder and the library take on disk, counted off the
/// cooperative pool (a walk of a large library reads many directories) and
/// kept for a few minutes: the control room asks often, a disk fills slowly.
actor FolderSizes {
    struct Sizes: Sendable {
        var dataBytes: Int64
        var libraryBytes: Int64
        var measuredAt: Date
    }

    private let data: String
    private let libraries: [String]
    private let keep: TimeInterval
    private var cached: Sizes?
    private var measuring: Task<Sizes, any Error>?

    init(data: String, libraries: [String], keep: TimeInterval = 300) {
        self.data = data
        self.libraries = libraries
        self.keep = keep
    }

    func sizes() async throws -> Sizes {
        if let cached, Date().timeIntervalSince(cached.measuredAt) < keep { return cached }
        if let measuring { return try await measuring.value }
        let (data, libraries) = (self.data, self.libraries)
        let task = Task {
            try await NIOThreadPool.singleton.runIfActive {
                Sizes(
                    dataBytes: Self.bytes(under: data), libraryBytes: libraries.reduce(0) { $0 + Self.bytes(under: $1) },
                    measuredAt: Date())
            }
        }
        measuring = task
        defer { measuring = nil }
        let sizes = try await task.value
        cached = sizes
        return sizes
    }

    /// The bytes of the regular files under `path`, symbolic links not
    /// followed (a hostile library can't send the walk elsewhere), at most
    /// a million files.
    static func bytes(under path: String) -> Int64 {
        guard
            let walk = FileManager.default.enumerator(
                at: URL(fileURLWithPath: path), includingPropertiesForKeys: [.isRegularFileKey, .fileSizeKey], options: [])
        else { return 0 }
        var total: Int64 = 0
        var files = 0
        for case let url as URL in walk {
            guard let values = try? url.resourceValues(forKeys: [.isRegularFileKey, .fileSizeKey]), values.isRegularFile == true
            else { continue }
            total += Int64(values.fileSize ?? 0)
            files += 1
            if files >= 1_000_000 { break }
        }
        return total
    }
}
