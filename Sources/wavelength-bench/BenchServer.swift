import Foundation
import Subprocess
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// A `wavelength serve` child process for a benchmark: the `wavelength` built beside this one,
/// its own temporary data folder, a free port and the demo library, with
/// the per-address limits lifted (every bench client comes from 127.0.0.1).
/// Its process id lets the benchmark read the server's memory.
struct BenchServer: Sendable {
    let url: String
    /// Its `--health-port`, where `/health` waits behind no other connection.
    let healthURL: String
    let pid: Int32

    /// Starts the server, runs `body` once it is on the air, then stops it
    /// with SIGTERM and waits for it to exit.
    /// `dataDirectory`: a folder prepared by the caller (a cluster node's,
    /// with the shared keys in it); by default a new one. `node`: the server
    /// is one node of a cluster, reached by the others at its own address.
    static func run<Answer: Sendable>(
        dataDirectory: String? = nil, node: Bool = false, extraArguments: [String] = [],
        _ body: (BenchServer) async throws -> Answer
    ) async throws -> Answer {
        let folder = dataDirectory ?? NSTemporaryDirectory() + "wavelength-bench-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let port = try freePort()
        var healthPort = try freePort()
        while healthPort == port { healthPort = try freePort() }
        let arguments =
            ["serve", "--data", folder, "--port", String(port), "--health-port", String(healthPort),
             "--bcrypt-cost", "4", "--source-port=-1", "--no-mdns",
             "--signups-per-hour", "100000", "--guests-per-hour", "100000", "--no-socket-limits"]
            + (node ? ["--node-address", "http://127.0.0.1:\(port)"] : []) + extraArguments
        let result = try await Subprocess.run(
            .path(FilePath(try serverExecutable())),
            arguments: Arguments(arguments),
            input: .none,
            output: .sequence,
            error: .combinedWithOutput
        ) { execution in
            try await withThrowingTaskGroup(of: Void.self, returning: Answer.self) { group in
                let (ready, readySignal) = AsyncStream<Void>.makeStream()
                // Reads the log while the server runs, so it never blocks on a
                // full pipe; the line "is on the air" means it listens.
                group.addTask {
                    for try await line in execution.standardOutput.strings() {
                        if line.contains("is on the air") { readySignal.yield() }
                        // What a bench's figures may hinge on.
                        if line.contains("station leases") { print("[\(port)] \(line)") }
                    }
                    readySignal.finish()
                }
                var iterator = ready.makeAsyncIterator()
                guard await iterator.next() != nil else {
                    throw BenchError("the server exited before it was on the air")
                }
                let server = BenchServer(
                    url: "http://127.0.0.1:\(port)", healthURL: "http://127.0.0.1:\(healthPort)/health",
                    pid: execution.processIdentifier.value)
                do {
                    let answer = try await body(server)
                    try? execution.send(signal: .terminate)
                    try await group.waitForAll()
                    return answer
                } catch {
                    try? execution.send(signal: .terminate)
                    throw error
                }
            }
        }
        return result.closureResult
    }

    /// The server's resident memory now, in bytes (VmRSS).
    func residentBytes() -> Int? {
        BenchMemory.residentBytes(pid: pid)
    }

    /// The CPU time the server has used so far, in seconds (user and system,
    /// all its threads; the kernel counts in ticks of 10 ms).
    func cpuSeconds() -> Double? {
        BenchMemory.cpuSeconds(pid: pid)
    }

    /// The `wavelength` built beside this benchmark binary.
    private static func serverExecutable() throws -> String {
        guard let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else {
            throw BenchError("cannot find this executable through /proc/self/exe")
        }
        let server = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("wavelength").path
        guard FileManager.default.isExecutableFile(atPath: server) else {
            throw BenchError("no wavelength binary beside \(path): build it too (swift build --product wavelength)")
        }
        return server
    }

    private static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw BenchError("no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// Process memory and file limits, from /proc and getrlimit.
enum BenchMemory {
    /// VmRSS of a process in bytes, nil when it can't be read.
    static func residentBytes(pid: Int32? = nil) -> Int? {
        let path = "/proc/\(pid.map(String.init) ?? "self")/status"
        guard let status = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            let kilobytes = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap { Int($0) }
            return kilobytes.map { $0 * 1024 }
        }
        return nil
    }

    /// utime + stime of a process from /proc/PID/stat, in seconds.
    static func cpuSeconds(pid: Int32) -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let afterName = stat.lastIndex(of: ")")
        else { return nil }
        // Fields after the command name, which may hold spaces: state is
        // field 3, utime 14 and stime 15.
        let fields = stat[stat.index(after: afterName)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Raises this process's open-file limit to its hard limit (children
    /// inherit it), and answers the new soft limit.
    static func raiseFileLimit() -> Int {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        limit.rlim_cur = limit.rlim_max
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        return Int(limit.rlim_cur)
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
