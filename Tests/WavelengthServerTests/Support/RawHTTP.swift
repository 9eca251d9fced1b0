import Foundation
import NIOPosix
#if canImport(Glibc)
import Glibc
#endif

/// Sends raw bytes to the server, which need not be valid HTTP, and reads
/// everything it answers until it closes the connection.
///
/// The socket calls block, so they run on `BlockingIO.pool`, never on
/// Swift's cooperative pool. A receive timeout bounds a server that never
/// answers or never closes: the read then ends and the test sees no close.
enum RawHTTP {
    struct Exchange: Sendable {
        /// Everything the server sent.
        var answer: String
        /// The same, as bytes.
        var bytes: [UInt8] = []
        /// Whether the server closed the connection (false: the read timed out).
        var closed: Bool

        var statusLine: String { answer.components(separatedBy: "\r\n").first ?? "" }
        var body: String { answer.components(separatedBy: "\r\n\r\n").dropFirst().joined(separator: "\r\n\r\n") }
    }

    /// With `upTo`, stops reading once that many bytes came (an endless
    /// answer, such as a stream).
    static func send(_ bytes: [UInt8], port: Int, patience: Int = 60, upTo limit: Int? = nil) async throws -> Exchange {
        try await BlockingIO.pool.runIfActive {
            try blockingSend(bytes, port: port, patience: patience, limit: limit)
        }
    }

    private static func blockingSend(_ bytes: [UInt8], port: Int, patience: Int, limit: Int?) throws -> Exchange {
        let fd = try LoopbackSocket.connect(port: port) { fd in
            var timeout = timeval(tv_sec: patience, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }
        defer { close(fd) }
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            // The server may answer and close before it has read everything.
            guard n > 0 else { break }
            sent += n
        }
        var received = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 {
                received += buffer[..<n]
                if let limit, received.count >= limit { return Exchange(answer: String(decoding: received, as: UTF8.self), bytes: received, closed: false) }
                continue
            }
            // 0 is an orderly close; ECONNRESET also ends the connection.
            let closed = n == 0 || errno == ECONNRESET
            return Exchange(answer: String(decoding: received, as: UTF8.self), bytes: received, closed: closed)
        }
    }
}
