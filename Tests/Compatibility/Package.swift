// swift-tools-version: 6.0
// Source-compatibility checks, built by scripts/compat-check (part of scripts/test): a package that depends on
// OpenCoreBluetooth's `CoreBluetooth` product as an app's package would, with
// - AppleIdiom: code in Apple's idiom using every element of Apple's central-role API (Sources/AppleIdiom/API.md lists them);
// - GATT and Bluetooth: targets named as other Swift Bluetooth packages name theirs, in the same graph as ours;
// - CrossPlatform: a target that does not depend on us but writes `#if canImport(CoreBluetooth)`.
import PackageDescription
import Foundation

// A path dependency's identity is its folder's name, whatever the clone is called.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let ocb = root.lastPathComponent

let package = Package(
    name: "OCBCompatibility",
    dependencies: [.package(path: root.path)],
    targets: [
        .target(name: "AppleIdiom", dependencies: [.product(name: "CoreBluetooth", package: ocb)], exclude: ["API.md"]),
        .target(name: "GATT"),
        .target(name: "Bluetooth"),
        .target(name: "GraphUser", dependencies: ["GATT", "Bluetooth", .product(name: "CoreBluetooth", package: ocb)]),
        .target(name: "CrossPlatform"),
        .executableTarget(name: "CrossPlatformCheck", dependencies: ["CrossPlatform", .product(name: "CoreBluetooth", package: ocb)]),
    ],
    swiftLanguageModes: [.v6]
)
