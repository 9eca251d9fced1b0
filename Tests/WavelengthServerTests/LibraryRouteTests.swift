import Foundation
import NIOCore
import Hummingbird
import HummingbirdTesting
import Testing
import WavelengthWire

@testable import WavelengthServer

@Suite("Library and audio over HTTP", .timeLimit(.minutes(5)))
struct LibraryRouteTests {
    @Test func searchIsPrefixCaseAndDiacriticInsensitive() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            for query in ["caf", "CAFE", "caf%C3%A9", "nocturne%20caf", "aurora"] {
                let found = try await client.execute(uri: "/api/library/search?q=\(query)", method: .get)
                    .decode(SearchResponse.self)
                #expect(found.tracks.contains { $0.title == "Café Nocturne" }, "\(query)")
            }
            let nothing = try await client.execute(uri: "/api/library/search?q=zzzzqqq", method: .get)
                .decode(SearchResponse.self)
            #expect(nothing.tracks.isEmpty)
            let empty = try await client.execute(uri: "/api/library/search?q=", method: .get).decode(SearchResponse.self)
            #expect(empty.tracks.isEmpty)
            let odd = try await client.execute(uri: "/api/library/search?q=%22%2A%28OR", method: .get)
            #expect(odd.status == .ok)
            let long = try await client.execute(uri: "/api/library/search?q=\(String(repeating: "a", count: 300))", method: .get)
            #expect(long.status == .badRequest)
            let badLimit = try await client.execute(uri: "/api/library/search?q=a&limit=0", method: .get)
            #expect(badLimit.status == .badRequest)
        }
    }

    @Test func browseByArtistAlbumAndSong() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            let artists = try await client.execute(uri: "/api/library/artists", method: .get).decode([ArtistSummary].self)
            #expect(artists.count >= 3)
            #expect(artists.contains { $0.name == "Studio Tapes" && $0.trackCount == 1 })
            let artist = try #require(artists.first { $0.name != "Studio Tapes" })
            let encoded = artist.name.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let albums = try await client.execute(uri: "/api/library/albums?artist=\(encoded)", method: .get)
                .decode([AlbumSummary].self)
            #expect(albums.count == artist.albumCount)
            #expect(albums.allSatisfy { $0.artist == artist.name })
            let album = albums[0]
            let tracks = try await client.execute(
                uri: "/api/library/tracks?artist=\(encoded)&album=\(album.title.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)",
                method: .get
            ).decode([TrackSummary].self)
            #expect(tracks.count == album.trackCount)
            let all = try await client.execute(uri: "/api/library/tracks?limit=500", method: .get).decode([TrackSummary].self)
            #expect(all.count == artists.reduce(0) { $0 + $1.trackCount })
        }
    }

    @Test func trackDetailsArtworkAndLyrics() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            let all = try await client.execute(uri: "/api/library/tracks?limit=500", method: .get).decode([TrackSummary].self)
            var sawArtwork = false
            var sawLyrics = false
            for track in all {
                let details = try await client.execute(uri: "/api/tracks/\(track.id)", method: .get).decode(TrackDetails.self)
                #expect(details.track == track)
                if let artwork = track.artworkURL {
                    let image = try await client.execute(uri: artwork, method: .get)
                    #expect(image.status == .ok)
                    #expect(image.headers[.contentType]?.hasPrefix("image/") == true)
                    #expect(image.body.readableBytes > 100)
                    sawArtwork = true
                }
                if let lyrics = details.lyricsURL {
                    let text = try await client.execute(uri: lyrics, method: .get)
                    #expect(text.status == .ok)
                    #expect(String(buffer: text.body).contains("["))
                    sawLyrics = true
                }
            }
            #expect(sawArtwork)
            #expect(sawLyrics)
            let missing = try await client.execute(uri: "/api/tracks/nope", method: .get)
            #expect(missing.status == .notFound)
            let escape = try await client.execute(uri: "/api/tracks/..%2F..%2Fetc%2Fpasswd/audio", method: .get)
            #expect(escape.status == .badRequest)
        }
    }

    @Test func audioIsServedWithRanges() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            let track = try await client.firstTrack(matching: "cafe")
            let whole = try await client.execute(uri: track.audioURL, method: .get)
            #expect(whole.status == .ok)
            #expect(whole.headers[.contentType] == "audio/mpeg")
            #expect(whole.headers[.acceptRanges] == "bytes")
            let size = whole.body.readableBytes
            #expect(size > 10_000)

            let part = try await client.execute(uri: track.audioURL, method: .get, headers: [.range: "bytes=100-199"])
            #expect(part.status == .partialContent)
            #expect(part.headers[.contentRange] == "bytes 100-199/\(size)")
            #expect(part.body.readableBytes == 100)
            #expect(Array(buffer: part.body) == Array(Array(buffer: whole.body)[100..<200]))

            let tail = try await client.execute(uri: track.audioURL, method: .get, headers: [.range: "bytes=-10"])
            #expect(tail.headers[.contentRange] == "bytes \(size - 10)-\(size - 1)/\(size)")
            let open = try await client.execute(uri: track.audioURL, method: .get, headers: [.range: "bytes=\(size - 5)-"])
            #expect(open.body.readableBytes == 5)

            // Past the end: refused, with the file's size.
            for bad in ["bytes=\(size)-", "bytes=\(size + 100)-\(size + 200)", "bytes=99999999999999999999-"] {
                let refused = try await client.execute(uri: track.audioURL, method: .get, headers: [.range: bad])
                #expect(refused.status == .rangeNotSatisfiable, "\(bad)")
                #expect(refused.headers[.contentRange] == "bytes */\(size)", "\(bad)")
                #expect(refused.errorCode == "range_not_satisfiable")
            }
            // Not one byte range (several, another unit, backwards): ignored,
            // as RFC 9110 lets a server: the whole file.
            for ignored in ["bytes=50-10", "lines=1-2", "bytes=0-1,5-6", "bytes=1707-,-1,2133-"] {
                let answer = try await client.execute(uri: track.audioURL, method: .get, headers: [.range: ignored])
                #expect(answer.status == .ok, "\(ignored)")
                #expect(answer.body.readableBytes == size, "\(ignored)")
            }
            // An end too large to hold is the file's end.
            let clamped = try await client.execute(uri: track.audioURL, method: .get, headers: [.range: "bytes=0-99999999999999999999"])
            #expect(clamped.status == .partialContent)
            #expect(clamped.headers[.contentRange] == "bytes 0-\(size - 1)/\(size)")
            let head = try await client.execute(uri: track.audioURL, method: .head)
            #expect(head.headers[.contentLength] == String(size))
        }
    }

    @Test func contentTypesMatchTheFormats() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            let all = try await client.execute(uri: "/api/library/tracks?limit=500", method: .get).decode([TrackSummary].self)
            server.putOnAir(all)
            let expected = [
                "mp3": "audio/mpeg", "flac": "audio/flac", "ogg": "audio/ogg", "m4a": "audio/mp4",
                "aiff": "audio/mpeg",  // not playable in browsers: transcoded (while on the air)
            ]
            var seen = Set<String>()
            for track in all {
                let response = try await client.execute(uri: track.audioURL, method: .get, headers: [.range: "bytes=0-15"])
                #expect(response.status == .partialContent)
                if let type = expected[track.format] {
                    #expect(response.headers[.contentType] == type, "\(track.format)")
                }
                if track.format == "opus" { #expect(response.headers[.contentType]?.contains("opus") == true) }
                seen.insert(track.format)
            }
            #expect(seen.isSuperset(of: ["mp3", "ogg", "flac", "m4a", "opus", "aiff"]))
        }
    }

    @Test func formatsCanBeAskedForAndAreCached() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            let all = try await client.execute(uri: "/api/library/tracks?limit=500", method: .get).decode([TrackSummary].self)
            let ogg = try #require(all.first { $0.format == "ogg" })
            server.putOnAir([ogg])
            let mp3 = try await client.execute(uri: ogg.audioURL + "?format=mp3", method: .get)
            #expect(mp3.status == .ok)
            #expect(mp3.headers[.contentType] == "audio/mpeg")
            // An MP3 starts with an ID3 tag or a frame sync.
            let bytes = Array(buffer: mp3.body)
            #expect(bytes.starts(with: Array("ID3".utf8)) || (bytes[0] == 0xFF && bytes[1] & 0xE0 == 0xE0))
            let cached = try FileManager.default.contentsOfDirectory(
                atPath: server.services.configuration.cacheDirectory + "/transcoded")
            #expect(cached.contains { $0.hasPrefix(ogg.id) && $0.hasSuffix(".mp3") })
            let again = try await client.execute(uri: ogg.audioURL + "?format=mp3", method: .get)
            #expect(Array(buffer: again.body) == bytes)
            let unknown = try await client.execute(uri: ogg.audioURL + "?format=wma", method: .get)
            #expect(unknown.status == .badRequest)
        }
    }

    /// Anyone could make the server run ffmpeg on any track. Now a
    /// conversion is made only for what a station's listeners are hearing
    /// (now, next or just before); one already made is served to anyone.
    @Test func onlyListenersCanHaveATrackConverted() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            let station = try server.firstStation().id
            let hub = try #require(try await server.services.directory.hub(id: station))
            let quiet = try await client.execute(uri: "/api/library/tracks?limit=500", method: .get).decode([TrackSummary].self)
            let probe = try #require(quiet.first { $0.format != "opus" })
            let refused = try await client.execute(uri: probe.audioURL + "?format=opus", method: .get)
            #expect(refused.status == .forbidden)
            #expect(refused.errorCode == "not_on_air")

            // A listener tunes in: the robot DJ programs the station.
            let (_, queue) = AsyncStream<LiveOutgoing>.makeStream()
            let listener = ConnectionIDs.next()
            try await hub.connect(listener, queue: queue, since: nil)
            let playing = try #require(try await hub.window().current?.track)
            let format = playing.format == "opus" ? "mp3" : "opus"
            let converted = try await client.execute(uri: playing.audioURL(as: format), method: .get)
            #expect(converted.status == .ok)

            // Nobody listens: nothing new is converted, what was made still serves.
            await hub.disconnect(listener)
            let other = try #require(["mp3", "m4a", "opus"].first { $0 != format && $0 != playing.format })
            let late = try await client.execute(uri: playing.audioURL(as: other), method: .get)
            #expect(late.errorCode == "not_on_air")
            let cached = try await client.execute(uri: playing.audioURL(as: format), method: .get)
            #expect(cached.status == .ok)
        }
    }

    /// 33 `?format=` requests started 25 ffmpeg processes at once. Now at
    /// most one per core runs, the rest wait in a short line or are told
    /// the server is busy.
    @Test func transcodesShareAFewSlots() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            let all = try await client.execute(uri: "/api/library/tracks?limit=500", method: .get).decode([TrackSummary].self)
            server.putOnAir(all)
            let asks = all.flatMap { track in ["mp3", "m4a", "opus"].filter { $0 != track.format }.map { (track, $0) } }
            let statuses = try await withThrowingTaskGroup(of: (HTTPResponse.Status, String?).self) { group in
                for (track, format) in asks.prefix(33) {
                    group.addTask {
                        let response = try await client.execute(uri: track.audioURL + "?format=\(format)", method: .get)
                        return (response.status, response.errorCode)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.allSatisfy { $0.0 == .ok || ($0.0 == .tooManyRequests && $0.1 == "busy") })
            #expect(statuses.contains { $0.0 == .ok })
            let peak = await server.services.transcoder.peakRunning
            #expect(peak >= 1 && peak <= System.coreCount)
        }
    }

    /// The cache grew without limit; now the least recently served files
    /// go once it is over its size.
    @Test func theTranscodeCacheStaysUnderItsLimit() async throws {
        let server = try await TestServer.make { $0.transcodeCacheBytes = 1 }
        try await server.application().test(.router) { client in
            let all = try await client.execute(uri: "/api/library/tracks?limit=500", method: .get).decode([TrackSummary].self)
            let tracks = all.filter { $0.format != "opus" }.prefix(3)
            server.putOnAir(Array(tracks))
            for track in tracks {
                #expect(try await client.execute(uri: track.audioURL + "?format=opus", method: .get).status == .ok)
            }
            let cached = try FileManager.default.contentsOfDirectory(
                atPath: server.services.configuration.cacheDirectory + "/transcoded")
            // Only the newest survives a limit smaller than any one file.
            #expect(cached == [cached.first { $0.hasPrefix(tracks.last!.id) }].compactMap { $0 })
        }
    }

    /// What goes is the least recently served file, not the oldest: a file
    /// served again from the cache outlives one made after it.
    @Test func theCacheLetsTheLeastRecentlyServedFileGoFirst() async throws {
        // Each file's size first, from a cache with room for all of them.
        let sizer = try await TestServer.make()
        let total = try await sizer.application().test(.router) { client in
            let tracks = try await Self.fourToConvert(client)
            sizer.putOnAir(tracks)
            for track in tracks {
                #expect(try await client.execute(uri: track.audioURL + "?format=opus", method: .get).status == .ok)
            }
            return try Self.cachedFiles(of: sizer).values.reduce(0, +)
        }
        // Room for all four less a byte: the fourth file makes the cache trim.
        let server = try await TestServer.make { $0.transcodeCacheBytes = total - 1 }
        try await server.application().test(.router) { client in
            let tracks = try await Self.fourToConvert(client)
            server.putOnAir(tracks)
            let (first, second, third, fourth) = (tracks[0], tracks[1], tracks[2], tracks[3])
            // The first is made first, and served again after the third.
            for track in [first, second, third, first, fourth] {
                #expect(try await client.execute(uri: track.audioURL + "?format=opus", method: .get).status == .ok)
            }
            let cached = try Self.cachedFiles(of: server).keys
            let holds = { (track: TrackSummary) in cached.contains { $0.hasPrefix(track.id + "-") } }
            #expect(holds(first), "served again, the oldest file stays: \(cached)")
            #expect(!holds(second), "the least recently served goes: \(cached)")
            #expect(holds(fourth), "the newest stays: \(cached)")
        }
    }

    /// Four tracks to convert to Opus: the same files in every test server
    /// (each scan gives them ids of its own).
    private static func fourToConvert(_ client: any TestClientProtocol) async throws -> [TrackSummary] {
        let all = try await client.execute(uri: "/api/library/tracks?limit=500", method: .get).decode([TrackSummary].self)
        let tracks = Array(all.filter { $0.format != "opus" }.sorted { $0.title < $1.title }.prefix(4))
        try #require(tracks.count == 4)
        return tracks
    }

    /// The transcode cache's files (`<track id>-<size>-<mtime>.<format>`)
    /// and their sizes.
    private static func cachedFiles(of server: TestServer) throws -> [String: Int64] {
        let directory = server.services.configuration.cacheDirectory + "/transcoded"
        var sizes: [String: Int64] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory) where !name.hasSuffix(".partial") {
            let size = try FileManager.default.attributesOfItem(atPath: directory + "/" + name)[.size] as? NSNumber
            sizes[name] = size?.int64Value ?? 0
        }
        return sizes
    }
}

extension TestServer {
    /// Puts tracks on the air as a station with listeners would, for tests
    /// of the transcoder itself (`onlyListenersCanHaveATrackConverted`
    /// covers how tracks really get there).
    func putOnAir(_ tracks: [TrackSummary]) {
        services.directory.onAir.publish("test-on-air", tracks: Set(tracks.map(\.id)))
    }
}
