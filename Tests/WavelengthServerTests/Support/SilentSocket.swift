import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A client that completes the WebSocket handshake and then goes silent:
/// no pongs, no close. It stands in for a phone that lost its network.
final class SilentSocket {
    private let fd: Int32

    init(port: Int, path: String) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
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
