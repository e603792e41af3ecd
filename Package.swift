// swift-tools-version: 6.0
// OpenCoreBluetooth: a Bluetooth Low Energy central stack for Linux with Apple's CoreBluetooth API on top.
import PackageDescription

let package = Package(
    name: "OpenCoreBluetooth",
    products: [
        .library(name: "OCBCore", targets: ["OCBCore"]),
        .library(name: "OCBAdvertising", targets: ["OCBAdvertising"]),
        .library(name: "OCBHCI", targets: ["OCBHCI"]),
        .library(name: "OCBL2CAP", targets: ["OCBL2CAP"]),
        .library(name: "OCBSMP", targets: ["OCBSMP"]),
        .library(name: "OCBATT", targets: ["OCBATT"]),
        .library(name: "OCBGATT", targets: ["OCBGATT"]),
        .library(name: "OCBHost", targets: ["OCBHost"]),
        .library(name: "CoreBluetooth", targets: ["CoreBluetooth"]),
        .executable(name: "cbtool", targets: ["cbtool"]),
    ],
    targets: [
        .target(name: "OCBCore"),
        .systemLibrary(
            name: "COCBCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        .target(name: "OCBAdvertising", dependencies: ["OCBCore"]),
        .target(name: "OCBHCI", dependencies: ["OCBCore"]),
        .target(name: "OCBL2CAP", dependencies: ["OCBCore", "OCBHCI"]),
        .target(name: "OCBSMP", dependencies: ["OCBCore", "COCBCrypto"]),
        .target(name: "OCBATT", dependencies: ["OCBCore"]),
        .target(name: "OCBGATT", dependencies: ["OCBCore", "OCBATT"]),
        .systemLibrary(
            name: "COCBBlueZ",
            pkgConfig: "bluez",
            providers: [.apt(["libbluetooth-dev"])]
        ),
        .target(name: "OCBHost", dependencies: ["OCBCore", "OCBAdvertising", "OCBHCI", "OCBL2CAP", "OCBSMP", "OCBATT", "OCBGATT", "COCBBlueZ"]),
        .target(name: "OCBToolKit", dependencies: ["OCBCore", "OCBAdvertising", "OCBHCI", "OCBL2CAP", "OCBATT", "OCBGATT"]),
        .target(name: "CoreBluetooth", dependencies: ["OCBCore", "OCBAdvertising", "OCBHCI", "OCBATT", "OCBGATT", "OCBHost", "COCBCrypto"]),
        .executableTarget(name: "cbtool", dependencies: ["OCBToolKit", "CoreBluetooth", "OCBHost", "OCBHCI", "OCBAdvertising", "OCBCore", "OCBATT", "OCBGATT"]),
        .executableTarget(name: "CentralExample", dependencies: ["CoreBluetooth"]),
        .executableTarget(name: "RestorationExample", dependencies: ["CoreBluetooth"]),
        .executableTarget(name: "KernelProbe", dependencies: ["CoreBluetooth", "OCBHost", "OCBHCI", "OCBATT", "OCBGATT", "OCBCore"]),
        .executableTarget(name: "Benchmarks", dependencies: ["OCBCore", "OCBAdvertising", "OCBHCI", "OCBL2CAP", "OCBATT", "OCBHost", "CoreBluetooth", "PeerSupport"]),
        .executableTarget(name: "FuzzHarness", dependencies: ["OCBCore", "OCBAdvertising", "OCBHCI", "OCBL2CAP", "OCBATT", "OCBGATT", "OCBHost"]),
        .target(name: "PeerSupport", path: "Tests/PeerSupport"),
        .target(name: "FuzzSupport", dependencies: ["OCBHCI"], path: "Tests/FuzzSupport"),
        .testTarget(name: "OCBCoreTests", dependencies: ["OCBCore"]),
        .testTarget(name: "OCBAdvertisingTests", dependencies: ["FuzzSupport", "OCBAdvertising", "OCBCore", "OCBHCI"]),
        .testTarget(name: "OCBHCITests", dependencies: ["FuzzSupport", "OCBHCI", "OCBAdvertising", "OCBCore"]),
        .testTarget(name: "OCBL2CAPTests", dependencies: ["FuzzSupport", "OCBL2CAP", "OCBHCI", "OCBCore"]),
        .testTarget(name: "OCBSMPTests", dependencies: ["FuzzSupport", "OCBSMP", "OCBCore"], exclude: ["bumble_crypto.py"]),
        .testTarget(name: "OCBATTTests", dependencies: ["FuzzSupport", "OCBATT", "OCBL2CAP", "OCBHCI", "OCBCore"]),
        .testTarget(name: "OCBGATTTests", dependencies: ["FuzzSupport", "OCBGATT", "OCBATT", "OCBCore", "PeerSupport", "OCBHost", "OCBHCI"]),
        .testTarget(name: "OCBHostTests", dependencies: ["FuzzSupport", "OCBHost", "OCBSMP", "OCBGATT", "OCBHCI", "OCBCore", "PeerSupport"]),
        .testTarget(name: "CoreBluetoothTests", dependencies: ["FuzzSupport", "CoreBluetooth", "OCBAdvertising", "OCBHost", "OCBGATT", "OCBATT", "OCBHCI", "OCBCore", "PeerSupport"]),
        .testTarget(name: "OCBToolKitTests", dependencies: ["FuzzSupport", "OCBToolKit", "OCBHCI", "OCBAdvertising", "OCBCore", "OCBATT", "OCBGATT", "PeerSupport"]),
        .testTarget(name: "cbtoolTests", dependencies: ["cbtool", "CoreBluetooth", "OCBCore"]),
    ],
    swiftLanguageModes: [.v6]
)
