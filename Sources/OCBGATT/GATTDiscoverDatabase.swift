// Whole-database discovery: services, then each service's includes, characteristics and descriptors.
import OCBCore
import OCBATT

/// Discovers everything in `range` by running, one after another, the procedures of Core v5.4 Vol 3 Part G:
/// Discover All Primary Services (§4.4.1) over the range; then per service, in handle order, Find Included
/// Services (§4.5.1), Discover All Characteristics of a Service (§4.6.1) and, per characteristic with room
/// for descriptors, Discover All Characteristic Descriptors (§4.7.1). Secondary services named by include
/// declarations and not yet known are added and discovered the same way.
///
/// A service's includes, characteristics or a characteristic's descriptors that end in an error (a malformed response,
/// an ATT error other than Attribute Not Found) fail that part only: it is recorded in
/// ``GATTAttributeCache/discoveryFailures`` (with what it found before the error) and discovery goes on with the next
/// part (a service whose characteristics failed gets no descriptor search). Only a failure of the primary service
/// discovery itself fails the whole procedure; ``found`` then holds the services found up to it.
///
/// The output is the part of the database found, as a ``GATTAttributeCache``.
struct GATTDiscoverDatabase: GATTProcedure {
    let range: ClosedRange<AttributeHandle>
    /// What has been found so far (also after a failure).
    private(set) var found = GATTAttributeCache()

    private enum Stage {
        case services(GATTDiscoverPrimaryServices)
        case includes(Int, GATTFindIncludedServices)
        case characteristics(Int, GATTDiscoverCharacteristics)
        case descriptors(Int, [GATTCharacteristic], Int, GATTDiscoverDescriptors)
    }

    private var stage: Stage
    /// The services to explore, primary first then secondary ones as includes reveal them.
    private var services: [GATTService] = []

    init(range: ClosedRange<AttributeHandle> = 0x0001...0xFFFF) {
        self.range = range
        stage = .services(GATTDiscoverPrimaryServices(range: range))
    }

    mutating func start() -> GATTStep<GATTAttributeCache> {
        guard case .services(var procedure) = stage else { return .failed(.invalidRequest("discovery started twice")) }
        let step = procedure.start()
        stage = .services(procedure)
        return run(Self.sub(step))
    }

    mutating func receive(_ response: GATTResponse) -> GATTStep<GATTAttributeCache> {
        let step: SubStep
        switch stage {
        case .services(var procedure):
            step = Self.sub(procedure.receive(response))
            stage = .services(procedure)
        case .includes(let index, var procedure):
            step = Self.sub(procedure.receive(response))
            stage = .includes(index, procedure)
        case .characteristics(let index, var procedure):
            step = Self.sub(procedure.receive(response))
            stage = .characteristics(index, procedure)
        case .descriptors(let index, let characteristics, let position, var procedure):
            step = Self.sub(procedure.receive(response))
            stage = .descriptors(index, characteristics, position, procedure)
        }
        return run(step)
    }

    /// An unusable response fails the part that sent the request, as an error step of that part would.
    mutating func receiveInvalidResponse(_ error: GATTError) -> GATTStep<GATTAttributeCache> {
        run(.failed(error))
    }

    /// A stage's step without its output (the output is read from the stage's procedure).
    private enum SubStep {
        case send(GATTRequest)
        case done
        case failed(GATTError)
    }

    private static func sub<Output>(_ step: GATTStep<Output>) -> SubStep {
        switch step {
        case .send(let request): .send(request)
        case .finished: .done
        case .failed(let error): .failed(error)
        }
    }

    /// Passes requests on; when a stage is done, records its result and starts the next one.
    private mutating func run(_ first: SubStep) -> GATTStep<GATTAttributeCache> {
        var step = first
        while true {
            switch step {
            case .send(let request):
                return .send(request)
            case .failed(let error):
                record()
                guard let failure = failure(error) else { return .failed(error) }
                found.recordDiscoveryFailure(failure)
                guard let next = startStageAfterFailure() else { return .finished(found) }
                step = next
            case .done:
                record()
                guard let next = startNextStage() else { return .finished(found) }
                step = next
            }
        }
    }

