import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WavelengthServer
import WavelengthWire

@Suite("OpenAPI document")
struct OpenAPITests {
    /// Every route the router knows is in the document, and nothing else.
    @Test func documentMatchesTheRoutes() async throws {
        let server = try await TestServer.make()
        let router = try buildRouter(server.services)
        let routes = Set(router.routes.map { "\($0.method.rawValue) \(Self.normalize($0.path.description))" })

        try await server.application().test(.router) { client in
            let response = try await client.execute(uri: "/openapi.json", method: .get)
            #expect(response.status == .ok)
            let document = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
            #expect((document["openapi"] as? String)?.hasPrefix("3.") == true)
            let paths = try #require(document["paths"] as? [String: [String: Any]])
            let methods = ["get", "post", "put", "patch", "delete", "head"]
            let documented = Set(
                paths.flatMap { path, operations in
                    operations.keys.filter(methods.contains).map { "\($0.uppercased()) \(Self.normalize(path))" }
                })
            #expect(routes == documented, "only in router: \(routes.subtracting(documented)); only in document: \(documented.subtracting(routes))")
        }
    }

    /// The document lists exactly the error codes the server can send.
    @Test func errorCodesMatchTheEnum() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            let response = try await client.execute(uri: "/openapi.json", method: .get)
            let document = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
            let components = try #require(document["components"] as? [String: Any])
            let schemas = try #require(components["schemas"] as? [String: Any])
            let body = try #require(schemas["ErrorBody"] as? [String: Any])
            let error = try #require((body["properties"] as? [String: Any])?["error"] as? [String: Any])
            let code = try #require((error["properties"] as? [String: Any])?["code"] as? [String: Any])
            let documented = Set(try #require(code["enum"] as? [String]))
            #expect(documented == Set(ErrorCode.allCases.map(\.rawValue)))
        }
    }

    /// `{id}` and `:id` both become `{}` so the two spellings compare equal.
    static func normalize(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).map { part in
            part.hasPrefix(":") || (part.hasPrefix("{") && part.hasSuffix("}")) ? "{}" : String(part)
        }.joined(separator: "/")
    }
}

@Suite("Static web files")
struct StaticFileTests {
    @Test func theWebFolderIsServed() async throws {
        let folder = NSTemporaryDirectory() + "wavelength-web-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "<h1>hello dial</h1>".write(toFile: folder + "/index.html", atomically: true, encoding: .utf8)
        let server = try await TestServer.make(webRoot: folder)
        try await server.application().test(.router) { client in
            let page = try await client.execute(uri: "/", method: .get)
            #expect(page.status == .ok)
            #expect(String(buffer: page.body).contains("hello dial"))
            let escape = try await client.execute(uri: "/../../etc/passwd", method: .get)
            #expect(escape.status == .notFound || escape.status == .badRequest)
            #expect(!String(buffer: escape.body).contains("root:"))
        }
    }
}
