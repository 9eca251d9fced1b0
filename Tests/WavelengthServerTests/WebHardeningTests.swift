import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import WavelengthWire

/// What a browser is told to enforce, and the requests no route should take.
@Suite("Web hardening", .timeLimit(.minutes(5)))
struct WebHardeningTests {
    static func webFolder() throws -> String {
        let folder = NSTemporaryDirectory() + "wavelength-web-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder + "/js", withIntermediateDirectories: true)
        try "<h1>dial</h1>".write(toFile: folder + "/index.html", atomically: true, encoding: .utf8)
        try "self.addEventListener('fetch', () => {});".write(toFile: folder + "/sw.js", atomically: true, encoding: .utf8)
        try "export {};".write(toFile: folder + "/js/app.js", atomically: true, encoding: .utf8)
        return folder
    }

    @Test func everyAnswerCarriesTheSecurityHeaders() async throws {
        let server = try await TestServer.make(webRoot: try Self.webFolder())
        try await server.application().test(.router) { client in
            for uri in ["/", "/js/app.js", "/api/stations/nope", "/api/auth/me"] {
                let response = try await client.execute(uri: uri, method: .get)
                let policy = response.headers[.contentSecurityPolicy] ?? ""
                #expect(policy.contains("script-src 'self'") && policy.contains("frame-ancestors 'none'"), "\(uri)")
                #expect(!policy.contains("unsafe-inline"), "\(uri)")
                #expect(response.headers[.xContentTypeOptions] == "nosniff", "\(uri)")
                #expect(response.headers[HTTPField.Name("Referrer-Policy")!] == "no-referrer", "\(uri)")
            }
            // The answer that carries the CSRF token is never cached.
            let me = try await client.execute(uri: "/api/auth/me", method: .get)
            #expect(me.headers[.cacheControl] == "no-store")
        }
    }

    @Test func aSymlinkOutOfTheWebFolderIsNotFollowed() async throws {
        let folder = try Self.webFolder()
        let outside = NSTemporaryDirectory() + "wavelength-secret-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        try "secret".write(toFile: outside + "/secret.txt", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: folder + "/escape", withDestinationPath: outside)
        try FileManager.default.createSymbolicLink(atPath: folder + "/leak.txt", withDestinationPath: outside + "/secret.txt")
        try FileManager.default.createSymbolicLink(atPath: folder + "/main.js", withDestinationPath: folder + "/js/app.js")
        let server = try await TestServer.make(webRoot: folder)
        try await server.application().test(.router) { client in
            for uri in ["/escape/secret.txt", "/leak.txt"] {
                let response = try await client.execute(uri: uri, method: .get)
                #expect(response.status == .notFound, "\(uri)")
                #expect(!String(buffer: response.body).contains("secret"), "\(uri)")
            }
            // A link that stays inside the folder is served.
            #expect(try await client.execute(uri: "/main.js", method: .get).status == .ok)
            #expect(try await client.execute(uri: "/js/app.js", method: .get).status == .ok)
        }
    }

    @Test func pathsWithANulOrALeadingDoubleSlashAreRefused() async throws {
        let server = try await TestServer.make(webRoot: try Self.webFolder())
        try await server.application().test(.router) { client in
            let nul = try await client.execute(uri: "/sw.js%00.html", method: .get)
            #expect(nul.status == .badRequest)
            #expect(nul.headers[.contentType]?.hasPrefix("text/html") != true)
            #expect(nul.errorCode == "bad_request")
            let double = try await client.execute(uri: "//js", method: .get)
            #expect(double.status == .badRequest)
            #expect(double.headers[.location] == nil)
        }
    }