    /// Stores what the current stage found (all of it when done, the part so far after a failure).
    private mutating func record() {
        switch stage {
        case .services(let procedure):
            services = procedure.found
            found.insert(services)
        case .includes(let index, let procedure):
            guard services.indices.contains(index) else { return }
            found.setIncludedServices(procedure.found, ofServiceAt: services[index].startHandle)
            for include in procedure.found where !services.contains(where: { $0.startHandle == include.startHandle }) {
                let secondary = GATTService(uuid: include.uuid, isPrimary: false,
                                            startHandle: include.startHandle, endHandle: include.endHandle)
                services.append(secondary)
                found.insert([secondary])
            }
        case .characteristics(let index, let procedure):
            guard services.indices.contains(index) else { return }
            found.setCharacteristics(procedure.found, ofServiceAt: services[index].startHandle)
        case .descriptors(_, let characteristics, let position, let procedure):
            guard characteristics.indices.contains(position) else { return }
            found.setDescriptors(procedure.found, ofCharacteristicAt: characteristics[position].declarationHandle)
        }
    }

    /// The record of the current part failing with `error`; nil while discovering the primary services (nothing goes
    /// on without them).
    private func failure(_ error: GATTError) -> GATTDiscoveryFailure? {
        switch stage {
        case .services: return nil
        case .includes(let index, _):
            return services.indices.contains(index) ? GATTDiscoveryFailure(service: services[index], part: .includedServices, error: error) : nil
        case .characteristics(let index, _):
            return services.indices.contains(index) ? GATTDiscoveryFailure(service: services[index], part: .characteristics, error: error) : nil
        case .descriptors(let index, let characteristics, let position, _):
            guard services.indices.contains(index), characteristics.indices.contains(position) else { return nil }
            return GATTDiscoveryFailure(service: services[index],
                                        part: .descriptors(characteristicDeclarationHandle: characteristics[position].declarationHandle),
                                        error: error)
        }
    }

    /// After a failed part, the next part: the service's characteristics after its includes, the next characteristic's
    /// descriptors after one's descriptors, the next service after its characteristics (their descriptors unsearched).
    private mutating func startStageAfterFailure() -> SubStep? {
        if case .characteristics(let index, _) = stage { return startIncludes(of: index + 1) }
        return startNextStage()
    }

    /// Moves to the stage after the current one and returns its first step, or nil when discovery is complete.
    private mutating func startNextStage() -> SubStep? {
        switch stage {
        case .services:
            return startIncludes(of: 0)
        case .includes(let index, _):
            guard services.indices.contains(index) else { return nil }
            var procedure = GATTDiscoverCharacteristics(service: services[index])
            let step = procedure.start()
            stage = .characteristics(index, procedure)
            return Self.sub(step)
        case .characteristics(let index, let procedure):
            return startDescriptors(of: index, characteristics: procedure.found, from: 0)
        case .descriptors(let index, let characteristics, let position, _):
            return startDescriptors(of: index, characteristics: characteristics, from: position + 1)
        }
    }

    private mutating func startIncludes(of index: Int) -> SubStep? {
        guard services.indices.contains(index) else { return nil }
        var procedure = GATTFindIncludedServices(service: services[index])
        let step = procedure.start()
        stage = .includes(index, procedure)
        return Self.sub(step)
    }

    /// Starts descriptor discovery at the first characteristic from `position` on that has room for descriptors.
    private mutating func startDescriptors(of index: Int, characteristics: [GATTCharacteristic], from position: Int) -> SubStep? {
        var position = position
        while characteristics.indices.contains(position) {
            if characteristics[position].descriptorHandles != nil {
                var procedure = GATTDiscoverDescriptors(characteristic: characteristics[position])
                let step = procedure.start()
                stage = .descriptors(index, characteristics, position, procedure)
                return Self.sub(step)
            }
            found.setDescriptors([], ofCharacteristicAt: characteristics[position].declarationHandle)
            position += 1
        }
        return startIncludes(of: index + 1)
    }
}
