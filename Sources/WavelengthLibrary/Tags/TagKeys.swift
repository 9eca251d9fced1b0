/// The metadata keys each field can hide under, in order of preference.
///
/// FFmpeg normalises the common ones (ID3 TIT2 → "title", Vorbis TRACKNUMBER → "track",
/// MP4 ©day → "date") but passes others through with the name the tagger used: ID3
/// TSRC stays "TSRC", ID3 TXXX frames and MP4 freeform atoms appear under their
/// description ("MusicBrainz Track Id"), Vorbis comments under their field name.
/// Lookups ignore case, so "MUSICBRAINZ_TRACKID" also finds "musicbrainz_trackid".
enum TagKeys {
    static let title = ["title"]
    static let artist = ["artist"]
    static let album = ["album"]
    static let albumArtist = ["album_artist", "albumartist", "album artist", "TPE2"]
    static let track = ["track", "tracknumber", "TRCK"]
    static let disc = ["disc", "discnumber", "disk", "TPOS"]
    static let year = ["date", "year", "TDRC", "TYER", "originaldate", "TDOR", "TORY"]
    static let genre = ["genre"]
    static let isrc = ["ISRC", "TSRC"]
    /// Picard writes the recording MBID as Vorbis MUSICBRAINZ_TRACKID and as
    /// ID3 TXXX / MP4 freeform "MusicBrainz Track Id" (the "Release Track Id" is a different thing).
    static let musicBrainzRecordingID = ["MUSICBRAINZ_TRACKID", "MusicBrainz Track Id", "MUSICBRAINZ_RECORDINGID"]
}
