// Users of the library also get the media values it reads and writes
// (AudioFormat, ScannedFile, AudioFeatures, …), which live in the core so
// that storage can name them without linking FFmpeg, aubio or Chromaprint.
@_exported import WavelengthCore
