import Foundation
import Testing
@testable import WavelengthQR

@Suite("QR code matrix")
struct QRCodeTests {
    static let invite = "https://example.com/#/i/abc"

    @Test("A 27-byte invite link is version 3 at level M: 29 modules a side")
    func knownSize() throws {
        // Level M holds 26 bytes in version 2 and 42 in version 3.
        let code = try QRCode(text: Self.invite)
        #expect(code.version == 3)
        #expect(code.size == 4 * 3 + 17)
    }

    @Test("Size grows with the text: 4 × version + 17")
    func sizeFollowsVersion() throws {
        // 8-bit capacities at level M: version 1 holds 14 bytes, version 10
        // 213, version 26 1062 (and version 25 only 1000).
        for (bytes, version) in [(14, 1), (15, 2), (213, 10), (214, 11), (1024, 26)] {
            let code = try QRCode(text: String(repeating: "a", count: bytes))
            #expect(code.version == version, "\(bytes) bytes")
            #expect(code.size == 4 * version + 17)
        }
    }

    @Test("The three finder patterns, their separators, the timing patterns and the dark module are where the spec puts them")
    func functionPatterns() throws {
        for text in [Self.invite, "https://radio.example/#/i/Zürich-ラジオ", String(repeating: "x", count: 500)] {
            let code = try QRCode(text: text)
            let n = code.size
            // Finder centres: top left, top right, bottom left. Rings by
            // Chebyshev distance: 0-1 dark (the 3×3 core), 2 light, 3 dark
            // (the 7×7 border), 4 light (the separator).
            for (cx, cy) in [(3, 3), (n - 4, 3), (3, n - 4)] {
                for y in (cy - 4)...(cy + 4) {
                    for x in (cx - 4)...(cx + 4) where x >= 0 && y >= 0 && x < n && y < n {
                        let ring = max(abs(x - cx), abs(y - cy))
                        let expected = ring <= 1 || ring == 3
                        #expect(code.isDark(x: x, y: y) == expected, "(\(x), \(y)) in \(n)×\(n)")
                    }
                }
            }
            // No finder in the bottom-right corner: its 3×3 core isn't all dark.
            let bottomRightCore = (n - 5...n - 3).flatMap { y in (n - 5...n - 3).map { x in code.isDark(x: x, y: y) } }
            #expect(bottomRightCore.contains(false))
            // Timing patterns: row 6 and column 6, alternating, dark on even.
            for i in 8..<(n - 8) {
                #expect(code.isDark(x: i, y: 6) == (i % 2 == 0))
                #expect(code.isDark(x: 6, y: i) == (i % 2 == 0))
            }
            // The dark module beside the bottom-left finder.
            #expect(code.isDark(x: 8, y: n - 8))
        }
    }

    @Test("Outside the symbol is light quiet zone")
    func outsideIsLight() throws {
        let code = try QRCode(text: Self.invite)
        #expect(code.isDark(x: 0, y: 0))
        #expect(!code.isDark(x: -1, y: 0))
        #expect(!code.isDark(x: 0, y: -1))
        #expect(!code.isDark(x: code.size, y: 0))
        #expect(!code.isDark(x: 0, y: code.size))
    }

    @Test(
        "ASCII text's matrix is module for module what the qrencode tool makes",
        .enabled(if: Tools.qrencode != nil, "the qrencode tool (Debian's qrencode) is not installed")
    )
    func matchesQrencodeTool() async throws {
        try #require(Tools.qrencode != nil)
        for text in [Self.invite, "WAVELENGTH", String(repeating: "https://radio.example/#/i/Q7x-", count: 20)] {
            let code = try QRCode(text: text)
            let output = try await Tools.run("qrencode", ["-t", "ASCII", "-m", "0", "-l", "M", "-8", "-o", "-", text])
            try #require(output.status == 0, "\(output.stderr)")
            let rows = String(decoding: output.stdout, as: UTF8.self)
                .split(separator: "\n", omittingEmptySubsequences: true)
            try #require(rows.count == code.size)
            for (y, row) in rows.enumerated() {
                // Two characters a module: "##" dark, "  " light.
                let cells = Array(row)
                try #require(cells.count == 2 * code.size)
                for x in 0..<code.size {
                    #expect(code.isDark(x: x, y: y) == (cells[2 * x] == "#"), "(\(x), \(y)) of \(text)")
                }
            }
        }
    }

    @Test("Non-ASCII text carries a UTF-8 ECI header, so it needs more room than the same number of ASCII bytes")
    func unicodeGetsECI() throws {
        // 14 bytes fill version 1 at level M exactly; with the 4-bit ECI mode
        // indicator and the 8-bit designator 26 ahead of them, they need
        // version 2. "ü" is two bytes in UTF-8.
        let ascii = try QRCode(text: String(repeating: "u", count: 14))
        let unicode = try QRCode(text: String(repeating: "u", count: 12) + "ü")
        #expect(ascii.version == 1)
        #expect(unicode.version == 2)
        // (The zbarimg round-trip tests show readers take the header as UTF-8.)
    }

    @Test("Text over 1024 UTF-8 bytes throws .tooLong; 1024 bytes fit")
    func tooLong() throws {
        #expect(throws: QRCodeError.tooLong) { try QRCode(text: String(repeating: "a", count: 1025)) }
        // 342 three-byte characters: 1026 bytes though only 342 characters.
        #expect(throws: QRCodeError.tooLong) { try QRCode(text: String(repeating: "ラ", count: 342)) }
        let longest = try QRCode(text: String(repeating: "a", count: 1024))
        #expect(longest.size == 4 * longest.version + 17)
    }

    @Test("Empty text is refused by libqrencode (EINVAL)")
    func emptyText() {
        #expect(throws: QRCodeError.encodingFailed("libqrencode: invalid input (EINVAL)")) {
            try QRCode(text: "")
        }
    }

    @Test("The same text gives equal codes; different texts differ")
    func equality() throws {
        #expect(try QRCode(text: Self.invite) == QRCode(text: Self.invite))
        #expect(try QRCode(text: Self.invite) != QRCode(text: Self.invite + "d"))
    }

    @Test("Encoding from many tasks at once gives the same codes as one at a time")
    func concurrentEncoding() async throws {
        let texts = (0..<64).map { "https://radio.example/#/i/\($0)-\(String(repeating: "z", count: $0 * 5))" }
        let serial = try texts.map { try QRCode(text: $0) }
        let parallel = try await withThrowingTaskGroup(of: (Int, QRCode).self) { group in
            for (index, text) in texts.enumerated() {
                group.addTask { (index, try QRCode(text: text)) }
            }
            var codes = [QRCode?](repeating: nil, count: texts.count)
            for try await (index, code) in group { codes[index] = code }
            return codes
        }
        #expect(parallel == serial.map(Optional.some))
    }
}
