import CQRencode
import Foundation

/// Why a QR code could not be made.
public enum QRCodeError: Error, Equatable, Sendable {
    /// The text is over ``QRCode/maximumByteCount`` UTF-8 bytes, or too long
    /// for any QR version at error correction level M.
    case tooLong
    /// libqrencode or libpng failed, or an argument was out of range; the
    /// string says why.
    case encodingFailed(String)
}

/// A QR code symbol (model 2), encoded by libqrencode.
///
/// Text is encoded as UTF-8 bytes in 8-bit mode at error correction level M,
/// in the smallest version that holds it; non-ASCII text is marked UTF-8
/// with an ECI header. The matrix has no quiet zone;
/// ``svg(moduleSize:title:)`` and ``png(scale:)`` add the 4-module one the
/// spec asks for.
public struct QRCode: Sendable, Equatable {
    /// The longest text, in UTF-8 bytes, that ``init(text:)`` accepts.
    public static let maximumByteCount = 1024
    /// The width of the quiet zone ``svg(moduleSize:title:)`` and
    /// ``png(scale:)`` put around the symbol, in modules.
    public static let quietZone = 4

    /// Modules per side (4 × version + 17).
    public let size: Int
    /// The QR version, 1...40.
    public let version: Int
    /// Row-major, `size * size` entries, true for dark.
    private let modules: [Bool]

    /// Encodes UTF-8 text (8-bit mode, error correction level M, the smallest
    /// version that fits). Text with any non-ASCII character starts with an
    /// ECI header naming UTF-8 (designator 26), so readers don't have to guess.
    ///
    /// - Throws: ``QRCodeError/tooLong`` for text over
    ///   ``maximumByteCount`` bytes or that libqrencode finds too large
    ///   (ERANGE); ``QRCodeError/encodingFailed(_:)`` for any other failure of
    ///   libqrencode (such as EINVAL for empty text, or ENOMEM).
    public init(text: String) throws {
        let bytes = Array(text.utf8)
        guard bytes.count <= Self.maximumByteCount else { throw QRCodeError.tooLong }
        let encoded = try Self.encode(bytes)
        defer { QRcode_free(encoded) }

        let width = Int(encoded.pointee.width)
        guard width > 0, let data = encoded.pointee.data else {
            throw QRCodeError.encodingFailed("libqrencode returned an empty symbol")
        }
        // Bit 0 of each byte is the module's colour: 1 is dark.
        let cells = UnsafeBufferPointer(start: data, count: width * width)
        self.size = width
        self.version = Int(encoded.pointee.version)
        self.modules = cells.map { $0 & 1 != 0 }
    }

    /// Whether the module at column `x`, row `y` (0-based, from the top
    /// left) is dark. Anything outside the symbol is quiet zone: light.
    public func isDark(x: Int, y: Int) -> Bool {
        guard x >= 0, y >= 0, x < size, y < size else { return false }
        return modules[y * size + x]
    }

    /// The ECI designator for UTF-8.
    static let utf8ECI: UInt32 = 26

    /// Runs libqrencode: one 8-bit segment at level M, version chosen by
    /// libqrencode. Text that isn't pure ASCII gets an ECI header saying the
    /// bytes are UTF-8; without one, readers guess the charset, and zbar (like
    /// ZXing) takes UTF-8 Japanese for Shift JIS. ASCII text gets none, so it
    /// reads the same on the oldest readers.
    private static func encode(_ bytes: [UInt8]) throws -> UnsafeMutablePointer<QRcode> {
        // libqrencode reports why it failed through errno only.
        errno = 0
        guard let input = QRinput_new2(0, QR_ECLEVEL_M) else { throw error(forErrno: errno) }
        defer { QRinput_free(input) }
        if bytes.contains(where: { $0 >= 0x80 }) {
            guard QRinput_appendECIheader(input, utf8ECI) == 0 else { throw error(forErrno: errno) }
        }
        let appended = bytes.withUnsafeBufferPointer { buffer in
            QRinput_append(input, QR_MODE_8, Int32(buffer.count), buffer.baseAddress)
        }
        guard appended == 0 else { throw error(forErrno: errno) }
        guard let encoded = QRcode_encodeInput(input) else { throw error(forErrno: errno) }
        return encoded
    }

    private static func error(forErrno code: Int32) -> QRCodeError {
        switch code {
        case ERANGE: return .tooLong
        case EINVAL: return .encodingFailed("libqrencode: invalid input (EINVAL)")
        case ENOMEM: return .encodingFailed("libqrencode: out of memory (ENOMEM)")
        case 0: return .encodingFailed("libqrencode failed without saying why")
        default: return .encodingFailed("libqrencode failed (errno \(code))")
        }
    }
}
