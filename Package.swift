// swift-tools-version: 6.0
// OpenCoreBluetooth: a Bluetooth Low Energy central stack for Linux with Apple's CoreBluetooth API on top.
import PackageDescription

let package = Package(
    name: "OpenCoreBluetooth",
    products: [
        .library(name: "BluetoothCore", targets: ["BluetoothCore"]),
        .library(name: "Advertising", targets: ["Advertising"]),
        .library(name: "HCI", targets: ["HCI"]),
        .library(name: "L2CAP", targets: ["L2CAP"]),
        .library(name: "ATT", targets: ["ATT"]),
        .library(name: "GATT", targets: ["GATT"]),
        .library(name: "Host", targets: ["Host"]),
        .library(name: "CoreBluetooth", targets: ["CoreBluetooth"]),
        .executable(name: "cbtool", targets: ["cbtool"]),
        .executable(name: "Benchmarks", targets: ["Benchmarks"]),
    ],
    targets: [
        .target(name: "BluetoothCore"),
        .target(name: "Advertising", dependencies: ["BluetoothCore"]),
        .target(name: "HCI", dependencies: ["BluetoothCore", "Advertising"]),
        .target(name: "L2CAP", dependencies: ["BluetoothCore", "HCI"]),
        .target(name: "ATT", dependencies: ["BluetoothCore", "L2CAP"]),
        .target(name: "GATT", dependencies: ["BluetoothCore", "ATT"]),
        .systemLibrary(
            name: "CBlueZ",
            pkgConfig: "bluez",
            providers: [.apt(["libbluetooth-dev"])]
        ),
        .target(name: "Host", dependencies: ["BluetoothCore", "Advertising", "HCI", "L2CAP", "ATT", "GATT", "CBlueZ"]),
        .target(name: "CBToolKit", dependencies: ["BluetoothCore", "Advertising", "HCI", "L2CAP", "ATT"]),
        .target(name: "CoreBluetooth", dependencies: ["BluetoothCore", "Advertising", "HCI", "ATT", "GATT", "Host"]),
        .executableTarget(name: "cbtool", dependencies: ["CBToolKit", "CoreBluetooth", "Host", "HCI", "Advertising", "BluetoothCore", "L2CAP", "ATT", "GATT"]),
        .executableTarget(name: "CentralExample", dependencies: ["CoreBluetooth"]),
        .executableTarget(name: "RestorationExample", dependencies: ["CoreBluetooth"]),
        .executableTarget(name: "KernelProbe", dependencies: ["Host", "HCI", "ATT", "GATT", "BluetoothCore"]),
        .executableTarget(name: "Benchmarks", dependencies: ["BluetoothCore", "Advertising", "HCI", "L2CAP", "ATT", "GATT"]),
        .executableTarget(name: "FuzzHarness", dependencies: ["BluetoothCore", "Advertising", "HCI", "L2CAP", "ATT"]),
        .target(name: "PeerSupport", path: "Tests/PeerSupport"),
        .target(name: "FuzzSupport", path: "Tests/FuzzSupport"),
        .testTarget(name: "BluetoothCoreTests", dependencies: ["BluetoothCore"]),
        .testTarget(name: "AdvertisingTests", dependencies: ["FuzzSupport", "Advertising", "BluetoothCore", "HCI"]),
        .testTarget(name: "HCITests", dependencies: ["FuzzSupport", "HCI", "Advertising", "BluetoothCore"]),
        .testTarget(name: "L2CAPTests", dependencies: ["FuzzSupport", "L2CAP", "HCI", "BluetoothCore"]),
        .testTarget(name: "ATTTests", dependencies: ["FuzzSupport", "ATT", "L2CAP", "HCI", "BluetoothCore"]),
        .testTarget(name: "GATTTests", dependencies: ["FuzzSupport", "GATT", "ATT", "BluetoothCore", "PeerSupport", "Host", "HCI"]),
        .testTarget(name: "HostTests", dependencies: ["FuzzSupport", "Host", "GATT", "ATT", "L2CAP", "HCI", "Advertising", "BluetoothCore", "PeerSupport"]),
        .testTarget(name: "CoreBluetoothTests", dependencies: ["CoreBluetooth", "Host", "GATT", "ATT", "HCI", "BluetoothCore", "PeerSupport"]),
        .testTarget(name: "CBToolTests", dependencies: ["FuzzSupport", "CBToolKit", "HCI", "Advertising", "BluetoothCore", "PeerSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
