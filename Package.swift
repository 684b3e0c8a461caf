// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "stol-engine",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "STOLRPC", targets: ["STOLRPC"]),
        .library(name: "STOLEngine", targets: ["STOLEngine"]),
        .executable(name: "stol-engine", targets: ["stol-engine"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        .systemLibrary(name: "CSodium", pkgConfig: "libsodium", providers: [.apt(["libsodium-dev"])]),
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]),
        .target(
            name: "STOLRPC",
            dependencies: [.product(name: "Logging", package: "swift-log")]
        ),
        .target(
            name: "STOLEngine",
            dependencies: [
                "STOLRPC", "CSodium", "CZlib",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.copy("Resources")]
        ),
        .executableTarget(
            name: "stol-engine",
            dependencies: [
                "STOLRPC", "STOLEngine",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "STOLRPCTests", dependencies: ["STOLRPC"]),
        .testTarget(name: "STOLEngineTests", dependencies: ["STOLEngine", "STOLRPC"]),
        .testTarget(name: "EndToEndTests", dependencies: ["STOLRPC"]),
    ],
    swiftLanguageModes: [.v6]
)
