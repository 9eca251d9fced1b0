import Foundation
import NIOPosix
#if canImport(Glibc)
import Glibc
#endif

/// A client that completes the WebSocket handshake and then goes silent:
/// no pongs, no close. It stands in for a phone that lost its network.
///
/// Its socket calls block, so async code makes and reads one only through
/// `connect(port:path:)` and `closeCode() async`, which run them on
/// `BlockingIO.pool`: a blocked read on Swift's cooperative pool (two threads here)
/// can starve the very server it waits for.
final class SilentSocket: Sendable {
    let fd: Int32

    static func connect(port: Int, path: String) async throws -> SilentSocket {
        try await BlockingIO.pool.runIfActive { try SilentSocket(port: port, path: path) }
    }

    private init(port: Int, path: String) throws {
        // A read waits at most this long, so a close that never comes fails
        // the test with a reason and never holds a pool thread for good.
        fd = try LoopbackSocket.connect(port: port) { fd in
            var timeout = timeval(tv_sec: 90, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }
        let request =
            "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        _ = request.withCString { send(fd, $0, strlen($0), 0) }
        // Read the 101 answer so the server counts us, then never read again.
        var received = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 1)
        while !received.suffix(4).elementsEqual([13, 10, 13, 10]) {
            guard recv(fd, &buffer, 1, 0) == 1 else { throw POSIXError(.ECONNRESET) }
            received.append(buffer[0])
        }
        let head = String(decoding: received, as: UTF8.self)
        guard head.hasPrefix("HTTP/1.1 101") else { throw POSIXError(.EPROTO) }
    }

    deinit {
        close(fd)
    }
}

extension SilentSocket {
    /// Sends one masked frame with any payload, valid or not; `fin: false`
    /// sends a fragment of a longer message.
    func sendFrame(fin: Bool = true, opcode: UInt8, payload: [UInt8]) {
        transmit(Self.header(fin: fin, opcode: opcode, length: payload.count)
            + payload.enumerated().map { $0.element ^ Self.mask[$0.offset % 4] })
    }

    /// Sends one frame without a mask, which a client must never do (RFC 6455 §5.1).
    func sendUnmaskedFrame(opcode: UInt8, payload: [UInt8]) {
        precondition(payload.count < 126)
        transmit([0x80 | opcode, UInt8(payload.count)] + payload)
    }

    /// Sends only a frame's header, announcing `length` bytes that never come.
    func sendHeader(opcode: UInt8, length: Int) {
        transmit(Self.header(fin: true, opcode: opcode, length: length))
    }

    private static let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]

    private static func header(fin: Bool, opcode: UInt8, length: Int) -> [UInt8] {
        var header: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        switch length {
        case ..<126:
            header.append(0x80 | UInt8(length))
        case ...0xFFFF:
            header += [0x80 | 126, UInt8(length >> 8), UInt8(length & 0xFF)]
        default:
            header.append(0x80 | 127)
            header += (0..<8).reversed().map { UInt8((length >> ($0 * 8)) & 0xFF) }
        }
        return header + mask
    }

    private func transmit(_ frame: [UInt8]) {
        var sent = 0
        while sent < frame.count {
            let n = frame[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { return }  // the server closed first
            sent += n
        }
    }

    /// Reads frames until a text frame that contains `needle`, and returns
    /// its text (nil when the connection ends or a close frame comes first).
    func text(containing needle: String) async throws -> String? {
        try await BlockingIO.pool.runIfActive {
            while let (opcode, payload) = self.blockingNextFrame() {
                if opcode == 0x8 { return nil }
                let text = String(decoding: payload, as: UTF8.self)
                if opcode == 0x1, text.contains(needle) { return text }
            }
            return nil
        }
    }

    /// Reads frames until a close frame, and returns its status code (nil
    /// when the connection ends without one).
    func closeCode() async throws -> UInt16? {
        try await BlockingIO.pool.runIfActive { self.blockingCloseCode() }
    }

    private func blockingCloseCode() -> UInt16? {
        while let (opcode, payload) = blockingNextFrame() {
            if opcode == 0x8 {
                return payload.count >= 2 ? UInt16(payload[0]) << 8 | UInt16(payload[1]) : nil
            }
        }
        return nil
    }

    /// The next frame the server sent (unmasked, as servers send), or nil
    /// when the connection ended.
    private func blockingNextFrame() -> (opcode: UInt8, payload: [UInt8])? {
        func read(_ count: Int) -> [UInt8]? {
            var bytes = [UInt8](repeating: 0, count: count)
            var got = 0
            while got < count {
                let n = bytes[got...].withUnsafeMutableBytes { recv(fd, $0.baseAddress, count - got, 0) }
                guard n > 0 else { return nil }
                got += n
            }
            return bytes
        }
        guard let head = read(2) else { return nil }
        var length = Int(head[1] & 0x7F)
        if length == 126 {
            guard let ext = read(2) else { return nil }
            length = Int(ext[0]) << 8 | Int(ext[1])
        } else if length == 127 {
            guard let ext = read(8) else { return nil }
            length = ext.reduce(0) { $0 << 8 | Int($1) }
        }
        guard let payload = read(length) else { return nil }
        return (head[0] & 0x0F, payload)
    }
}
