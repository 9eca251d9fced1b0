import Foundation

/// A short piece of generated music: a plucked arpeggio over a soft pad and bass, following
/// a four-chord progression. Rendered by ffmpeg's `aevalsrc` as one progression cycle that is
/// then looped, which is several times cheaper than evaluating the expression for the whole track.
struct ToneRecipe: Sendable {
    enum Quality: Sendable { case major, minor }

    /// Frequency of the key's root for the arpeggio, in Hz.
    var rootHz: Double
    /// Length of one arpeggio note in seconds; 8 notes make a chord, 4 chords a cycle.
    var noteSeconds: Double
    /// Four chords as (semitones above the key's root, quality).
    var progression: [(semitones: Int, quality: Quality)]
    /// Eight steps indexing chord tones: 0 root, 1 third, 2 fifth, 3 octave, 4 octave+third, 5 octave+fifth.
    var pattern: [Int]
    /// Loudness of the second harmonic relative to the fundamental: brighter or rounder plucks.
    var brightness: Double
    /// How fast each pluck fades, per second.
    var decay: Double

    /// aevalsrc interprets its expression for every sample, which dominates generation time.
    /// Nothing here goes above ~3 kHz, so rendering at 22.05 kHz loses nothing; the result is
    /// resampled to CD rate for the encoders.
    static let renderRate = 22_050
    static let outputRate = 44_100

    var cycleSeconds: Double { noteSeconds * 32 }
    var cycleSamples: Int { Int((cycleSeconds * Double(Self.renderRate)).rounded()) }

    /// The lavfi source and filter chain for a track of `seconds` seconds.
    func filterGraph(seconds: Int) -> String {
        let echoMs = Int(noteSeconds * 1000 * 1.5)
        // A track shorter than one cycle only needs that much of it rendered.
        let rendered = min(cycleSeconds, Double(seconds))
        let fadeIn = min(0.8, Double(seconds) / 4)
        let fadeOut = min(3, Double(seconds) / 3)
        return "aevalsrc=exprs='\(expression)':s=\(Self.renderRate):d=\(format(rendered)),"
            + "aloop=loop=-1:size=\(cycleSamples),aresample=\(Self.outputRate),aecho=0.8:0.6:\(echoMs):0.25,"
            // Trim after the echo, which would otherwise add its tail to the stated length.
            + "atrim=duration=\(seconds),afade=t=in:d=\(format(fadeIn)),"
            + "afade=t=out:st=\(format(Double(seconds) - fadeOut)):d=\(format(fadeOut)),"
            // Peaks sit near -13 dBFS as rendered; lift them to a normal listening level.
            + "volume=7dB,"
            // Haas delay on one side: a mono source turned into a gentle, wide stereo image.
            + "haas"
    }

    /// Registers: 0 note number, 1 chord number, 2 chord root, 3 chord third, 4 pattern step,
    /// 5 note semitones, 6 time into note, 7 note frequency, 8 time into chord.
    var expression: String {
        let note = format(noteSeconds)
        let chordSeconds = format(noteSeconds * 8)
        let root = chain(on: "ld(1)", progression.map { String($0.semitones) })
        let third = chain(on: "ld(1)", progression.map { $0.quality == .major ? "4" : "3" })
        let tones = ["0", "ld(3)", "7", "12", "(12+ld(3))", "19"]
        let step = chain(on: "ld(4)", pattern.map { tones[$0] })
        let base = format(rootHz)
        // Fast attack, exponential decay, and a 25 ms release that reaches silence exactly at
        // the next note: cutting a still-ringing sine would click.
        let pluck = "(1-exp(-ld(6)*300))*exp(-ld(6)*\(format(decay)))*min(1,(\(note)-ld(6))*40)"
            + "*(0.30*sin(2*PI*ld(7)*t)+\(format(brightness))*sin(4*PI*ld(7)*t))"
        // Pad (an octave down) and bass (two down) swell in and out with each chord to avoid clicks.
        let swell = "min(1,ld(8)*3)*min(1,(\(chordSeconds)-ld(8))*3)"
        let pad = "0.05*(sin(PI*\(base)*pow(2,ld(2)/12)*t)+sin(PI*\(base)*pow(2,(ld(2)+ld(3))/12)*t)"
            + "+sin(PI*\(base)*pow(2,(ld(2)+7)/12)*t))"
        let bass = "0.10*sin(PI/2*\(base)*pow(2,ld(2)/12)*t)"
        return [
            "st(0,floor(t/\(note)))",
            "st(1,mod(floor(ld(0)/8),4))",
            "st(2,\(root))",
            "st(3,\(third))",
            "st(4,mod(ld(0),8))",
            "st(5,ld(2)+\(step))",
            "st(6,t-ld(0)*\(note))",
            "st(7,\(base)*pow(2,ld(5)/12))",
            "st(8,mod(t,\(chordSeconds)))",
            "\(pluck)+\(swell)*(\(pad)+\(bass))",
        ].joined(separator: ";")
    }

    /// `if(eq(x,0),v0,if(eq(x,1),v1,…))`: aevalsrc has no arrays.
    private func chain(on variable: String, _ values: [String]) -> String {
        guard let last = values.last else { return "0" }
        return values.dropLast().enumerated().reversed().reduce(last) { tail, item in
            "if(eq(\(variable),\(item.offset)),\(item.element),\(tail))"
        }
    }

    private func format(_ value: Double) -> String {
        String(format: "%.4f", value)
    }
}
