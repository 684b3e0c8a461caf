// swift-tools-version: 6.1
// libFuzzer harness for the line framer and the JSON-RPC decoder (STOLRPC).
// Build and run with fuzz/run.sh; see RELIABILITY.md.
import PackageDescription

let package = Package(
    name: "stol-fuzz",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "stol-engine", path: "..")],
    targets: [
        // Provides `RPCFuzzer_main`, which starts libFuzzer's driver (see entry.c).
        .target(name: "CFuzzEntry"),
        .executableTarget(
            name: "RPCFuzzer",
            dependencies: ["CFuzzEntry", .product(name: "STOLRPC", package: "stol-engine")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
