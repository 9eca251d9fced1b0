import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The raw TCP connection the socket-level test clients share.
enum LoopbackSocket {
    /// A socket connected to 127.0.0.1:`port`. `configure` sets its options
    /// before it connects (a receive buffer size, a timeout).
    static func connect(port: Int, configure: (Int32) -> Void = { _ in }) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        configure(fd)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            throw POSIXError(.ECONNREFUSED)
        }
        return fd
    }
}
