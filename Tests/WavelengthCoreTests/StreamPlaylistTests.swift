import Testing
import WavelengthCore

@Suite("Stream playlists")
struct StreamPlaylistTests {
    let playlist = StreamPlaylist(name: "KDVS — Café 90.3", url: "http://radio.example/stream/90.3.mp3")

    @Test func anM3UNamesTheStationAndItsStream() {
        #expect(playlist.m3u == "#EXTM3U\r\n#EXTINF:-1,KDVS — Café 90.3\r\nhttp://radio.example/stream/90.3.mp3\r\n")
    }

    @Test func aPLSIsVersionTwoWithOneEntryOfNoLength() {
        let lines = playlist.pls.split(separator: "\r\n")
        #expect(lines == [
            "[playlist]", "NumberOfEntries=1", "File1=http://radio.example/stream/90.3.mp3",
            "Title1=KDVS — Café 90.3", "Length1=-1", "Version=2",
        ])
    }

    @Test func aNameCannotAddAnEntry() {
        let hostile = StreamPlaylist(name: "Evil\r\nhttp://evil.example/x.mp3\nFile2=http://evil.example", url: "http://a/b.mp3")
        #expect(hostile.m3u.split(separator: "\r\n").count == 3)
        #expect(!hostile.m3u.contains("\nhttp://evil"))
        #expect(hostile.pls.split(separator: "\r\n").count == 6)
        #expect(!hostile.pls.contains("\nFile2="))
    }
}
