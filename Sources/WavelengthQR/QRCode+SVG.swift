extension QRCode {
    /// An SVG document of the code: a white background and one `<path>` of
    /// the dark modules, with runs of dark modules in a row merged into one
    /// rectangle each, inside a 4-module quiet zone.
    ///
    /// The `viewBox` is in modules; `width` and `height` are
    /// `(size + 8) * moduleSize` pixels (a `moduleSize` below 1 counts as 1).
    /// `title` becomes the document's `<title>`, its accessible name, and is
    /// XML-escaped; characters XML 1.0 forbids (most control characters)
    /// are dropped from it.
    public func svg(moduleSize: Int = 8, title: String = "QR code") -> String {
        let moduleSize = max(1, moduleSize)
        let quiet = Self.quietZone
        let side = size + 2 * quiet
        let pixels = side * moduleSize

        var path = ""
        path.reserveCapacity(size * size * 2)
        for y in 0..<size {
            var x = 0
            while x < size {
                guard isDark(x: x, y: y) else {
                    x += 1
                    continue
                }
                var run = 1
                while x + run < size, isDark(x: x + run, y: y) { run += 1 }
                path += "M\(x + quiet) \(y + quiet)h\(run)v1h-\(run)z"
                x += run
            }
        }

        return """
            <svg xmlns="http://www.w3.org/2000/svg" version="1.1" \
            width="\(pixels)" height="\(pixels)" viewBox="0 0 \(side) \(side)" \
            shape-rendering="crispEdges" role="img">\
            <title>\(Self.xmlEscaped(title))</title>\
            <rect x="0" y="0" width="\(side)" height="\(side)" fill="#fff"/>\
            <path fill="#000" d="\(path)"/>\
            </svg>

            """
    }

    /// Escapes text for XML character data or a quoted attribute value, and
    /// drops the characters XML 1.0 does not allow at all.
    static func xmlEscaped(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&apos;"
            case "\t", "\n", "\r": escaped.unicodeScalars.append(scalar)
            default:
                let value = scalar.value
                let allowed = (0x20...0xD7FF).contains(value)
                    || (0xE000...0xFFFD).contains(value)
                    || (0x10000...0x10FFFF).contains(value)
                if allowed { escaped.unicodeScalars.append(scalar) }
            }
        }
        return escaped
    }
}
