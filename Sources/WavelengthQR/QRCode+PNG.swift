import CPNG

extension QRCode {
    /// The scales ``png(scale:)`` accepts, in pixels per module.
    public static let pngScales = 1...32

    /// A PNG of the code: 8-bit grayscale, black on white, `scale` pixels per
    /// module, with a 4-module quiet zone, so `(size + 8) * scale` pixels a
    /// side.
    ///
    /// It is encoded by libpng's simplified write API
    /// (`png_image_write_to_memory`), which traps libpng's errors with a
    /// `setjmp` of its own inside libpng and reports them in the image's
    /// message, so no `longjmp` ever unwinds a Swift frame.
    ///
    /// - Throws: ``QRCodeError/encodingFailed(_:)`` when `scale` is outside
    ///   ``pngScales`` or libpng fails.
    public func png(scale: Int = 8) throws -> [UInt8] {
        try png(scale: scale, initialCapacity: nil)
    }

    /// ``png(scale:)`` with the first output buffer's size chosen, so tests
    /// can make libpng ask for a bigger one.
    func png(scale: Int, initialCapacity: Int?) throws -> [UInt8] {
        guard Self.pngScales.contains(scale) else {
            throw QRCodeError.encodingFailed("PNG scale \(scale) is outside \(Self.pngScales)")
        }
        let side = (size + 2 * Self.quietZone) * scale
        let pixels = rasterize(scale: scale, side: side)

        // A QR code compresses very well; start small and, when libpng says
        // the buffer was too small, try once more with the size it asked for.
        var capacity = max(1, initialCapacity ?? side * side / 8 + 1024)
        for _ in 0..<2 {
            var image = png_image()
            image.version = png_uint_32(PNG_IMAGE_VERSION)
            image.width = png_uint_32(side)
            image.height = png_uint_32(side)
            image.format = png_uint_32(PNG_FORMAT_GRAY)

            var output = [UInt8](repeating: 0, count: capacity)
            var length = png_alloc_size_t(capacity)
            let written = output.withUnsafeMutableBytes { memory in
                pixels.withUnsafeBytes { buffer in
                    png_image_write_to_memory(
                        &image, memory.baseAddress, &length,
                        0, buffer.baseAddress, png_int_32(side), nil
                    )
                }
            }
            // The write frees the image's libpng state itself, success or not.
            if written != 0 {
                output.removeSubrange(Int(length)...)
                return output
            }
            if Int(length) > capacity {
                capacity = Int(length)
                continue
            }
            throw QRCodeError.encodingFailed("libpng: \(Self.message(of: image))")
        }
        throw QRCodeError.encodingFailed("libpng: the PNG outgrew the size libpng asked for")
    }

    /// One byte a pixel, row by row: 0 for dark, 255 for light.
    private func rasterize(scale: Int, side: Int) -> [UInt8] {
        var pixels = [UInt8](repeating: 255, count: side * side)
        let offset = Self.quietZone * scale
        pixels.withUnsafeMutableBufferPointer { buffer in
            for y in 0..<size {
                let top = offset + y * scale
                for x in 0..<size where isDark(x: x, y: y) {
                    let left = offset + x * scale
                    for row in top..<(top + scale) {
                        let start = row * side + left
                        buffer[start..<(start + scale)].update(repeating: 0)
                    }
                }
            }
        }
        return pixels
    }

    private static func message(of image: png_image) -> String {
        withUnsafeBytes(of: image.message) { raw in
            let bytes = raw.prefix { $0 != 0 }
            let text = String(decoding: bytes, as: UTF8.self)
            return text.isEmpty ? "unknown error" : text
        }
    }
}
