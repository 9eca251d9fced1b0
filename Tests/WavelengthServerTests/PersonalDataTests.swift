import Foundation
import Hummingbird
import HummingbirdTesting
import Subprocess
import Testing
import WavelengthCore
import WavelengthWire

@testable import WavelengthServer

/// "Download my data": one tar archive, read back by the real `tar`, holding
/// the person's account, stations, chat messages and clips (audio too),
/// and nobody else's.
@Suite("Downloading your data", .timeLimit(.minutes(5)))
struct PersonalDataTests {
    @Test func theArchiveHoldsWhatIsYoursAndTarReadsIt() async throws {
        let tone = try await TestAudio.tone(seconds: 1)
        let server = try await TestServer.make()
        try await server.application().test(.live) { client in
            let host = try await client.signUp(name: "Host"), me = try await client.signUp(name: "Ana")
            _ = try await client.send("/api/stations/\(host.stationID)/party", .patch, as: host, body: PartySettingsPatch(guestClips: true))
            let (room, _) = try await ChatTests.join(client, host.stationID, as: me)
            let (hostRoom, _) = try await ChatTests.join(client, host.stationID, as: host)
            defer { [room, hostRoom].forEach { $0.close() } }
            guard case .chat = try await ChatTests.say(room, "mine <to keep>", id: "1"),
                case .chat = try await ChatTests.say(hostRoom, "the host's, not mine", id: "2")
            else { throw TestFailure("refused") }
            let clip = try await client.upload("/api/stations/\(host.stationID)/clips", as: me, bytes: tone).decode(ClipView.self)
            let song = try await UploadsTests.song("Exported Song", seconds: 10)
            let upload = try #require(try await UploadsTests.send(client, song, name: "export.mp3", as: me).decode(UploadReceipt.self).upload)

            #expect(try await client.send("/api/auth/export", .get).status == .unauthorized)
            let answer = try await client.send("/api/auth/export", .get, as: me)
            #expect(answer.status == .ok && answer.headers[.contentType] == "application/x-tar")
            let folder = NSTemporaryDirectory() + "wavelength-export-\(UUID().uuidString.prefix(8))"
            defer { try? FileManager.default.removeItem(atPath: folder) }
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try Data(buffer: answer.body).write(to: URL(fileURLWithPath: folder + "/data.tar"))
            let listed = try await Subprocess.run(
                .name("tar"), arguments: ["-tvf", folder + "/data.tar"], output: .string(limit: 1 << 20), error: .string(limit: 1 << 16))
            #expect(listed.terminationStatus.isSuccess, "\(listed.standardError ?? "")")
            let names = (listed.standardOutput ?? "").split(separator: "\n").compactMap { $0.split(separator: " ").last.map(String.init) }
            #expect(names.contains("wavelength/account.json") && names.contains("wavelength/clips/\(clip.id).mp3"))
            #expect((listed.standardOutput ?? "").contains("-rw-------"))
            let extracted = try await Subprocess.run(
                .name("tar"), arguments: ["-xf", folder + "/data.tar", "-C", folder], output: .discarded, error: .string(limit: 1 << 16))
            #expect(extracted.terminationStatus.isSuccess, "\(extracted.standardError ?? "")")
            let account = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/wavelength/account.json"))) as? [String: Any]
            #expect(account?["id"] as? String == me.id)
            let chat = try String(contentsOfFile: folder + "/wavelength/chat.json", encoding: .utf8)
            #expect(chat.contains("mine <to keep>") && !chat.contains("the host's"))
            let audio = try Data(contentsOf: URL(fileURLWithPath: folder + "/wavelength/clips/\(clip.id).mp3"))
            #expect(audio.count > 1_000)
            let uploads = try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: folder + "/wavelength/uploads.json"))) as? [[String: Any]]
            #expect(uploads?.map { $0["title"] as? String } == ["Exported Song"])
            #expect(uploads?.first?["audioURL"] as? String == "/api/tracks/\(upload.track.id)/audio")
        }
    }
}
