// The GATT client's handling of Service Changed indications (Core v5.4 Vol 3 Part G §7.1): invalidate, rediscover.
import OCBCore
import OCBATT

extension GATTClient {
    /// The Service Changed characteristic (0x2A05 in the Generic Attribute service 0x1801), if discovered.
    public var serviceChangedCharacteristic: GATTCharacteristic? {
        if let known = serviceChangedLookup { return known }
        var found: GATTCharacteristic?
        for service in cache.services(uuid: GATTAttributeType.genericAttributeService) where found == nil {
            found = cache.characteristics[service.startHandle]?.first(where: { $0.uuid == GATTAttributeType.serviceChanged })
        }
        serviceChangedLookup = .some(found)
        return found
    }

    /// Handles a Service Changed value: Start and End of Affected Attribute Handle Range, 16 bits each
    /// (Vol 3 Part G §7.1). A value of another length invalidates the whole database. A range that is no handle range
    /// (Start 0x0000, which is no attribute handle, Vol 3 Part F §3.2.2, or Start above End) is ignored and reported to
    /// ``diagnosticHandler``: it is no reason to drop what is known. The touched services are rediscovered ahead of
    /// every queued procedure.
    func serviceChangedIndicated(_ value: [UInt8]) {
        var reader = ByteReader(value)
        var range: ClosedRange<AttributeHandle> = 0x0001...0xFFFF
        if value.count == 4, let start = try? reader.readAttributeHandle(), let end = try? reader.readAttributeHandle() {
            guard start != 0, start <= end else {
                diagnosticHandler?("Service Changed with Affected Attribute Handle Range 0x\(Hex.uppercase(start.rawValue, digits: 4))-0x\(Hex.uppercase(end.rawValue, digits: 4)) "
                                   + "ignored: \(start == 0 ? "Start Handle 0x0000 is no attribute handle" : "Start Handle above End Handle")")
                return
            }
            range = start...end
        }
        let invalidated = cache.services.filter { $0.handles.overlaps(range) }
        // Rediscover every handle of every touched service, not only the indicated part of it.
        let low = invalidated.map(\.startHandle).min().map { min($0, range.lowerBound) } ?? range.lowerBound
        let high = invalidated.map(\.endHandle).max().map { max($0, range.upperBound) } ?? range.upperBound
        let affected = low...high
        cache.remove(overlapping: affected)
        for handle in valueHandlers.keys where affected.contains(handle) { valueHandlers[handle] = nil }
        start(GATTDiscoverDatabase(range: affected), ahead: true) { [weak self] procedure, result in
            guard let self else { return }
            self.merge(procedure.found)
            let found = procedure.found.services
            var error: GATTError?
            if case .failure(let failure) = result { error = failure }
            let change = GATTServiceChange(range: range, invalidated: invalidated,
                                           removed: invalidated.filter { !found.contains($0) },
                                           added: found.filter { !invalidated.contains($0) }, error: error)
            self.serviceChangeHandler?(change)
        }
    }
}
