// swift-tools-version: 6.1
// libFuzzer harnesses for STOLRPC: RPCFuzzer (the line framer and the JSON-RPC decoder) and
// DispatchFuzzer (a real RPCServer, in process, fed lines over a pipe).
// Build and run with fuzz/run.sh; see RELIABILITY.md.
import PackageDescription

let package = Package(
    name: "stol-fuzz",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "stol-engine", path: "..")],
    targets: [
        // Provides each fuzzer's `<Target>_main`, which starts libFuzzer's driver (see entry.c).
        .target(name: "CFuzzEntry"),
        .executableTarget(
            name: "RPCFuzzer",
            dependencies: ["CFuzzEntry", .product(name: "STOLRPC", package: "stol-engine"), .product(name: "STOLJSON", package: "stol-engine")]
        ),
        .executableTarget(
            name: "DispatchFuzzer",
            dependencies: ["CFuzzEntry", .product(name: "STOLRPC", package: "stol-engine"), .product(name: "STOLJSON", package: "stol-engine")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
