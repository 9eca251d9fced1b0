// swift-tools-version:6.0
// A client generated from Wavelength's OpenAPI document by
// swift-openapi-generator, run against a real server for a few calls
// (e2e/api/test_generated_swift_client.py builds and runs it). A package of
// its own, so the generator and its dependencies never enter the server's
// build graph.
import PackageDescription

let package = Package(
    name: "WavelengthOpenAPIClient",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(url: "https://github.com/apple/swift-openapi-generator.git", exact: "1.14.3"),
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", exact: "1.13.4"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession.git", exact: "1.4.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", exact: "1.8.0"),
    ],
    targets: [
        .executableTarget(
            name: "WavelengthAPICheck",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]
        ),
    ]
)
