/// What the stream does when a file's decoder stops before its entry ends.
///
/// An MP3's length is read from its header or estimated from its bitrate,
/// and the decoder's last frame lands up to a second short of it. Decoding
/// again from there read nothing, and was logged as a failure at the end of
/// every MP3 the stream played. A short gap is the song's end: silence to
/// the entry's end, with no warning.
enum FileEnd: Equatable {
    /// The entry played to its end; nothing to do.
    case played
    /// The file ended a moment early: silence for this long, said nowhere.
    case endedEarly(silenceMs: Int)
    /// Cut short mid-song: decode again from where it stopped.
    case decodeAgain
    /// Nothing could be decoded: say so, and silence for this long.
    case unreadable(silenceMs: Int)

    /// How far short of its entry's end a file's audio may end and still be
    /// taken for the end of the song.
    static let slackMs: Int64 = 2_000

    /// `decoderEnded`: the decoder ran out (rather than the entry ending or
    /// changing); `stopped`, where its audio got to; `until`, the entry's end.
    static func after(decoderEnded: Bool, framesDecoded: Int64, stopped: Int64, until: Int64) -> FileEnd {
        guard decoderEnded, stopped < until else { return .played }
        let gap = until - stopped
        if gap <= slackMs { return .endedEarly(silenceMs: Int(gap)) }
        return framesDecoded == 0 ? .unreadable(silenceMs: Int(min(1_000, gap))) : .decodeAgain
    }
}
