import Foundation
import NIOPosix
#if canImport(Glibc)
import Glibc
#endif

/// A stream player that reads the answer's head and a first byte, then
/// never reads again and never closes. With a tiny receive buffer it is a
/// phone that walked out of Wi-Fi (the server's writes stall soon); with
/// the default one it is a player the test holds open for a while.
///
/// Socket calls block, so they run on `BlockingIO.pool`, never on Swift's
/// cooperative pool (two threads here).
final class StreamPlayerSocket: Sendable {
    let fd: Int32

    static func open(port: Int, path: String, userAgent: String, tinyBuffer: Bool = false) async throws -> StreamPlayerSocket {
        try await BlockingIO.pool.runIfActive {
            try StreamPlayerSocket(port: port, path: path, userAgent: userAgent, tinyBuffer: tinyBuffer)
        }
    }

    private init(port: Int, path: String, userAgent: String, tinyBuffer: Bool) throws {
        fd = try LoopbackSocket.connect(port: port) { fd in
            guard tinyBuffer else { return }
            var size: Int32 = 2048
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        let request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUser-Agent: \(userAgent)\r\n\r\n"
        _ = request.withCString { send(fd, $0, strlen($0), 0) }
        var received = [UInt8]()
        var byte = [UInt8](repeating: 0, count: 1)
        while !received.suffix(4).elementsEqual([13, 10, 13, 10]) {
            guard recv(fd, &byte, 1, 0) == 1 else { throw POSIXError(.ECONNRESET) }
            received.append(byte[0])
        }
        guard String(decoding: received, as: UTF8.self).hasPrefix("HTTP/1.0 200") else { throw POSIXError(.EPROTO) }
        // The first byte of audio: the server counted this player before it.
        guard recv(fd, &byte, 1, 0) == 1 else { throw POSIXError(.ECONNRESET) }
    }

    deinit {
        close(fd)
    }
}
