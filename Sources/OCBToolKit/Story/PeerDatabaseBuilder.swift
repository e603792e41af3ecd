// Collects what ATT responses reveal of one peer's GATT database as GATT's values, then assembles them into a tree.

import OCBCore
import OCBATT
import OCBGATT

/// Accumulates services, includes, characteristics, descriptors, known values and counters of one peer, in any
/// order (a service or characteristic seen with different handles or types over several connections, e.g. after a
/// firmware change, is kept in each form: the story shows what the capture reveals, not a guess), and builds a ``StoryPeer`` from them (Core v5.4 Vol 3 Part G §3: a service's group runs from its declaration
/// to its end handle; a characteristic's descriptors follow its value handle up to the next declaration).
struct PeerDatabaseBuilder {
    var key: String
    var connections: [Int] = []
    var services: Set<GATTService> = []
    var includes: [AttributeHandle: GATTTreeInclude] = [:]
    /// Characteristics as declared (their end handle is worked out by ``build()``).
    var characteristics: Set<GATTCharacteristic> = []
    var descriptorCandidates: [AttributeHandle: BluetoothUUID] = [:]
    var values: [AttributeHandle: [UInt8]] = [:]
    var counters: [AttributeHandle: AttributeCounter] = [:]

    /// Longest value kept per attribute (the longest ATT value, Vol 3 Part F §3.2.9).
    static let maximumValueLength = 512

    init(key: String) { self.key = key }

    mutating func count(_ handle: AttributeHandle, _ update: (inout AttributeCounter) -> Void) {
        var counter = counters[handle] ?? AttributeCounter(handle: handle)
        update(&counter)
        counters[handle] = counter
    }

    mutating func setValue(_ handle: AttributeHandle, _ value: [UInt8], offset: Int = 0) {
        var current = offset == 0 ? [] : values[handle] ?? []
        if offset == current.count { current += value } else { current = value }
        values[handle] = Array(current.prefix(Self.maximumValueLength))
    }

    /// Writes the parts of one executed queue for `handle` (Core v5.4 Vol 3 Part F §3.4.6.3), in queue order, each
    /// at its offset (a later part overwrites an earlier one where they overlap): a queue with a part at offset 0 is a
    /// new value (a long write); one without continues the known value. Where a byte before the end stays unknown (a
    /// gap, or no known value to continue), the value is not known any more and none is shown.
    mutating func writeQueued(_ handle: AttributeHandle, parts: [(offset: Int, value: [UInt8])]) {
        let longest = Self.maximumValueLength
        let isNewValue = parts.contains { $0.offset == 0 }
        guard isNewValue || values[handle] != nil else { return }  // continues a value the capture never showed
        var buffer: [UInt8?] = isNewValue ? [] : (values[handle] ?? []).map { $0 }
        for part in parts where part.offset < longest {
            let end = min(longest, part.offset + part.value.count)
            if buffer.count < end { buffer += [UInt8?](repeating: nil, count: end - buffer.count) }
            for (index, byte) in part.value.prefix(end - part.offset).enumerated() { buffer[part.offset + index] = byte }
        }
        values[handle] = buffer.contains(nil) ? nil : buffer.compactMap { $0 }
    }

