import CPNG
import Foundation
import Testing
@testable import WavelengthQR

@Suite("QR code PNG")
struct PNGTests {
    static let invite = "https://example.com/#/i/abc"
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Reads a PNG back with libpng's simplified read API, as 8-bit gray.
    private func decode(_ png: [UInt8]) throws -> (width: Int, height: Int, pixels: [UInt8]) {
        var image = png_image()
        image.version = png_uint_32(PNG_IMAGE_VERSION)
        let began = png.withUnsafeBytes { png_image_begin_read_from_memory(&image, $0.baseAddress, $0.count) }
        try #require(began != 0, "libpng could not read the header")
        image.format = png_uint_32(PNG_FORMAT_GRAY)
        let width = Int(image.width)
        let height = Int(image.height)
        var pixels = [UInt8](repeating: 0x7F, count: width * height)
        let finished = pixels.withUnsafeMutableBytes {
            png_image_finish_read(&image, nil, $0.baseAddress, png_int_32(width), nil)
        }
        try #require(finished != 0, "libpng could not read the image")
        return (width, height, pixels)
    }

    @Test("The PNG has the PNG signature and an 8-bit grayscale IHDR of the right size")
    func signatureAndHeader() throws {
        let code = try QRCode(text: Self.invite)
        let png = try code.png()
        #expect(Array(png.prefix(8)) == Self.signature)
        // IHDR is the first chunk: length 13, then width, height, depth, type.
        #expect(Array(png[12..<16]) == Array("IHDR".utf8))
        let side = (code.size + 8) * 8
        let width = png[16..<20].reduce(0) { $0 << 8 | Int($1) }
        let height = png[20..<24].reduce(0) { $0 << 8 | Int($1) }
        #expect(width == side && height == side)
        #expect(png[24] == 8)  // bit depth
        #expect(png[25] == 0)  // grayscale
        #expect(Array(png.suffix(8)[png.count - 8..<png.count - 4]) == Array("IEND".utf8))
    }

    @Test("Every pixel is black for a dark module and white elsewhere, quiet zone included", arguments: [1, 3, 8])
    func pixelsMatchModules(scale: Int) throws {
        let code = try QRCode(text: Self.invite)
        let image = try decode(code.png(scale: scale))
        let side = (code.size + 8) * scale
        #expect(image.width == side && image.height == side)
        var mismatches = 0
        for py in 0..<side {
            for px in 0..<side {
                let dark = code.isDark(x: px / scale - 4, y: py / scale - 4)
                if image.pixels[py * side + px] != (dark ? 0 : 255) { mismatches += 1 }
            }
        }
        #expect(mismatches == 0)
    }

    @Test(
        "zbarimg reads the PNG back as the exact text",
        .enabled(if: Tools.zbarimg != nil, "zbarimg is not installed (Debian's zbar-tools); skipping the decode round-trip"),
        arguments: [
            "https://example.com/#/i/abc",
            "https://radio.example/#/i/Zürich-ラジオ",
            "Zürich Ça va — 東京 📻",
            "https://wavelength.example:8443/#/i/" + String(repeating: "Q7x", count: 100),
        ]
    )
    func zbarRoundTrip(text: String) async throws {
        let code = try QRCode(text: text)
        for scale in [2, 8] {
            #expect(try await Tools.zbarDecode(png: code.png(scale: scale)) == text, "scale \(scale)")
        }
    }

    @Test("Scales outside 1...32 throw; 1 and 32 work")
    func scaleRange() throws {
        let code = try QRCode(text: Self.invite)
        for scale in [0, -1, 33, Int.max, Int.min] {
            #expect(throws: QRCodeError.self) { try code.png(scale: scale) }
        }
        #expect(throws: QRCodeError.encodingFailed("PNG scale 33 is outside 1...32")) { try code.png(scale: 33) }
        #expect(try decode(code.png(scale: 1)).width == code.size + 8)
        #expect(try decode(code.png(scale: 32)).width == (code.size + 8) * 32)
    }

    @Test("When the first buffer is too small, libpng's asked-for size is used and the PNG is the same")
    func retryWithLargerBuffer() throws {
        let code = try QRCode(text: Self.invite)
        let expected = try code.png(scale: 4)
        #expect(try code.png(scale: 4, initialCapacity: 16) == expected)
        #expect(try code.png(scale: 4, initialCapacity: expected.count) == expected)
        #expect(try code.png(scale: 4, initialCapacity: expected.count - 1) == expected)
    }

    @Test("The largest code at the largest scale encodes")
    func largest() throws {
        // Noise-like text so the code compresses badly.
        var generator = SystemRandomNumberGenerator()
        let text = String((0..<1024).map { _ in Character(Unicode.Scalar(UInt8.random(in: 0x21...0x7E, using: &generator))) })
        let code = try QRCode(text: text)
        let png = try code.png(scale: 32)
        #expect(Array(png.prefix(8)) == Self.signature)
        let image = try decode(png)
        #expect(image.width == (code.size + 8) * 32)
    }
}
