// swift-tools-version:6.1
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "Wavelength",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "wavelength", targets: ["wavelength"]),
        .executable(name: "wavelength-bench", targets: ["wavelength-bench"]),
        .library(name: "WavelengthCore", targets: ["WavelengthCore"]),
        .library(name: "WavelengthWire", targets: ["WavelengthWire"]),
        .library(name: "WavelengthServer", targets: ["WavelengthServer"]),
        .library(name: "WavelengthClient", targets: ["WavelengthClient"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"6.0.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.8.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.80.0"),
        .package(url: "https://github.com/swiftlang/swift-subprocess.git", from: "1.0.2"),
        .package(url: "https://github.com/apple/swift-system.git", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
    ],
    targets: [
        // FFmpeg's libavformat/libavcodec/libavutil/libswresample from Debian's -dev packages.
        .systemLibrary(
            name: "CFFmpeg",
            pkgConfig: "libavformat",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavutil-dev", "libswresample-dev"])]
        ),
        // libqrencode, for invite QR codes.
        .systemLibrary(
            name: "CQRencode",
            pkgConfig: "libqrencode",
            providers: [.apt(["libqrencode-dev"])]
        ),
        // libpng, for the QR codes' PNGs (its simplified write API only).
        .systemLibrary(
            name: "CPNG",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]
        ),
        // aubio, for each track's tempo and onset rate (the robot DJ's audio features).
        .systemLibrary(
            name: "CAubio",
            pkgConfig: "aubio",
            providers: [.apt(["libaubio-dev"])]
        ),
        // libebur128, for each track's EBU R128 loudness, fed from the one decode.
        .systemLibrary(
            name: "CEbur128",
            pkgConfig: "libebur128",
            providers: [.apt(["libebur128-dev"])]
        ),
        // The true peak's interpolation loop in C with clang's vector
        // extensions: Swift's checked loops and generic SIMD over the 130
        // million products a song needs are many times slower in a debug
        // build. A header only; it links nothing.
        .systemLibrary(name: "CTruePeak"),
        // Chromaprint, for "what's this song?" from any audio.
        .systemLibrary(
            name: "CChromaprint",
            pkgConfig: "libchromaprint",
            providers: [.apt(["libchromaprint-dev"])]
        ),
        // Avahi's client library, for mDNS/DNS-SD on the LAN.
        .systemLibrary(
            name: "CAvahi",
            pkgConfig: "avahi-client",
            providers: [.apt(["libavahi-client-dev"])]
        ),
        // Finding stations on the local network: announcing and browsing
        // `_wavelength._tcp` (Avahi on Linux).
        .target(
            name: "WavelengthNearby",
            dependencies: [
                "WavelengthCore",
                .target(name: "CAvahi", condition: .when(platforms: [.linux])),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // Invite links as QR codes: SVG and PNG.
        .target(name: "WavelengthQR", dependencies: ["CQRencode", "CPNG"], swiftSettings: strict),
        // Pure domain: stations, the timeline, the robot DJ. No I/O.
        .target(name: "WavelengthCore", swiftSettings: strict),
        // Codable messages shared by the server and clients.
        .target(name: "WavelengthWire", dependencies: ["WavelengthCore"], swiftSettings: strict),
        // The music library: scanning folders and reading tags through FFmpeg.
        .target(
            name: "WavelengthLibrary",
            dependencies: [
                "CFFmpeg", "CAubio", "CChromaprint", "CEbur128", "CTruePeak", "WavelengthCore",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Subprocess", package: "swift-subprocess"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: strict
        ),
        // What storage holds and the repository protocols, with no database
        // types: SQLite implements them, PostgreSQL can follow.
        .target(name: "WavelengthStore", dependencies: ["WavelengthCore"], swiftSettings: strict),
        // SQLite through GRDB: stations, timelines, history, the library index.
        .target(
            name: "WavelengthSQLite",
            dependencies: [
                "WavelengthCore", "WavelengthLibrary", "WavelengthStore",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: strict
        ),
        // PostgreSQL through postgres-nio: the store several nodes share.
        .target(
            name: "WavelengthPostgres",
            dependencies: [
                "WavelengthCore", "WavelengthStore",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                // Only for the pool's error type (see PSQLError+Fault.swift).
                .product(name: "_ConnectionPoolModule", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "WavelengthServer",
            dependencies: [
                "WavelengthCore", "WavelengthWire", "WavelengthLibrary", "WavelengthStore", "WavelengthQR", "WavelengthNearby",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HummingbirdAuth", package: "hummingbird-auth"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Subprocess", package: "swift-subprocess"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
            ],
            resources: [.copy("openapi.json")],
            swiftSettings: strict
        ),
        // The Swift client SDK: connect, sync the clock, follow the timeline, play.
        .target(
            name: "WavelengthClient",
            dependencies: [
                "WavelengthWire", "WavelengthNearby",
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Subprocess", package: "swift-subprocess"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "wavelength",
            dependencies: [
                "WavelengthServer", "WavelengthLibrary", "WavelengthSQLite", "WavelengthPostgres", "WavelengthClient",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),
        // The benchmarks that print the README's figures, and the 10,000-socket
        // load generator: a binary of their own, so the shipped one carries no test rigs.
        .executableTarget(
            name: "wavelength-bench",
            dependencies: [
                "WavelengthServer", "WavelengthLibrary", "WavelengthSQLite", "WavelengthClient", "WavelengthTestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "Subprocess", package: "swift-subprocess"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: strict
        ),
        // What tests and benchmarks share and the shipped binary doesn't: the
        // in-memory store and the generated library.
        .target(
            name: "WavelengthTestSupport",
            dependencies: [
                "WavelengthCore", "WavelengthLibrary", "WavelengthStore", "WavelengthPostgres", "CAubio", "CChromaprint",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "WavelengthQRTests",
            dependencies: ["WavelengthQR", "CPNG", .product(name: "Subprocess", package: "swift-subprocess")],
            swiftSettings: strict
        ),
        .testTarget(name: "WavelengthCoreTests", dependencies: ["WavelengthCore"], swiftSettings: strict),
        .testTarget(
            name: "WavelengthLibraryTests",
            dependencies: ["WavelengthLibrary", "WavelengthTestSupport", .product(name: "Subprocess", package: "swift-subprocess")],
            swiftSettings: strict
        ),
        .testTarget(
            name: "WavelengthSQLiteTests",
            dependencies: [
                "WavelengthSQLite", "WavelengthLibrary", "WavelengthCore",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: strict
        ),
        // The storage contract, run against every store (SQLite, in memory,
        // and a real PostgreSQL started for each test), and the PostgreSQL store's own tests.
        .testTarget(
            name: "WavelengthStoreTests",
            dependencies: [
                "WavelengthStore", "WavelengthSQLite", "WavelengthPostgres", "WavelengthTestSupport", "WavelengthLibrary",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "_ConnectionPoolModule", package: "postgres-nio"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "WavelengthClientTests",
            dependencies: [
                "WavelengthClient", "WavelengthServer", "WavelengthLibrary", "WavelengthSQLite",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "WavelengthServerTests",
            dependencies: [
                "WavelengthServer", "WavelengthClient", "WavelengthSQLite", "WavelengthPostgres", "WavelengthQR", "WavelengthTestSupport",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Subprocess", package: "swift-subprocess"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
    ],
    swiftLanguageModes: [.v6]
)
