import Foundation

/// The room calibration's chirp, as the web app's `room/chirp.js` makes it:
/// a linear sweep from 1 to 8 kHz, 120 ms long with 10 ms raised-cosine
/// fades, peaking at −20 dBFS. A device plays `repetitions` of it
/// `spacingSeconds` apart in its slot; the meter finds each with a matched
/// filter. The two must stay the same sound, or the meter's filter no
/// longer matches the SDK's chirp.
public enum RoomChirp {
    public static let lowHz = 1000.0
    public static let highHz = 8000.0
    public static let seconds = 0.12
    public static let fadeSeconds = 0.01
    public static let peak = 0.1
    public static let repetitions = 4
    public static let spacingSeconds = 0.25

    /// One chirp at `rate` samples a second.
    public static func samples(rate: Double) -> [Float] {
        let count = Int((seconds * rate).rounded())
        let fade = max(1, Int((fadeSeconds * rate).rounded()))
        let sweep = (highHz - lowHz) / seconds
        return (0..<count).map { i in
            let t = Double(i) / rate
            var envelope = 1.0
            if i < fade {
                envelope = 0.5 - 0.5 * cos(Double.pi * Double(i) / Double(fade))
            } else if i >= count - fade {
                envelope = 0.5 - 0.5 * cos(Double.pi * Double(count - 1 - i) / Double(fade))
            }
            return Float(peak * envelope * sin(2 * Double.pi * (lowHz * t + 0.5 * sweep * t * t)))
        }
    }

    /// A slot's whole sound: every repetition in place, as 16-bit mono PCM
    /// in a WAV file's bytes (an output that plays files plays it as is).
    public static func slotWAV(rate: Int = 48000) -> [UInt8] {
        let one = samples(rate: Double(rate))
        let spacing = Int((spacingSeconds * Double(rate)).rounded())
        var pcm = [Int16](repeating: 0, count: spacing * (repetitions - 1) + one.count + rate / 10)
        for r in 0..<repetitions {
            for (i, value) in one.enumerated() { pcm[r * spacing + i] = Int16((value * 32767).rounded()) }
        }
        var bytes: [UInt8] = []
        func put32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { bytes += $0 } }
        func put16(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { bytes += $0 } }
        let data = UInt32(pcm.count * 2)
        bytes += Array("RIFF".utf8)
        put32(36 + data)
        bytes += Array("WAVEfmt ".utf8)
        put32(16)
        put16(1)
        put16(1)
        put32(UInt32(rate))
        put32(UInt32(rate * 2))
        put16(2)
        put16(16)
        bytes += Array("data".utf8)
        put32(data)
        for sample in pcm { put16(UInt16(bitPattern: sample)) }
        return bytes
    }
}
