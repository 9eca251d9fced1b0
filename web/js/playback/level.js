// The gain a track plays at: the server's measured loudness gain, moved by
// the station's target and level. Shared by the Web Audio player (a gain
// node per track) and the live relay (the <audio> element's volume).

const DEFAULT_TARGET_LUFS = -14;
const finite = (x) => typeof x === "number" && Number.isFinite(x);

/**
 * The gain in dB a track plays at: its loudness gain (measured by the
 * server at the default target), moved by the station's target and level
 * (`sound`), never past the track's headroom. A track never measured is
 * never boosted. The same sum as `Loudness.playbackGain` on the server.
 */
export function levelDb(entry, sound = null) {
  const track = entry && entry.track;
  const offset = sound ? (finite(sound.targetLufs) ? sound.targetLufs - DEFAULT_TARGET_LUFS : 0) + (finite(sound.levelDb) ? sound.levelDb : 0) : 0;
  if (!track || !finite(track.gainDb)) return Math.max(-60, Math.min(0, offset));
  let gain = track.gainDb + offset;
  if (finite(track.headroomDb)) gain = Math.min(gain, track.headroomDb);
  return Math.max(-60, Math.min(12, gain));
}

/** The same as a linear volume for an <audio> element (0…1: an element can't boost). */
export function volumeOf(db) {
  return Math.max(0, Math.min(1, 10 ** (db / 20)));
}
