import CAubio
import Foundation

/// aubio's default tempo and onset detectors ("specflux" beat tracking,
/// "hfc" onsets), run from one shared spectrum per hop.
///
/// `aubio_tempo_do` and `aubio_onset_do` each run their own phase vocoder
/// over the same hop: two windows, two FFTs, and the phase of every bin
/// (an `atan2f` each, a fifth of the whole analysis), which neither
/// detector reads. This runs aubio's own parts in the same order with the
/// same settings (aubio 0.4.9's `tempo.c`, `onset.c` and `phasevoc.c`), but
/// one window and FFT per hop, magnitudes only, so the readings are the
/// same to the bit (`RhythmDetectorsTests` runs both side by side).
///
/// A class: it holds aubio's objects for one file on one analysis thread
/// and is never shared.
final class RhythmDetectors {
    let hop: Int
    private let window: Int
    private let rate: UInt32

    // The phase vocoder: the last window of input, its weighting and FFT.
    private let frame: UnsafeMutablePointer<fvec_t>
    private let previous: UnsafeMutablePointer<Float>
    private let weighting: UnsafeMutablePointer<fvec_t>
    private let fft: OpaquePointer
    private let complexSpectrum: UnsafeMutablePointer<fvec_t>
    /// Magnitudes, as the tempo detector reads them.
    private let spectrum: UnsafeMutablePointer<cvec_t>
    /// The same, log-compressed for the onset detector.
    private let compressed: UnsafeMutablePointer<cvec_t>

    // The tempo detector (`tempo.c`).
    private let flux: OpaquePointer
    private let tempoPeaks: OpaquePointer
    private let beats: OpaquePointer
    private let fluxValue = new_fvec(1)!
    private let tempoPeak = new_fvec(1)!
    /// The thresholded detection function the beat tracker reads, about 6 s.
    private let detectionFrame: UnsafeMutablePointer<fvec_t>
    private let beatCandidates: UnsafeMutablePointer<fvec_t>
    private let detectionLength: Int
    private let detectionStep: Int
    private var blockPosition = 0

    // The onset detector (`onset.c`, its "default" settings).
    private let highFrequency: OpaquePointer
    private let onsetPeaks: OpaquePointer
    private let highFrequencyValue = new_fvec(1)!
    private let onsetPeak = new_fvec(1)!
    private let minimumInterval: UInt32
    private let delay: UInt32
    private var totalFrames: UInt32 = 0
    private var lastOnset: UInt32 = 0

    /// Onsets counted so far.
    private(set) var onsets = 0

    init?(window: Int, hop: Int, rate: UInt32) {
        guard window >= hop, hop > 0, rate > 0,
            let fft = new_aubio_fft(uint_t(window)),
            let frame = new_fvec(uint_t(window)), let weighting = Self.hannWindow(size: window),
            let complexSpectrum = new_fvec(uint_t(window)),
            let spectrum = new_cvec(uint_t(window)), let compressed = new_cvec(uint_t(window)),
            let flux = new_aubio_specdesc("specflux", uint_t(window)),
            let highFrequency = new_aubio_specdesc("hfc", uint_t(window)),
            let tempoPeaks = new_aubio_peakpicker(), let onsetPeaks = new_aubio_peakpicker()
        else { return nil }
        // new_aubio_tempo: about 5.8 s of the detection function, read a quarter at a time.
        let detectionLength = max(4, Int(aubio_next_power_of_two(uint_t(5.8 * Double(rate) / Double(hop)))))
        guard let detectionFrame = new_fvec(uint_t(detectionLength)),
            let beatCandidates = new_fvec(uint_t(detectionLength / 4)),
            let beats = new_aubio_beattracking(uint_t(detectionLength), uint_t(hop), rate)
        else { return nil }
        self.window = window
        self.hop = hop
        self.rate = rate
        self.fft = fft
        self.frame = frame
        self.weighting = weighting
        self.complexSpectrum = complexSpectrum
        self.spectrum = spectrum
        self.compressed = compressed
        self.flux = flux
        self.highFrequency = highFrequency
        self.tempoPeaks = tempoPeaks
        self.onsetPeaks = onsetPeaks
        previous = .allocate(capacity: max(1, window - hop))
        previous.initialize(repeating: 0, count: max(1, window - hop))
        self.detectionLength = detectionLength
        detectionStep = detectionLength / 4
        self.detectionFrame = detectionFrame
        self.beatCandidates = beatCandidates
        self.beats = beats
        aubio_peakpicker_set_threshold(tempoPeaks, 0.3)
        // aubio_onset_set_default_parameters for "hfc": threshold 0.058,
        // 50 ms between onsets, 4.3 hops of delay, silence below -70 dB.
        aubio_peakpicker_set_threshold(onsetPeaks, 0.058)
        minimumInterval = uint_t(floorf(Float(Double(Float(0.05) * Float(rate)) + 0.5)))
        delay = uint_t(4.3 * Double(hop))
    }

