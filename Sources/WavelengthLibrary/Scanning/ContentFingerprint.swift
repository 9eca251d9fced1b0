#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A cheap identity for a file's content, used to recognise a file that was moved or renamed.
///
/// Size plus a 64-bit FNV-1a hash of the first 16 KiB: tags and the first audio frames live
/// there, so two different tracks practically never collide, and reading 16 KiB is cheap.
enum ContentFingerprint {
    static let prefixLength = 16 * 1024

    static func of(path: String, size: Int64) throws(LibraryError) -> String {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            throw .unreadable("cannot open it (\(SystemError(errno).message))")
        }
        defer { close(descriptor) }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        let complete = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: prefixLength) { buffer -> Bool in
            var filled = 0
            while filled < prefixLength {
                let count = read(descriptor, buffer.baseAddress! + filled, prefixLength - filled)
                if count == 0 { break }
                if count < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                filled += count
            }
            for byte in buffer[0..<filled] {
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            }
            return true
        }
        guard complete else { throw .unreadable("reading it failed (\(SystemError(errno).message))") }
        return "\(size)-" + String(hash, radix: 16)
    }
}
