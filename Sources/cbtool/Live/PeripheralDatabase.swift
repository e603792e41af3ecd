// The whole GATT database of a connected peripheral, discovered (and optionally read) through CoreBluetooth.

import OCBCore
import OCBATT
import OCBGATT
import OCBToolKit
import CoreBluetooth
import Foundation

/// Every service (primary, and secondary ones reached through includes), characteristic and descriptor of a
/// peripheral, with the values read, in handle order.
struct PeripheralDatabase {
    /// Services in handle order (each once, however many services include it).
    var services: [CBService]
    /// Values read, by attribute handle (characteristic value handles and descriptor handles).
    var values: [AttributeHandle: [UInt8]] = [:]
    /// Reads that failed, by attribute handle: the error text.
    var readErrors: [AttributeHandle: String] = [:]
    /// Parts of discovery that failed with the link still up (a service's includes or characteristics, a
    /// characteristic's descriptors), in the order met: "discovering the characteristics of 1804 failed: …". The tree
    /// shows what the other parts found.
    var discoveryErrors: [String] = []

    /// Every characteristic, in handle order.
    var characteristics: [CBCharacteristic] { services.flatMap { $0.characteristics ?? [] } }

    /// Every descriptor, in handle order.
    var descriptors: [CBDescriptor] { characteristics.flatMap { $0.descriptors ?? [] } }

    /// The database as the tree printer takes it: the GATT client's own values, which the CoreBluetooth objects are
    /// views of (each one's `attribute`; the include declarations with their handles), with the values read.
    var tree: [GATTTreeService] {
        services.map { service in
            GATTTreeService(
                service.attribute,
                includes: (service.includeDeclarations ?? []).map(GATTTreeInclude.init),
                characteristics: (service.characteristics ?? []).map { characteristic in
                    GATTTreeCharacteristic(characteristic.attribute, value: values[characteristic.attribute.valueHandle],
                                           descriptors: (characteristic.descriptors ?? []).map { descriptor in
                                               GATTTreeDescriptor(descriptor.attribute, value: values[descriptor.attribute.handle])
                                           })
                })
        }
    }
}

extension CentralSession {
    /// Discovers everything: primary services, included services (following them to secondary services),
    /// characteristics and descriptors (Core v5.4 Vol 3 Part G §4.4.1, §4.5.1, §4.6.1, §4.7.1); then, when
    /// `readValues`, reads every readable characteristic and every descriptor, keeping read errors per handle.
    func discoverDatabase(of peripheral: CBPeripheral, readValues: Bool) throws(ToolError) -> PeripheralDatabase {
        Self.progress("discovering services…")
        try request("discovering services", on: peripheral, start: { peripheral.discoverServices(nil) }) { event -> Result<Void, any Error>? in
            guard case .servicesDiscovered(let error) = event else { return nil }
            return error.map { .failure($0) } ?? .success(())
        }
        var services = peripheral.services ?? []
        var failures: [String] = []
        var index = 0
        while index < services.count {
            let service = services[index]
            index += 1
            try tolerating(&failures, on: peripheral) { () throws(ToolError) in
                try request("discovering the services \(GATTText.uuid(service.uuid.bluetoothUUID)) includes", on: peripheral,
                            start: { peripheral.discoverIncludedServices(nil, for: service) }) { event -> Result<Void, any Error>? in
                    guard case .includedServicesDiscovered(let answered, let error) = event, answered === service else { return nil }
                    return error.map { .failure($0) } ?? .success(())
                }
            }
            for included in service.includedServices ?? []
            where !services.contains(where: { $0.attributeHandles.lowerBound == included.attributeHandles.lowerBound }) {
                services.append(included)
            }
        }
        services.sort { $0.attributeHandles.lowerBound < $1.attributeHandles.lowerBound }

        Self.progress("discovering characteristics…")
        for service in services {
            let found = try tolerating(&failures, on: peripheral) { () throws(ToolError) in
                try request("discovering the characteristics of \(GATTText.uuid(service.uuid.bluetoothUUID))", on: peripheral,
                            start: { peripheral.discoverCharacteristics(nil, for: service) }) { event -> Result<Void, any Error>? in
                    guard case .characteristicsDiscovered(let answered, let error) = event, answered === service else { return nil }
                    return error.map { .failure($0) } ?? .success(())
                }
            }
            guard found else { continue }
            for characteristic in service.characteristics ?? [] {
                try tolerating(&failures, on: peripheral) { () throws(ToolError) in
                    try request("discovering the descriptors of \(AttributeText.name(characteristic))", on: peripheral,
                                start: { peripheral.discoverDescriptors(for: characteristic) }) { event -> Result<Void, any Error>? in
                        guard case .descriptorsDiscovered(let answered, let error) = event, answered === characteristic else { return nil }
                        return error.map { .failure($0) } ?? .success(())
                    }
                }
            }
        }
        var database = PeripheralDatabase(services: services)
        database.discoveryErrors = failures
        guard readValues else { return database }

        Self.progress("reading values…")
        for characteristic in database.characteristics {
            if characteristic.properties.contains(.read) {
                try readInto(&database, handle: characteristic.attribute.valueHandle, on: peripheral) { () throws(ToolError) in
                    try read(characteristic, on: peripheral)
                }
            }
            for descriptor in characteristic.descriptors ?? [] {
                try readInto(&database, handle: descriptor.attribute.handle, on: peripheral) { () throws(ToolError) in
                    try read(descriptor, on: peripheral)
                }
            }
        }
        return database
    }

    /// Runs one read for the database; an ATT error is kept in `readErrors` (the tree goes on without the value).
    /// A failure that leaves the link down (or the session interrupted) ends the discovery.
    private func readInto(_ database: inout PeripheralDatabase, handle: AttributeHandle, on peripheral: CBPeripheral,
                          _ body: () throws(ToolError) -> [UInt8]) throws(ToolError) {
        var failures: [String] = []
        var value: [UInt8]?
        try tolerating(&failures, on: peripheral) { () throws(ToolError) in value = try body() }
        if let value { database.values[handle] = value }
        if let failure = failures.first { database.readErrors[handle] = failure }
    }

    /// Runs one step of the database's discovery or reading: its error is appended to `failures` and the caller goes
    /// on while the link is up; one that leaves it down (or the session interrupted) is thrown. True when it succeeded.
    @discardableResult
    private func tolerating(_ failures: inout [String], on peripheral: CBPeripheral,
                            _ body: () throws(ToolError) -> Void) throws(ToolError) -> Bool {
        do {
            try body()
            return true
        } catch {
            guard peripheral.state == .connected else { throw error }
            failures.append(error.message)
            return false
        }
    }
}
