import Foundation
import Subprocess

/// An avahi-daemon for the LAN tests, started the way Debian runs it, as
/// root without dropping privileges: the system's own when one is running,
/// else one on a D-Bus of its own (a fresh CI machine runs neither), so
/// the test needs nothing from the host but the packages.
struct AvahiDaemon: Sendable {
    /// What a client needs in its environment to reach this daemon.
    let environment: [String: String]
    private let children: Task<Void, Never>?

    static func start() async throws -> AvahiDaemon {
        let check = try await Subprocess.run(.name("avahi-daemon"), arguments: ["--check"], output: .discarded, error: .discarded)
        if check.terminationStatus.isSuccess { return AvahiDaemon(environment: [:], children: nil) }
        let folder = NSTemporaryDirectory() + "wavelength-dbus-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
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
        return AvahiDaemon(environment: environment, children: children)
    }

    func stop() {
        children?.cancel()
    }
}
