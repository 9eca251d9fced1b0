import Foundation
import Subprocess
import Synchronization
import Testing
@testable import WavelengthLibrary

/// `ChildProcess` is how every child (ffmpeg above all) is run. The time limit
/// turns a child whose exit or output is never seen into a failure rather than
/// a stalled suite.
@Suite("Child processes", .timeLimit(.minutes(5)))
struct ChildProcessTests {
    @Test("A child that writes far more than a pipe holds to standard error finishes, and its last bytes are kept")
    func chattyChildFinishes() async throws {
        // 1 MB, while a pipe holds 64 KB: read only after the child exits, as the
        // transcoder used to, the child would block on the full pipe forever.
        let finished = try await ChildProcess.run(
            .name("sh"), ["-c", "head -c 1000000 /dev/zero | tr '\\0' x >&2; printf END >&2; exit 3"])
        #expect(finished.status == .exited(3))
        #expect(finished.errorTail.hasSuffix("xxEND"))
        #expect(finished.errorTail.utf8.count == 4096)
    }

    @Test("Many children started at once are each seen to exit, with their own status")
    func manyChildrenAtOnce() async throws {
        let statuses = try await withThrowingTaskGroup(of: (Int, TerminationStatus).self) { group in
            for i in 0..<48 {
                group.addTask { (i, try await ChildProcess.run(.name("sh"), ["-c", "exit \(i % 5)"]).status) }
            }
            var statuses: [Int: TerminationStatus] = [:]
            for try await (i, status) in group { statuses[i] = status }
            return statuses
        }
        #expect(statuses.count == 48)
        for (i, status) in statuses {
            #expect(status == .exited(Int32(i % 5)), "child \(i)")
        }
    }

    @Test("A child still running after its time is reported with its pid, its state and its standard error")
    func slowChildIsReported() async throws {
        // The child waits until it has been reported (the report makes the
        // file), so the check waits for an event, not for a time.
        let flag = NSTemporaryDirectory() + "wavelength-slow-child-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: flag) }
        let reports = Mutex<[String]>([])
        let finished = try await ChildProcess.run(
            .name("sh"), ["-c", "exec 2>&-; while [ ! -e '\(flag)' ]; do sleep 0.05; done"],
            slowAfter: .milliseconds(100),
            onSlow: { report in
                reports.withLock { $0.append(report) }
                // Once it has started and closed its standard error (the
                // first report may come before either).
                if report.contains("closed") { _ = FileManager.default.createFile(atPath: flag, contents: nil) }
            })
        #expect(finished.status == .exited(0))
        let all = reports.withLock { $0 }
        #expect(all.first?.hasPrefix("sh has not finished after 0.1 seconds: pid ") == true, "\(all)")
        // The report that let it go (later ones may find it gone already).
        let closed = try #require(all.first { $0.contains("standard error closed") }, "\(all)")
        #expect(!closed.contains("not yet known"), "\(closed)")
        // Alive: running, sleeping, or (on a loaded machine, in its file
        // check) in disk sleep, as a fresh-clone run once found it.
        #expect(["state R", "state S", "state D"].contains { closed.contains($0) }, "\(closed)")
        #expect(ChildProcess.processState(getpid()) != "gone")
        #expect(ChildProcess.processState(Int32.max) == "gone")
    }

    @Test("A child that cannot be started throws")
    func missingExecutableThrows() async {
        await #expect(throws: (any Error).self) {
            _ = try await ChildProcess.run(ChildProcess.executable(atPath: "/nonexistent/wavelength-no-such-tool"), [])
        }
    }

    @Test("ffmpeg's failure carries its status and its last error lines")
    func ffmpegFailureIsDescribed() async throws {
        let ffmpeg = try FFmpegCommand.locate()
        await #expect {
            try await ffmpeg.run(["-i", "/nonexistent/wavelength-missing.flac", "/nonexistent/out.mp3"])
        } throws: { error in
            guard case LibraryError.generationFailed(let reason) = error else { return false }
            return reason.contains("exited(") && reason.contains("wavelength-missing.flac")
        }
    }
}
