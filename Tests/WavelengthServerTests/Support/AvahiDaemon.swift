import Foundation
import Subprocess
#if canImport(Glibc)
import Glibc
#endif

/// An avahi-daemon for the LAN tests, started the way Debian runs it, as
/// root without dropping privileges: the system's own when one is running,
/// else one on a D-Bus of its own (a fresh CI machine runs neither), so
/// the test needs nothing from the host but the packages.
///
/// A machine runs one avahi-daemon (it keeps a pid file), so two test runs
/// on one machine take turns (`with` holds a lock file for the body's
/// length): otherwise the second run found the first run's private daemon
/// "running", used the system's bus, where there is none, and its servers
/// never saw each other.
struct AvahiDaemon: Sendable {
    /// What a client needs in its environment to reach this daemon.
    let environment: [String: String]
    private let children: Task<Void, Never>?

    /// A private bus's folder, made before anything listens on it (to start
    /// a server before its bus, as a machine may boot).
    static func newBusFolder() throws -> String {
        let folder = NSTemporaryDirectory() + "wavelength-dbus-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    /// What a client needs to reach the bus that will be in `folder`.
    static func environment(busFolder folder: String) -> [String: String] {
        ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=\(folder)/bus"]
    }

    /// Runs `body` with a daemon, this run's alone for the length of it,
    /// and ready: its bus is up and the daemon has started. With `busFolder`,
    /// always a private one there.
    static func with<T: Sendable>(busFolder: String? = nil, _ body: (AvahiDaemon) async throws -> T) async throws -> T {
        // In /tmp itself, not NSTemporaryDirectory(): each run of
        // scripts/test.sh has a TMPDIR of its own, and the lock is the machine's.
        let lock = try await MachineLock.acquire("/tmp/wavelength-avahi-tests.lock")
        defer { lock.release() }
        let daemon = try await start(busFolder: busFolder)
        do {
            let result = try await body(daemon)
            await daemon.stop()
            return result
        } catch {
            await daemon.stop()
            throw error
        }
    }

    /// Where avahi-daemon writes its pid.
    private static let pidFile = "/run/avahi-daemon/pid"

    /// Whether the machine's own daemon runs. A test's daemon is stopped
    /// with SIGKILL and leaves its pid file behind; once that pid names
    /// another process, `avahi-daemon --check` says a daemon runs (and a
    /// daemon would refuse to start), so a stale file is removed first.
    private static func isRunning() async throws -> Bool {
        if let text = try? String(contentsOfFile: pidFile, encoding: .utf8),
            let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)),
            (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?.hasPrefix("avahi-daemon") != true
        {
            try? FileManager.default.removeItem(atPath: pidFile)
        }
        return try await Subprocess.run(.name("avahi-daemon"), arguments: ["--check"], output: .discarded, error: .discarded)
            .terminationStatus.isSuccess
    }

    /// A test run that crashed leaves its private bus and daemon running:
    /// children outlive their parent. Then every later run took that daemon
    /// for the machine's own, looked for it on the system bus, where there
    /// is none, and failed. With the lock held no other run is using one, so
    /// a daemon or bus on a test bus (`wavelength-dbus-…`) is a leftover: it
    /// is killed, and waited for until it is gone.
    private static func killLeftovers() async {
        func read(_ path: String) -> String {
            guard let data = FileManager.default.contents(atPath: path) else { return "" }
            return String(decoding: data.map { $0 == 0 ? 32 : $0 }, as: UTF8.self)
        }
        let marker = "wavelength-dbus-"
        var killed: [Int32] = []
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int32(entry), pid != getpid() else { continue }
            let comm = read("/proc/\(pid)/comm")
            let ours =
                (comm.hasPrefix("dbus-daemon") && read("/proc/\(pid)/cmdline").contains(marker))
                || (comm.hasPrefix("avahi-daemon") && read("/proc/\(pid)/environ").contains(marker))
            if ours, kill(pid, SIGKILL) == 0 { killed.append(pid) }
        }
        // Gone once init has reaped them (a few milliseconds; bounded).
        for _ in 0..<100 where killed.contains(where: { FileManager.default.fileExists(atPath: "/proc/\($0)") }) {
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    private static func start(busFolder: String?) async throws -> AvahiDaemon {
        await killLeftovers()
        if busFolder == nil, try await isRunning() { return AvahiDaemon(environment: [:], children: nil) }
        let folder = try busFolder ?? newBusFolder()
        let socket = folder + "/bus"
        // A system-type bus where anyone may own and call anything: this
        // bus only ever carries the test's daemon and servers.
        let config = """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>system</type>
              <listen>unix:path=\(socket)</listen>
              <auth>EXTERNAL</auth>
              <policy context="default">
                <allow user="*"/>
                <allow own="*"/>
                <allow send_destination="*"/>
                <allow receive_sender="*"/>
              </policy>
            </busconfig>
            """
        try config.write(toFile: folder + "/bus.conf", atomically: true, encoding: .utf8)
        let environment = ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=\(socket)"]
        // Both run until the task is cancelled, which kills them.
        let children = Task {
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    _ = try? await Subprocess.run(
                        .name("dbus-daemon"), arguments: ["--config-file=\(folder)/bus.conf", "--nofork"],
                        output: .discarded, error: .discarded)
                }
                group.addTask {
                    // Waits for the bus before the daemon comes up on it.
                    for _ in 0..<200 where !FileManager.default.fileExists(atPath: socket) {
                        try? await Task.sleep(for: .milliseconds(50))
                    }
                    _ = try? await Subprocess.run(
                        .name("avahi-daemon"), arguments: ["--no-drop-root", "--no-chroot", "--no-rlimits"],
                        environment: .inherit.updating(["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=\(socket)"]),
                        output: .discarded, error: .discarded)
                }
            }
        }
        // Ready when the bus listens and the daemon has written its pid
        // file (polled: neither says so otherwise).
        for _ in 0..<600 {
            if FileManager.default.fileExists(atPath: socket), try await isRunning() { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        return AvahiDaemon(environment: environment, children: children)
    }

    /// Stops the daemon and its bus, and returns once both have exited.
    private func stop() async {
        children?.cancel()
        await children?.value
    }
}

/// An exclusive lock on a file, held by this process until released (or
/// until it exits): how test runs on one machine take turns at something
/// there is one of. It asks without blocking and sleeps between tries: a
/// blocking `flock` would hold one of NIO's two pool threads (bcrypt and
/// file reads for every in-process server) for as long as another run holds
/// the lock, a minute or more.
final class MachineLock: Sendable {
    private let fd: Int32

    private init(fd: Int32) {
        self.fd = fd
    }

    static func acquire(_ path: String) async throws -> MachineLock {
        let fd = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw POSIXError(.EACCES) }
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                close(fd)
                throw POSIXError(.EBUSY)
            }
            do {
                try await Task.sleep(for: .milliseconds(100))
            } catch {
                close(fd)
                throw error
            }
        }
        return MachineLock(fd: fd)
    }

    func release() {
        flock(fd, LOCK_UN)
        close(fd)
    }
}
