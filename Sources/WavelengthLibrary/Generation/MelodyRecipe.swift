import WavelengthCore

/// A distinct song as an ffmpeg lavfi source, for song-recognition benches
/// and tests: a melody of short notes from a seeded walk over twelve
/// semitones, a bass note every eight beats and a noise hi-hat, at its own
/// tempo and key. Songs made from different seeds differ in chroma as real
/// songs do (copies of one tone would all look alike to Chromaprint).
public enum MelodyRecipe {
    public static func lavfi(seed: UInt64) -> String {
        var rng = SeededRandom(seed: seed)
        let beat = Double.random(in: 0.22...0.4, using: &rng)
        let root = Double.random(in: 180...320, using: &rng)
        let a = Double.random(in: 1...1_000, using: &rng), b = Double.random(in: 1...1_000, using: &rng)
        // The note of step n: a hash of n picks one of 12 semitones.
        let step = "floor(t/\(beat))"
        let note = "floor(mod(abs(sin(\(step)*\(a))*\(b)),12))"
        let bass = "floor(mod(abs(sin(floor(t/\(beat * 8))*\(b))*\(a)),7))"
        let expression =
            "0.35*sin(2*PI*\(root)*pow(2,\(note)/12)*t)*exp(-4*mod(t,\(beat)))"
            + "+0.25*sin(2*PI*\(root / 4)*pow(2,\(bass)/12)*t)"
            + "+0.05*(random(0)-0.5)*exp(-30*mod(t,\(beat * 2)))"
        return "aevalsrc=exprs='\(expression.replacingOccurrences(of: ",", with: "\\,"))':s=44100"
    }
}
