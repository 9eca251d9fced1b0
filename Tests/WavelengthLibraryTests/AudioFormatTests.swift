import Testing
@testable import WavelengthLibrary

@Suite("AudioFormat")
struct AudioFormatTests {
    @Test(arguments: [
        ("mp3", AudioFormat.mp3), ("MP3", .mp3), ("flac", .flac), ("ogg", .ogg), ("OGA", .ogg),
        ("opus", .opus), ("m4a", .m4a), ("mp4", .m4a), ("aac", .m4a), ("wav", .wav), ("aif", .aiff), ("AIFF", .aiff),
    ])
    func recognisesExtensions(ext: String, format: AudioFormat) {
        #expect(AudioFormat.forFileExtension(ext) == format)
    }

    @Test(arguments: ["txt", "jpg", "lrc", "", "mp33", "wma"])
    func ignoresOtherExtensions(ext: String) {
        #expect(AudioFormat.forFileExtension(ext) == nil)
    }

    @Test func contentTypesAndPlayability() {
        #expect(AudioFormat.mp3.contentType == "audio/mpeg")
        #expect(AudioFormat.flac.contentType == "audio/flac")
        #expect(AudioFormat.ogg.contentType == "audio/ogg")
        #expect(AudioFormat.opus.contentType.hasPrefix("audio/ogg; codecs=opus"))
        #expect(AudioFormat.m4a.contentType == "audio/mp4")
        #expect(AudioFormat.wav.contentType == "audio/wav")
        #expect(AudioFormat.aiff.contentType == "audio/aiff")
        #expect(AudioFormat.allCases.filter { !$0.isBrowserPlayable } == [.aiff])
    }

    @Test func fileNamesUseTheLastExtension() {
        #expect(AudioFormat.forFileName("01 - Song.v2.FLAC") == .flac)
        #expect(AudioFormat.forFileName(".mp3") == nil)
        #expect(AudioFormat.forFileName("README") == nil)
    }
}