    /// Both detectors over one hop of `hop` samples.
    func detect(_ input: UnsafeMutablePointer<fvec_t>) {
        computeSpectrum(input)
        trackTempo()
        detectOnset(input)
    }

    var bpm: Float { aubio_beattracking_get_bpm(beats) }
    var confidence: Float { aubio_beattracking_get_confidence(beats) }

    /// `aubio_pvoc_do` without the phase: slide, weight, shift, FFT, magnitudes.
    private func computeSpectrum(_ input: UnsafeMutablePointer<fvec_t>) {
        let data = frame.pointee.data!
        let kept = window - hop
        data.update(from: previous, count: kept)
        (data + kept).update(from: input.pointee.data, count: hop)
        previous.update(from: data + hop, count: kept)
        fvec_weight(frame, weighting)
        fvec_shift(frame)
        aubio_fft_do_complex(fft, frame, complexSpectrum)
        aubio_fft_get_norm(complexSpectrum, spectrum)
    }

    /// `aubio_tempo_do`, but for the beats it reports (only its tempo is read).
    private func trackTempo() {
        aubio_specdesc_do(flux, spectrum, fluxValue)
        if blockPosition == detectionStep - 1 {
            aubio_beattracking_do(beats, detectionFrame, beatCandidates)
            let values = detectionFrame.pointee.data!
            values.update(from: values + detectionStep, count: detectionLength - detectionStep)
            (values + detectionLength - detectionStep).update(repeating: 0, count: detectionStep)
            blockPosition = -1
        }
        blockPosition += 1
        aubio_peakpicker_do(tempoPeaks, fluxValue, tempoPeak)
        let thresholded = aubio_peakpicker_get_thresholded_input(tempoPeaks)!
        detectionFrame.pointee.data[detectionLength - detectionStep + blockPosition] = thresholded.pointee.data[0]
    }

    /// `aubio_onset_do` with its "default" (hfc) settings: the peak picker,
    /// then silence, the least interval between onsets and the start delay.
    private func detectOnset(_ input: UnsafeMutablePointer<fvec_t>) {
        let bins = Int(spectrum.pointee.length)
        compressed.pointee.norm.update(from: spectrum.pointee.norm, count: bins)
        cvec_logmag(compressed, 1)
        aubio_specdesc_do(highFrequency, compressed, highFrequencyValue)
        aubio_peakpicker_do(onsetPeaks, highFrequencyValue, onsetPeak)
        var isOnset = onsetPeak.pointee.data[0]
        if isOnset > 0 {
            if aubio_silence_detection(input, -70) == 1 {
                isOnset = 0
            } else {
                let newOnset = totalFrames &+ uint_t(floorf(Float(Double(isOnset * Float(hop)) + 0.5)))
                if lastOnset &+ minimumInterval < newOnset {
                    if lastOnset > 0 && delay > newOnset {
                        isOnset = 0
                    } else {
                        lastOnset = max(delay, newOnset)
                    }
                } else {
                    isOnset = 0
                }
            }
        } else if totalFrames <= delay, aubio_silence_detection(input, -70) == 0 {
            // The start of the file, and not silent.
            if totalFrames == 0 || lastOnset &+ minimumInterval < totalFrames {
                isOnset = Float(delay / uint_t(hop))
                lastOnset = totalFrames &+ delay
            }
        }
        if isOnset != 0 { onsets += 1 }
        totalFrames &+= uint_t(hop)
    }

    /// The phase vocoder's window ("hanningz"; aubio takes its name mutable).
    private static func hannWindow(size: Int) -> UnsafeMutablePointer<fvec_t>? {
        var name = Array("hanningz".utf8CString)
        return name.withUnsafeMutableBufferPointer { new_aubio_window($0.baseAddress, uint_t(size)) }
    }

    deinit {
        del_aubio_fft(fft)
        del_fvec(frame)
        del_fvec(weighting)
        del_fvec(complexSpectrum)
        del_cvec(spectrum)
        del_cvec(compressed)
        del_aubio_specdesc(flux)
        del_aubio_specdesc(highFrequency)
        del_aubio_peakpicker(tempoPeaks)
        del_aubio_peakpicker(onsetPeaks)
        del_aubio_beattracking(beats)
        del_fvec(fluxValue)
        del_fvec(tempoPeak)
        del_fvec(highFrequencyValue)
        del_fvec(onsetPeak)
        del_fvec(detectionFrame)
        del_fvec(beatCandidates)
        previous.deallocate()
    }
}
