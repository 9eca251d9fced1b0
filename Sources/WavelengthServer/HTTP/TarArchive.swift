/// A POSIX ustar archive, written in memory: what "Download my data"
/// hands over, readable by `tar` everywhere and by every archive tool.
/// Files only, each 0600, names of at most 100 bytes (the archive's
/// names are the server's own: `clips/v….mp3`, `account.json`).
struct TarArchive: Sendable {
    private(set) var bytes: [UInt8] = []
    private var finished = false

    /// Adds a file; `modified` in seconds since 1970.
    mutating func add(_ name: String, _ data: [UInt8], modified: Int64) {
        precondition(!finished && !name.isEmpty && name.utf8.count <= 100, "a tar name is 1 to 100 bytes")
        var header = [UInt8](repeating: 0, count: 512)
        func put(_ text: String, at offset: Int) {
            for (index, byte) in text.utf8.enumerated() { header[offset + index] = byte }
        }
        func octal(_ value: Int64, width: Int) -> String {
            let digits = String(value, radix: 8)
            return String(repeating: "0", count: max(0, width - 1 - digits.count)) + digits
        }
        put(name, at: 0)
        put(octal(0o600, width: 8), at: 100)  // mode
        put(octal(0, width: 8), at: 108)  // uid
        put(octal(0, width: 8), at: 116)  // gid
        put(octal(Int64(data.count), width: 12), at: 124)
        put(octal(max(0, modified), width: 12), at: 136)
        put("        ", at: 148)  // the checksum counts itself as spaces
        header[156] = UInt8(ascii: "0")  // a regular file
        put("ustar", at: 257)
        put("00", at: 263)
        put("wavelength", at: 265)  // uname
        put("wavelength", at: 297)  // gname
        let sum = header.reduce(0) { $0 + Int64($1) }
        put(octal(sum, width: 7), at: 148)
        header[155] = UInt8(ascii: " ")
        bytes += header
        bytes += data
        bytes += [UInt8](repeating: 0, count: (512 - data.count % 512) % 512)
    }

    /// The archive, ended with its two empty blocks.
    mutating func finish() -> [UInt8] {
        if !finished {
            bytes += [UInt8](repeating: 0, count: 1024)
            finished = true
        }
        return bytes
    }
}
