import Foundation
import Testing
import WavelengthCore
import WavelengthWire

/// Compact updates (protocol version 2): what the server writes by id alone,
/// the client fills back in, and a track it lacks is an error it can tell
/// apart from any other.
@Suite("Known tracks")
struct KnownTracksTests {
    typealias Model = StationModelTests

    static func encode(_ message: ServerMessage, naming known: KnownTracks?) throws -> Data {
        let encoder = JSONEncoder()
        if let known { encoder.userInfo[KnownTracks.key] = known }
        return try encoder.encode(message)
    }

    static func decode(_ data: Data, holding known: KnownTracks?) throws -> ServerMessage {
        let decoder = JSONDecoder()
        if let known { decoder.userInfo[KnownTracks.key] = known }
        return try decoder.decode(ServerMessage.self, from: data)
    }

    @Test func tracksEveryoneHoldsAreWrittenByIdAndReadBackWhole() throws {
        let before = Model.window(revision: 3, starts: [0, 1000, 2000])
        let after = Model.window(revision: 4, starts: [0, 1000, 2000, 3000])
        let compact = try Self.encode(.update(after), naming: KnownTracks(before))
        let whole = try Self.encode(.update(after), naming: nil)
        let text = String(decoding: compact, as: UTF8.self)
        #expect(text.contains(#""track":{"id":"t1"}"#))
        #expect(!text.contains(#""title":"t1""#))
        #expect(text.contains(#""title":"t3""#))  // the new entry's track, whole
        #expect(compact.count < whole.count)
        #expect(try Self.decode(compact, holding: KnownTracks(before)) == .update(after))
        #expect(try Self.decode(whole, holding: nil) == .update(after))
    }

    @Test func aTrackThatChangedIsWrittenWhole() throws {
        let before = Model.window(revision: 3, starts: [0, 1000])
        var after = before
        after.upNext[0].track.gainDb = -3.5  // measured since
        let text = String(decoding: try Self.encode(.update(after), naming: KnownTracks(before)), as: UTF8.self)
        #expect(text.contains(#""gainDb":-3.5"#))
        #expect(try Self.decode(Data(text.utf8), holding: KnownTracks(before)) == .update(after))
    }

    @Test func aTrackTheClientLacksIsAnErrorOfItsOwn() throws {
        let window = Model.window(revision: 3, starts: [0, 1000])
        let compact = try Self.encode(.update(window), naming: KnownTracks(window))
        do {
            _ = try Self.decode(compact, holding: KnownTracks())
            Issue.record("decoded an update naming tracks the client lacks")
        } catch {
            #expect(KnownTracks.isUnknownTrack(error))
        }
        do {
            _ = try Self.decode(Data(#"{"type":"update","timeline":{}}"#.utf8), holding: nil)
        } catch {
            #expect(!KnownTracks.isUnknownTrack(error))
        }
    }

    @Test func whatTwoSetsOfClientsBothHold() {
        let one = KnownTracks(Model.window(revision: 1, starts: [0, 1000, 2000]))
        var changed = Model.window(revision: 2, starts: [0, 1000])
        changed.upNext[0].track.title = "renamed"
        let both = one.shared(with: KnownTracks(changed))
        #expect(both["t0"] != nil)
        #expect(both["t1"] == nil)  // held differently
        #expect(both["t2"] == nil)  // held by one only
    }
}
