// The client's picture of the server's database: services, included services, characteristics and descriptors.
import OCBCore
import OCBATT

/// What the client has discovered of one server's attribute database (Core v5.4 Vol 3 Part G §2.5.2,
/// attribute caching), kept per connection by ``GATTClient``.
///
/// Shape: services (primary and secondary) sorted by start handle; per service (keyed by its start handle)
/// its include declarations and its characteristics once discovered; per characteristic (keyed by its
/// declaration handle) its descriptors once discovered. A missing key means "not discovered yet", an empty
/// array "discovered, none there". Services never overlap: inserting one drops any cached service whose
/// range overlaps it, together with everything found inside it.
public struct GATTAttributeCache: Hashable, Sendable {
    /// Every known service, sorted by start handle.
    public private(set) var services: [GATTService] = []
    /// Include declarations per service start handle.
    public private(set) var includedServices: [AttributeHandle: [GATTIncludedService]] = [:]
    /// Characteristics per service start handle, sorted by declaration handle.
    public private(set) var characteristics: [AttributeHandle: [GATTCharacteristic]] = [:]
    /// Descriptors per characteristic declaration handle, sorted by handle.
    public private(set) var descriptors: [AttributeHandle: [GATTDescriptor]] = [:]
    /// Parts of whole-database discovery that failed while the rest went on, in the order met (at most one per
    /// part: one per service for includes and for characteristics, one per characteristic for descriptors, so
    /// bounded by the database). A part discovered again successfully, or a service dropped, removes its record.
    public private(set) var discoveryFailures: [GATTDiscoveryFailure] = []

    /// An empty cache.
    public init() {}

    /// The service whose range holds `handle`, if known.
    public func service(containing handle: AttributeHandle) -> GATTService? {
        services.first { $0.handles.contains(handle) }
    }

    /// The service that starts at `startHandle`, if known.
    public func service(startingAt startHandle: AttributeHandle) -> GATTService? {
        services.first { $0.startHandle == startHandle }
    }

    /// Every known service with this UUID, in handle order.
    public func services(uuid: BluetoothUUID) -> [GATTService] { services.filter { $0.uuid == uuid } }

    /// The characteristic whose range (declaration to end handle) holds `handle`, if discovered.
    public func characteristic(containing handle: AttributeHandle) -> GATTCharacteristic? {
        guard let service = service(containing: handle) else { return nil }
        return characteristics[service.startHandle]?.first { $0.declarationHandle <= handle && handle <= $0.endHandle }
    }

    /// The characteristic whose value handle is `valueHandle`, if discovered.
    public func characteristic(valueHandle: AttributeHandle) -> GATTCharacteristic? {
        characteristic(containing: valueHandle).flatMap { $0.valueHandle == valueHandle ? $0 : nil }
    }

    /// The descriptor of `characteristic` with type `uuid` (e.g. the CCCD), if discovered.
    public func descriptor(_ uuid: BluetoothUUID, of characteristic: GATTCharacteristic) -> GATTDescriptor? {
        descriptors[characteristic.declarationHandle]?.first { $0.uuid == uuid }
    }

    /// Adds (or replaces) services; a cached service overlapping a new one is dropped with its contents.
    public mutating func insert(_ newServices: [GATTService]) {
        for service in newServices {
            if let same = services.firstIndex(where: { $0 == service }) {
                services[same] = service
                continue
            }
            // A secondary service seen again as primary (or the reverse) keeps its contents.
            if let index = services.firstIndex(where: { $0.startHandle == service.startHandle && $0.endHandle == service.endHandle && $0.uuid == service.uuid }) {
                services[index].isPrimary = services[index].isPrimary || service.isPrimary
                continue
            }
            remove(overlapping: service.handles)
            services.append(service)
        }
        services.sort { $0.startHandle < $1.startHandle }
    }

    /// Records the include declarations found in the service that starts at `serviceStart`.
    public mutating func setIncludedServices(_ found: [GATTIncludedService], ofServiceAt serviceStart: AttributeHandle) {
        includedServices[serviceStart] = found.sorted { $0.declarationHandle < $1.declarationHandle }
        discoveryFailures.removeAll { $0.part == .includedServices && $0.service.startHandle == serviceStart }
    }

    /// Records that a part of discovery failed (replacing an earlier record of the same part).
    public mutating func recordDiscoveryFailure(_ failure: GATTDiscoveryFailure) {
        discoveryFailures.removeAll { $0.part == failure.part && $0.service.startHandle == failure.service.startHandle }
        discoveryFailures.append(failure)
    }

    /// Records the characteristics found in the service that starts at `serviceStart`; descriptors of
    /// characteristics that are no longer there are dropped.
    public mutating func setCharacteristics(_ found: [GATTCharacteristic], ofServiceAt serviceStart: AttributeHandle) {
        let old = characteristics[serviceStart] ?? []
        for characteristic in old where !found.contains(characteristic) {
            descriptors[characteristic.declarationHandle] = nil
        }
        characteristics[serviceStart] = found.sorted { $0.declarationHandle < $1.declarationHandle }
        discoveryFailures.removeAll { $0.part == .characteristics && $0.service.startHandle == serviceStart }
    }

    /// Records the descriptors found for the characteristic declared at `declarationHandle`.
    public mutating func setDescriptors(_ found: [GATTDescriptor], ofCharacteristicAt declarationHandle: AttributeHandle) {
        descriptors[declarationHandle] = found.sorted { $0.handle < $1.handle }
        discoveryFailures.removeAll { $0.part == .descriptors(characteristicDeclarationHandle: declarationHandle) }
    }

    /// Drops every service that overlaps `range`, with its contents, and returns the dropped services.
    @discardableResult
    public mutating func remove(overlapping range: ClosedRange<AttributeHandle>) -> [GATTService] {
        let dropped = services.filter { $0.handles.overlaps(range) }
        for service in dropped {
            for characteristic in characteristics[service.startHandle] ?? [] {
                descriptors[characteristic.declarationHandle] = nil
            }
            characteristics[service.startHandle] = nil
            includedServices[service.startHandle] = nil
        }
        services.removeAll { $0.handles.overlaps(range) }
        discoveryFailures.removeAll { $0.service.handles.overlaps(range) }
        return dropped
    }

    /// Forgets everything.
    public mutating func removeAll() { self = GATTAttributeCache() }
}
