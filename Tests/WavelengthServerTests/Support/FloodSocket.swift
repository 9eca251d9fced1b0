import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A WebSocket client that sends as fast as the server takes it, never reads
/// an answer, and then drops the connection with a reset: a flooding client
/// that vanishes. Its socket never blocks, so it is safe in async code.
final class FloodSocket {
    private let fd: Int32

    init(port: Int, path: String, token: String?) throws {
        fd = try LoopbackSocket.connect(port: port) { fd in
            // A small receive buffer, so the server's answers back up quickly.
            var size: Int32 = 4096
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        let authorization = token.map { "Authorization: Bearer \($0)\r\n" } ?? ""
        let request =
            "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + authorization
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        _ = request.withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    /// Sends `text` frames until the server stops taking them (the socket's
    /// buffer is full) or `limit` were sent; returns how many went out.
    func flood(_ text: String, limit: Int) -> Int {
        let frame = Self.maskedTextFrame(text)
        var sent = 0
        var offset = 0
        while sent < limit {
            let n = frame.withUnsafeBytes { bytes in
                send(fd, bytes.baseAddress! + offset, frame.count - offset, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
            if n < 0 { break }  // EAGAIN: the server stopped reading
            offset += n
            if offset == frame.count {
                offset = 0
                sent += 1
            }
        }
        return sent
    }

    /// Drops the connection with a TCP reset, as a vanished client would.
    func reset() {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        close(fd)
    }

    /// A client's frames are masked (RFC 6455 §5.3).
    static func maskedTextFrame(_ text: String) -> [UInt8] {
        let payload = Array(text.utf8)
        precondition(payload.count < 126)
        let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
        return [0x81, 0x80 | UInt8(payload.count)] + mask
            + payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
    }
}
