// swift-tools-version: 6.1
import PackageDescription

// zlib as the Clang module `CZlib`. On Linux ZIPFoundation ships a module of that very name (its
// `CZLib` target) and two modules of one name cannot coexist, so there the engine imports
// ZIPFoundation's; where ZIPFoundation uses Apple's Compression instead, the engine has its own.
#if canImport(Compression)
let zlibTargets: [Target] = [.systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])])]
let zlibDependencies: [Target.Dependency] = ["CZlib"]
#else
let zlibTargets: [Target] = []
let zlibDependencies: [Target.Dependency] = []
#endif

let package = Package(
    name: "stol-engine",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "STOLSupport", targets: ["STOLSupport"]),
        .library(name: "STOLJSON", targets: ["STOLJSON"]),
        .library(name: "STOLProtocol", targets: ["STOLProtocol"]),
        .library(name: "STOLRPC", targets: ["STOLRPC"]),
        .library(name: "STOLClient", targets: ["STOLClient"]),
        .library(name: "STOLInProcess", targets: ["STOLInProcess"]),
        .library(name: "STOLEngine", targets: ["STOLEngine"]),
        .library(name: "STOLPipeline", targets: ["STOLPipeline"]),
        .executable(name: "stol-engine", targets: ["stol-engine"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
    ],
    targets: zlibTargets + [
        .systemLibrary(name: "CSodium", pkgConfig: "libsodium", providers: [.apt(["libsodium-dev"])]),
        // `sqlite3_config`, which is variadic and so out of Swift's reach.
        .target(name: "CSQLiteSettings", linkerSettings: [.linkedLibrary("sqlite3")]),
        // The lock type and the one way off the cooperative pool, shared by every target.
        .target(name: "STOLSupport"),
        // JSON values, the strict parser, the one-line writer, `JSONWritable`: no dependencies.
        .target(name: "STOLJSON"),
        // The public protocol, shared by the engine and its clients (as swift-tools-protocols'
        // LanguageServerProtocol is): the method contracts, the wire types, notifications and
        // errors. Its base (`RPCRequest`, `MethodOrdering`, `RPCError`) is all STOLRPC uses of it.
        .target(name: "STOLProtocol", dependencies: ["STOLJSON"]),
        .target(
            name: "STOLRPC",
            dependencies: ["STOLSupport", "STOLJSON", "STOLProtocol", .product(name: "Logging", package: "swift-log")]
        ),
        .target(
            name: "STOLEngine",
            dependencies: [
                "STOLSupport", "STOLJSON", "STOLProtocol", "STOLRPC", "CSodium", "CSQLiteSettings",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ] + zlibDependencies,
            resources: [.copy("Resources")]
        ),
        // The Swift client: typed calls over a spawned engine (Foundation's Process), notifications
        // as streams, and the specification's §10 service protocols. Links no GRDB and no engine.
        .target(name: "STOLClient", dependencies: ["STOLSupport", "STOLJSON", "STOLProtocol", "STOLRPC"]),
        // The engine inside the app's process, for STOLClient where spawning is not allowed (iOS).
        .target(
            name: "STOLInProcess",
            dependencies: ["STOLSupport", "STOLClient", "STOLRPC", "STOLEngine", .product(name: "Logging", package: "swift-log")]),
        // The Model Context Protocol front end (`stol-engine mcp`): read-only tools over the
        // engine's typed method table.
        .target(name: "STOLMCP", dependencies: ["STOLJSON", "STOLProtocol", "STOLRPC", "STOLEngine"]),
        // The offline build pipeline (checklist importers, the database builder, .stol and media
        // packing): linked by the executable's build-db and pack commands, not by the serving library.
        .target(
            name: "STOLPipeline",
            dependencies: [
                "STOLSupport", "STOLProtocol", "STOLEngine", "CSodium",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ] + zlibDependencies
        ),
        .executableTarget(
            name: "stol-engine",
            dependencies: [
                "STOLSupport", "STOLJSON", "STOLProtocol", "STOLRPC", "STOLEngine", "STOLMCP", "STOLPipeline",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Bench only: STOLClient's cost beside a hand-written line loop on the same pipes
        // (`bench/run.py --only client`). Not a product: nothing ships it.
        .executableTarget(
            name: "stol-client-bench",
            dependencies: ["STOLClient", "STOLInProcess", "STOLProtocol", .product(name: "Logging", package: "swift-log")]),
        // What the test targets share: the one pipe reader, the one seeded generator, the binary
        // and its fixtures, and the in-process client.
        .target(
            name: "STOLTestSupport",
            dependencies: [
                "STOLSupport", "STOLJSON", "STOLProtocol", "STOLRPC", "STOLClient", "STOLInProcess", "STOLEngine", "STOLPipeline",
                .product(name: "Logging", package: "swift-log"),
            ]),
        .testTarget(name: "STOLJSONTests", dependencies: ["STOLJSON"]),
        .testTarget(name: "STOLClientTests", dependencies: ["STOLClient", "STOLInProcess", "STOLProtocol", "STOLJSON", "STOLTestSupport"]),
        .testTarget(name: "STOLRPCTests", dependencies: ["STOLRPC", "STOLJSON", "STOLProtocol", "STOLSupport", "STOLTestSupport"]),
        .testTarget(
            name: "STOLEngineTests",
            dependencies: ["STOLEngine", "STOLPipeline", "STOLRPC", "STOLJSON", "STOLProtocol", "STOLSupport", "STOLClient", "STOLTestSupport", .product(name: "ZIPFoundation", package: "ZIPFoundation")]),
        .testTarget(
            name: "STOLPipelineTests",
            dependencies: [
                "STOLPipeline", "STOLEngine", "STOLProtocol", "STOLJSON", "STOLSupport", "STOLTestSupport",
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ]),
        .testTarget(name: "STOLMCPTests", dependencies: ["STOLMCP", "STOLEngine", "STOLJSON", "STOLTestSupport"]),
        .testTarget(name: "EndToEndTests", dependencies: ["STOLRPC", "STOLJSON", "STOLProtocol", "STOLMCP", "STOLSupport", "STOLTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
