import Foundation
import Testing
import WavelengthCore
import WavelengthWire

/// A host's change to the party's rules: applied over the current settings
/// by the settings' own decoder.
@Suite("Party settings patch")
struct PartySettingsPatchTests {
    static let current = RequestSettings(
        open: false, poolOnly: true, maxPendingPerPerson: 5, maxTrackMillis: 5 * 60_000, noRepeatWithin: 20,
        showVoteCounts: true, kind: .radio, chat: false, lyrics: false, volumeVoting: true, loudnessTarget: -16,
        guestChat: false, guestClips: true)

    @Test func anEmptyPatchChangesNothing() throws {
        #expect(try PartySettingsPatch().applied(to: Self.current) == Self.current)
        #expect(try PartySettingsPatch(mode: .lobby).applied(to: Self.current) == Self.current)
    }

    @Test func aPatchChangesWhatItNamesAndNothingElse() throws {
        var expected = Self.current
        expected.open = true
        expected.noRepeatWithin = 3
        expected.guestChat = true
        let patch = PartySettingsPatch(open: true, noRepeatWithin: 3, guestChat: true)
        #expect(try patch.applied(to: Self.current) == expected)
    }

    @Test func aLongestTrackOfZeroMeansAnyLengthAndLeftOutKeepsIt() throws {
        #expect(try PartySettingsPatch(maxTrackMillis: 0).applied(to: Self.current).maxTrackMillis == nil)
        #expect(try PartySettingsPatch(maxTrackMillis: 90_000).applied(to: Self.current).maxTrackMillis == 90_000)
        var anyLength = Self.current
        anyLength.maxTrackMillis = nil
        #expect(try PartySettingsPatch(chat: true).applied(to: anyLength).maxTrackMillis == nil)
    }

    @Test func aLobbyTypesPresetComesFirstThenTheFieldsGiven() throws {
        let gym = try PartySettingsPatch(kind: .gym).applied(to: Self.current)
        #expect(gym == LobbyKind.gym.preset(Self.current))
        let gymWithChat = try PartySettingsPatch(kind: .gym, chat: true).applied(to: Self.current)
        var expected = LobbyKind.gym.preset(Self.current)
        expected.chat = true
        #expect(gymWithChat == expected)
    }

    /// Saved settings still read as before: a missing field is its default,
    /// and a missing longest track is any length.
    @Test func savedSettingsReadAsBefore() throws {
        let saved = try JSONDecoder().decode(RequestSettings.self, from: Data(#"{"open": false}"#.utf8))
        var expected = RequestSettings(open: false)
        expected.maxTrackMillis = nil
        #expect(saved == expected)
    }
}