    func build() -> StoryPeer {
        let declarations: Set<BluetoothUUID> = Set((0x2800...0x2803).map { BluetoothUUID(UInt16($0)) })
        let valueHandles = Set(characteristics.map(\.valueHandle))
        let declarationHandles = Set(characteristics.map(\.declarationHandle))
        let sortedServices = servicesWithIncludedOnes().sorted {
            ($0.startHandle, $0.endHandle, $0.uuid) < ($1.startHandle, $1.endHandle, $1.uuid)
        }
        var sortedCharacteristics = ended(characteristics.sorted {
            ($0.declarationHandle, $0.valueHandle, $0.uuid) < ($1.declarationHandle, $1.valueHandle, $1.uuid)
        }, in: sortedServices).map { GATTTreeCharacteristic($0, value: values[$0.valueHandle]) }

        var orphanDescriptors: [GATTTreeDescriptor] = []
        for (handle, uuid) in descriptorCandidates.sorted(by: { $0.key < $1.key })
        where !declarations.contains(uuid) && !valueHandles.contains(handle) && !declarationHandles.contains(handle) {
            let descriptor = GATTTreeDescriptor(GATTDescriptor(handle: handle, uuid: uuid), value: values[handle])
            let ownerDeclaration = sortedCharacteristics.last { $0.declarationHandle < handle }?.declarationHandle
            let owners = sortedCharacteristics.indices.filter {
                sortedCharacteristics[$0].declarationHandle == ownerDeclaration && sortedCharacteristics[$0].valueHandle < handle
            }
            owners.forEach { sortedCharacteristics[$0].descriptors.append(descriptor) }
            if owners.isEmpty { orphanDescriptors.append(descriptor) }
        }

        var tree: [GATTTreeService] = []
        var placed = Set<AttributeHandle>()
        for service in sortedServices {
            let node = GATTTreeService(
                service,
                includes: includes.values.filter { service.handles.contains($0.handle) }.sorted { $0.handle < $1.handle }
                    .map { include in named(include, from: sortedServices) },
                characteristics: sortedCharacteristics.filter {
                    $0.declarationHandle > service.startHandle && $0.declarationHandle <= service.endHandle
                })
            placed.formUnion(node.characteristics.map(\.declarationHandle))
            tree.append(node)
        }
        let orphans = sortedCharacteristics.filter { !placed.contains($0.declarationHandle) }
        return StoryPeer(key: key, connections: connections, services: tree, orphanCharacteristics: orphans,
                         orphanDescriptors: orphanDescriptors, counters: counters.values.sorted { $0.handle < $1.handle })
    }

    /// An include whose declaration carried no UUID (a 128-bit service, Vol 3 Part G §3.2) with the UUID of the service
    /// it names, when the capture revealed that service (by discovery or the client's read of its declaration).
    private func named(_ include: GATTTreeInclude, from services: [GATTService]) -> GATTTreeInclude {
        guard include.uuid == nil,
              let service = services.first(where: { $0.startHandle == include.startHandle && $0.endHandle == include.endHandle })
        else { return include }
        var named = include
        named.uuid = service.uuid
        return named
    }

    /// Each characteristic with its end handle: the handle before the next declaration in its service, else the
    /// service's end (Vol 3 Part G §3.3: its descriptors follow its value up to there); its value handle when no
    /// service is known around it.
    private func ended(_ sorted: [GATTCharacteristic], in services: [GATTService]) -> [GATTCharacteristic] {
        sorted.enumerated().map { index, characteristic in
            var ended = characteristic
            let serviceEnd = services.first { $0.handles.contains(characteristic.declarationHandle) }?.endHandle
            let next = sorted.dropFirst(index + 1).first { $0.declarationHandle > characteristic.declarationHandle }?.declarationHandle
            let limit = [serviceEnd, next.map { $0 - 1 }].compactMap { $0 }.min()
            ended.endHandle = max(characteristic.valueHandle, limit ?? characteristic.valueHandle)
            return ended
        }
    }

    /// The services primary discovery revealed, plus those known only from include declarations (Find Included
    /// Services, Core v5.4 Vol 3 Part G §4.5.1): shown as secondary services, with the UUID from the include
    /// declaration when it is 16-bit, else from the 16-byte value the client read at the service's start handle.
    private func servicesWithIncludedOnes() -> Set<GATTService> {
        let knownStarts = Set(services.map(\.startHandle))
        var all = services
        for include in includes.values where !knownStarts.contains(include.startHandle) {
            let readUUID = values[include.startHandle].flatMap { $0.count == 16 ? BluetoothUUID(littleEndianBytes: $0) : nil }
            guard let uuid = include.uuid ?? readUUID else { continue }
            all.insert(GATTService(uuid: uuid, isPrimary: false, startHandle: include.startHandle, endHandle: include.endHandle))
        }
        return all
    }
}
