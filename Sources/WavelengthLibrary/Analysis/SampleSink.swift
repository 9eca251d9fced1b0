import CFFmpeg

/// One meter fed from the shared decode: it says what samples it wants, is
/// started once the first frame tells the rate and channels it will get,
/// then fed packed samples until it has heard enough.
///
/// Classes, not structs: each lives on one analysis thread for one file,
/// holds a C detector's state, and is never shared.
protocol SampleSink: AnyObject {
    associatedtype Reading: Sendable
    /// The samples it wants from a file decoded at `inputRate`.
    func output(inputRate: Int32) -> AudioResampler.Output
    /// False once the meter needs no more audio (a capped one): the decode
    /// stops when no meter wants more.
    var wantsMoreFrames: Bool { get }
    func start(rate: Int32, channels: Int32) throws
    func feed(_ samples: UnsafeRawPointer, frames: Int)
    /// The reading from everything fed, or the meter's own `Failure`.
    func finish() throws -> Reading
}
