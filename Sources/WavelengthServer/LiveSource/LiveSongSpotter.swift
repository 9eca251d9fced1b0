import Foundation
import Logging
import NIOCore
import WavelengthCore

/// Names the songs a live show plays, from its audio: each `clipSeconds`
/// of the source's relay is fingerprinted against the library (the same
/// matcher as "What's this song?"), and a song heard that isn't the one
/// heard last goes into the station's history at once, while the show airs,
/// so "what was on at 9:41?" has an answer even for a show from vinyl.
struct LiveSongSpotter: Sendable {
    static let clipSeconds: Int64 = 12
    /// The most bytes a clip keeps (12 s of 320 kbps is 480 KB).
    static let maxClipBytes = 1 << 20

    let recognizer: SongRecognizer
    let catalog: LibraryCatalog
    let clock: any ServerClock
    let logger: Logger

    /// Listens until the relay ends (the source left).
    func run(_ relay: AsyncStream<ByteBuffer>, hub: StationHub) async {
        var clip: [UInt8] = []
        var clipStart = clock.now()
        var last: TrackID?
        for await chunk in relay {
            if clip.count + chunk.readableBytes <= Self.maxClipBytes { clip += chunk.readableBytesView }
            let now = clock.now()
            guard now - clipStart >= Self.clipSeconds * 1_000 else { continue }
            let heardFrom = clipStart
            let audio = Data(clip)
            clip.removeAll(keepingCapacity: true)
            clipStart = now
            let match: FingerprintIndex.Match?
            do {
                // Its own client: a listener asking never waits behind a
                // show, and a show waits its turn rather than crowd them.
                match = try await recognizer.recognize(audio, client: "live:\(hub.id)")
            } catch {
                logger.debug("A clip of the live show on station \(hub.id) was not recognised: \(error)")
                continue
            }
            guard let match, match.trackID != last, let track = try? await catalog.poolTrack(match.trackID) else { continue }
            last = match.trackID
            logger.info("The live show on station \(hub.id) plays track \(match.trackID)")
            // Where the song began: the clip's place in it, or, when that
            // is not known, the moment it was heard.
            await hub.heardOnLive(trackID: track.id, start: heardFrom - (match.offsetMillis ?? 0), duration: track.duration)
        }
    }
}
