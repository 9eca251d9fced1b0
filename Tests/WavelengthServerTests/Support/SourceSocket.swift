import Foundation
import NIOPosix
#if canImport(Glibc)
import Glibc
#endif

/// Broadcast software as seen from the network: sends a source request
/// head, reads the answer's first lines, then sends audio (or anything) and
/// reads until the server closes. Blocking socket calls run on
/// `BlockingIO.pool`, never on Swift's cooperative pool; a receive timeout bounds a
/// server that never answers.
final class SourceSocket: Sendable {
    let fd: Int32

    init(port: Int, patience: Int = 30) async throws {
        fd = try await BlockingIO.pool.runIfActive {
            try LoopbackSocket.connect(port: port) { fd in
                var timeout = timeval(tv_sec: patience, tv_usec: 0)
                setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            }
        }
    }

    deinit { close(fd) }

    /// `PUT /live/{station}` (or `method`) with the key as the Basic password.
    static func head(
        station: String, key: String?, method: String = "PUT", type: String = "audio/mpeg", expect: Bool = true,
        extra: String = ""
    ) -> String {
        var text = "\(method) /live/\(station) HTTP/1.\(method == "SOURCE" ? 0 : 1)\r\nHost: localhost\r\n"
        if let key { text += "Authorization: Basic \(Data("source:\(key)".utf8).base64EncodedString())\r\n" }
        text += "Content-Type: \(type)\r\nUser-Agent: test-source\r\n" + extra
        if expect { text += "Expect: 100-continue\r\n" }
        return text + "\r\n"
    }

    func send(_ text: String) async throws { try await send(Array(text.utf8)) }

    /// Sends everything, or stops quietly where the server closed.
    func send(_ bytes: [UInt8]) async throws {
        let fd = self.fd
        try await BlockingIO.pool.runIfActive {
            var sent = 0
            while sent < bytes.count {
                let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                guard n > 0 else { return }
                sent += n
            }
        }
    }

    /// What the server sends until the answer's blank line (or it closes).
    func answerHead() async throws -> String {
        let fd = self.fd
        return try await BlockingIO.pool.runIfActive {
            var received = [UInt8]()
            var byte: UInt8 = 0
            while received.suffix(4) != [13, 10, 13, 10], recv(fd, &byte, 1, 0) == 1 { received.append(byte) }
            return String(decoding: received, as: UTF8.self)
        }
    }

    /// Everything until the server closes; whether it closed (false: the
    /// wait timed out).
    func rest() async throws -> (text: String, closed: Bool) {
        let fd = self.fd
        return try await BlockingIO.pool.runIfActive {
            var received = [UInt8]()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if n > 0 {
                    received += buffer[..<n]
                    continue
                }
                return (String(decoding: received, as: UTF8.self), n == 0 || errno == ECONNRESET)
            }
        }
    }
}
