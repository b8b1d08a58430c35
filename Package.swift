// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "restoration-tool",
    // Int128 in the public API and Synchronization's Mutex set the minimums: the releases of
    // 2024 on every Apple platform. Linux has both.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "RestorationKit", targets: ["RestorationKit"]),
        .executable(name: "restoration-tool", targets: ["restoration-tool"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // AES-128-CBC for macOS window state (CryptoExtras) and SHA-256 for scan (Crypto).
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
    ],
    targets: [
        // libplist is the second reader the tests compare ours with, binary and XML (the tool
        // reads both formats itself; see PropertyList/XMLPropertyListReader.swift for why).
        .systemLibrary(
            name: "CPlist",
            pkgConfig: "libplist-2.0",
            providers: [.apt(["libplist-dev"]), .brew(["libplist"])]
        ),
        .target(
            name: "RestorationKit",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ]
        ),
        .executableTarget(
            name: "restoration-tool",
            dependencies: [
                "RestorationKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "RestorationKitTests",
            dependencies: ["RestorationKit", "CPlist", .product(name: "CryptoExtras", package: "swift-crypto")]
        ),
        .testTarget(
            name: "RestorationToolTests",
            // The tests run the built executable; depending on it makes `swift test` build it.
            dependencies: ["RestorationKit", "restoration-tool"],
            exclude: ["Golden"]
        ),
    ]
)
