// One part of whole-database discovery that failed (a service's includes or characteristics, or a characteristic's
import OCBATT
// descriptors), kept in the cache so that the rest of the database is still usable.

/// A part of ``GATTClient/discoverDatabase(completion:)`` that ended with an error while the rest went on (Core v5.4
/// Vol 3 Part G §4.5.1, §4.6.1, §4.7.1): the malformed response (named in the error) or the ATT error a server gave
/// for one sub-procedure. What that part found before the error is cached; the part is not retried.
public struct GATTDiscoveryFailure: Hashable, Sendable, CustomStringConvertible {
    /// Which sub-procedure failed.
    public enum Part: Hashable, Sendable {
        /// Find Included Services of the service (§4.5.1).
        case includedServices
        /// Discover All Characteristics of the service (§4.6.1); its descriptors were not searched.
        case characteristics
        /// Discover All Characteristic Descriptors (§4.7.1) of the characteristic declared at this handle.
        case descriptors(characteristicDeclarationHandle: AttributeHandle)
    }

    /// The service the part belongs to.
    public var service: GATTService
    /// The part.
    public var part: Part
    /// Why it failed: ``GATTError/malformed(_:)`` naming the PDU, or ``GATTError/att(_:handle:)``.
    public var error: GATTError

    /// Makes a failure record.
    public init(service: GATTService, part: Part, error: GATTError) {
        self.service = service
        self.part = part
        self.error = error
    }

    /// The handle of what the part was about: the service start, or the characteristic declaration.
    public var handle: AttributeHandle {
        if case .descriptors(let declaration) = part { return declaration }
        return service.startHandle
    }

    /// E.g. `characteristics of service 0x0024-0x0026 1804: malformed Read By Type Response: ...`.
    public var description: String {
        let what = switch part {
        case .includedServices: "included services"
        case .characteristics: "characteristics"
        case .descriptors(let declaration): "descriptors of the characteristic at 0x\(hex16(declaration))"
        }
        return "\(what) of service 0x\(hex16(service.startHandle))-0x\(hex16(service.endHandle)) \(service.uuid): \(error)"
    }
}