    @Test func aBodyThatIsNotDeclaredJSONIsRefused() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            let body = ByteBuffer(string: #"{"handle":"nobody","password":"correct horse"}"#)
            for type in ["text/plain", "application/x-www-form-urlencoded", nil] {
                var headers: HTTPFields = [:]
                if let type { headers[.contentType] = type }
                let login = try await client.execute(uri: "/api/auth/login", method: .post, headers: headers, body: body)
                #expect(login.status == .unsupportedMediaType, "\(type ?? "no type")")
                #expect(login.errorCode == "unsupported_media_type")
            }
            let json = try await client.execute(
                uri: "/api/auth/login", method: .post, headers: [.contentType: "application/json; charset=utf-8"], body: body)
            #expect(json.status == .unauthorized)
        }
    }

    @Test func aTextFrameThatIsNotUTF8ClosesWith1007() async throws {
        let server = try await TestServer.make()
        let (station, _) = try server.firstStation()
        try await server.application().test(.live) { client in
            let socket = try await SilentSocket.connect(port: client.port!, path: "/api/stations/\(station)/live")
            socket.sendFrame(opcode: 0x1, payload: [0x7B, 0xC3, 0x28, 0x7D])
            #expect(try await socket.closeCode() == 1007)
        }
    }

    @Test func aFrameOverTheLimitClosesWith1009() async throws {
        let server = try await TestServer.make()
        let (station, _) = try server.firstStation()
        try await server.application().test(.live) { client in
            let socket = try await SilentSocket.connect(port: client.port!, path: "/api/stations/\(station)/live")
            // The header alone is refused: the server never reads the bytes it announces.
            socket.sendHeader(opcode: 0x1, length: WireLimits.maxWebSocketFrameBytes + 1)
            #expect(try await socket.closeCode() == 1009)
        }
    }

    /// Each fragment is within the frame limit; the message they make is not.
    @Test func aFragmentedMessageOverTheLimitClosesWith1009() async throws {
        let server = try await TestServer.make()
        let (station, _) = try server.firstStation()
        try await server.application().test(.live) { client in
            let socket = try await SilentSocket.connect(port: client.port!, path: "/api/stations/\(station)/live")
            let half = [UInt8](repeating: 0x20, count: WireLimits.maxWebSocketFrameBytes / 2 + 1)
            socket.sendFrame(fin: false, opcode: 0x1, payload: half)
            socket.sendFrame(fin: true, opcode: 0x0, payload: half)
            #expect(try await socket.closeCode() == 1009)
        }
    }

    @Test func aFragmentedMessageIsReassembledAndAnswered() async throws {
        let server = try await TestServer.make()
        let (station, _) = try server.firstStation()
        try await server.application().test(.live) { client in
            let socket = try await SilentSocket.connect(port: client.port!, path: "/api/stations/\(station)/live")
            socket.sendFrame(fin: false, opcode: 0x1, payload: Array(#"{"type":"ping","#.utf8))
            socket.sendFrame(fin: false, opcode: 0x0, payload: Array(#""nonce":"#.utf8))
            socket.sendFrame(fin: true, opcode: 0x0, payload: Array(#""in-pieces"}"#.utf8))
            let pong = try await socket.text(containing: #""type":"pong""#)
            #expect(pong?.contains(#""nonce":"in-pieces""#) == true)
        }
    }

    /// Before: the router said 404 for a method the API lacks on a path it has.
    @Test func aMethodAPathDoesNotTakeIs405WithAllow() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            let trace = try await client.execute(uri: "/health", method: .trace)
            #expect(trace.status == .methodNotAllowed)
            #expect(trace.headers[.allow] == "GET")
            #expect(trace.errorCode == "method_not_allowed")
            let deleteDial = try await client.execute(uri: "/api/dial", method: .delete)
            #expect(deleteDial.status == .methodNotAllowed)
            let putStation = try await client.execute(uri: "/api/stations/nope", method: .put)
            #expect(putStation.status == .methodNotAllowed)
            #expect(putStation.headers[.allow] == "GET, PATCH")
            // A documented method still gets the route's own answer, and an
            // unknown path is still 404.
            #expect(try await client.execute(uri: "/api/stations/nope", method: .get).status == .notFound)
            #expect(try await client.execute(uri: "/api/nothing/here", method: .trace).status == .notFound)
        }
    }

    /// Before: a first request NIO could not parse got no answer at all, and
    /// the connection stayed open (the WebSocket upgrade path only logged it).
    @Test func malformedHTTPIsAnsweredAndTheConnectionClosed() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.live) { client in
            let port = client.port!
            let cases: [(String, [UInt8])] = [
                ("not HTTP", Array("GARBAGE\r\n\r\n".utf8)),
                ("a header with no colon", Array("GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n".utf8)),
                ("a Content-Length that is not a number", Array("POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n".utf8)),
            ]
            for (label, bytes) in cases {
                let exchange = try await RawHTTP.send(bytes, port: port)
                #expect(exchange.statusLine.hasPrefix("HTTP/1.1 400"), "\(label): \(exchange.answer)")
                #expect(exchange.body.contains(#""code":"bad_request""#), "\(label): \(exchange.body)")
                #expect(exchange.closed, "\(label): the connection was left open")
            }
            let huge = Array("GET / HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "a", count: 200_000))\r\n\r\n".utf8)
            let tooLarge = try await RawHTTP.send(huge, port: port)
            #expect(tooLarge.statusLine.hasPrefix("HTTP/1.1 431"), "\(tooLarge.answer)")
            #expect(tooLarge.body.contains(#""code":"too_large""#))
            #expect(tooLarge.closed)
            // A good request on a fresh connection is still served.
            let fine = try await RawHTTP.send(Array("GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8), port: port)
            #expect(fine.statusLine.hasPrefix("HTTP/1.1 200"), "\(fine.answer)")
        }
    }
}
