// The attribute table a recording reveals (services, characteristics, descriptors, values), for answering discovery by kind.

/// What the peer of a recording told about its attributes, learnt from each request and its answer (Core v5.4 Vol 3
/// Part F §3.4, Part G §4), so that a tolerant replay can answer a discovery the other stack made differently (by UUID
/// instead of all services, other ranges) as that server would have.
///
/// Learnt: Read By Group Type responses (services; «Primary Service» 0x2800 and «Secondary Service» 0x2801), Find By
/// Type Value responses (services by UUID), Read By Type «Characteristic» 0x2803 responses, Find Information responses,
/// Read and Read Blob responses (values, joined at their offsets, at most 512 bytes, Part F §3.2.9). Answers are sized
/// for the default ATT_MTU of 23 (valid for any larger one: the client asks again from the next handle). Bounds: one
/// entry per handle (65,535 at most).
struct RecordedAttributes: Sendable {
    struct Service: Sendable {
        var start: UInt16
        var end: UInt16
        /// The UUID as it is on air (2 or 16 bytes, little-endian).
        var uuid: [UInt8]
        var primary: Bool
    }

    struct Characteristic: Sendable {
        var declaration: UInt16
        var properties: UInt8
        var value: UInt16
        var uuid: [UInt8]
    }

    private(set) var services: [UInt16: Service] = [:]
    private(set) var characteristics: [UInt16: Characteristic] = [:]
    private var information: [UInt16: [UInt8]] = [:]
    private var values: [UInt16: [UInt8]] = [:]
    /// The payload room of a response at the default ATT_MTU (23).
    private static let room = 23

    private static func u16(_ bytes: [UInt8], _ at: Int) -> UInt16? {
        guard at >= 0, at + 1 < bytes.count else { return nil }
        return UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8
    }

    private static func le(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }

    /// Learns from `request` and the peer's `response` to it (Error Responses teach nothing).
    mutating func learn(request: [UInt8], response: [UInt8]) {
        guard let asked = request.first, let answered = response.first, answered == asked &+ 1 else { return }
        switch asked {
        case 0x10:  // Read By Group Type: Length, then Length-byte entries: handle, end group handle, UUID
            guard request.count >= 7, response.count >= 2, let type = Self.u16(request, 5), type == 0x2800 || type == 0x2801 else { return }
            let length = Int(response[1])
            guard length == 6 || length == 20 else { return }
            var at = 2
            while at + length <= response.count, let start = Self.u16(response, at), let end = Self.u16(response, at + 2) {
                services[start] = Service(start: start, end: end, uuid: Array(response[(at + 4)..<(at + length)]), primary: type == 0x2800)
                at += length
            }
        case 0x06:  // Find By Type Value «Primary Service» UUID: Found Attribute Handle, Group End Handle pairs
            guard request.count == 9 || request.count == 23, Self.u16(request, 5) == 0x2800 else { return }
            let uuid = Array(request[7...])
            var at = 1
            while let start = Self.u16(response, at), let end = Self.u16(response, at + 2) {
                services[start] = Service(start: start, end: end, uuid: uuid, primary: true)
                at += 4
            }
        case 0x08:  // Read By Type «Characteristic»: Length, then handle, properties, value handle, UUID
            guard request.count == 7, Self.u16(request, 5) == 0x2803, response.count >= 2 else { return }
            let length = Int(response[1])
            guard length == 7 || length == 21 else { return }
            var at = 2
            while at + length <= response.count, let declaration = Self.u16(response, at), let value = Self.u16(response, at + 3) {
                characteristics[declaration] = Characteristic(declaration: declaration, properties: response[at + 2], value: value,
                                                              uuid: Array(response[(at + 5)..<(at + length)]))
                at += length
            }
        case 0x04:  // Find Information: Format 1 (16-bit UUIDs) or 2 (128-bit), then handle and UUID pairs
            guard response.count >= 2, response[1] == 1 || response[1] == 2 else { return }
            let size = response[1] == 1 ? 2 : 16
            var at = 2
            while at + 2 + size <= response.count, let handle = Self.u16(response, at) {
                information[handle] = Array(response[(at + 2)..<(at + 2 + size)])
                at += 2 + size
            }
        case 0x0A:  // Read: the value's first part
            guard let handle = Self.u16(request, 1) else { return }
            values[handle] = Array(response.dropFirst().prefix(512))
        case 0x0C:  // Read Blob at an offset: joins the value's parts
            guard let handle = Self.u16(request, 1), let offset = Self.u16(request, 3), var value = values[handle],
                  Int(offset) == value.count else { return }
            value += response.dropFirst()
            values[handle] = Array(value.prefix(512))
        default:
            return
        }
    }

    /// True when the recording shows an attribute at `handle` (a service, a characteristic declaration or value, or an
    /// attribute Find Information listed).
    func knows(_ handle: UInt16) -> Bool {
        services[handle] != nil || characteristics[handle] != nil || information[handle] != nil
            || characteristics.values.contains { $0.value == handle }
    }

    /// The response the peer would give to `request` from what was learnt; nil when nothing learnt answers it (the
    /// caller answers Attribute Not Found or Invalid Handle).
    func answer(_ request: [UInt8]) -> [UInt8]? {
        guard let opcode = request.first, let start = Self.u16(request, 1) else { return nil }
        let end = Self.u16(request, 3) ?? start
        switch opcode {
        case 0x10:
            guard request.count >= 7, let type = Self.u16(request, 5), type == 0x2800 || type == 0x2801 else { return nil }
            let found = services.values.filter { $0.primary == (type == 0x2800) && $0.start >= start && $0.start <= end }
                .sorted { $0.start < $1.start }
            guard let first = found.first else { return nil }
            let length = 4 + first.uuid.count
            var out: [UInt8] = [0x11, UInt8(length)]
            for service in found where service.uuid.count == first.uuid.count && out.count + length <= Self.room {
                out += Self.le(service.start) + Self.le(service.end) + service.uuid
            }
            return out
        case 0x06:
            guard request.count >= 9, Self.u16(request, 5) == 0x2800 else { return nil }
            let uuid = Array(request[7...])
            let found = services.values.filter { $0.primary && $0.uuid == uuid && $0.start >= start && $0.start <= end }
                .sorted { $0.start < $1.start }
            guard !found.isEmpty else { return nil }
            var out: [UInt8] = [0x07]
            for service in found where out.count + 4 <= Self.room { out += Self.le(service.start) + Self.le(service.end) }
            return out
        case 0x08:
            guard request.count == 7, Self.u16(request, 5) == 0x2803 else { return nil }
            let found = characteristics.values.filter { $0.declaration >= start && $0.declaration <= end }.sorted { $0.declaration < $1.declaration }
            guard let first = found.first else { return nil }
            let length = 5 + first.uuid.count
            var out: [UInt8] = [0x09, UInt8(length)]
            for characteristic in found where characteristic.uuid.count == first.uuid.count && out.count + length <= Self.room {
                out += Self.le(characteristic.declaration) + [characteristic.properties] + Self.le(characteristic.value) + characteristic.uuid
            }
            return out
        case 0x04:
            var table = information
            for service in services.values { table[service.start] = Self.le(service.primary ? 0x2800 : 0x2801) }
            for characteristic in characteristics.values {
                table[characteristic.declaration] = Self.le(0x2803)
                table[characteristic.value] = characteristic.uuid
            }
            let found = table.filter { $0.key >= start && $0.key <= end }.sorted { $0.key < $1.key }
            guard let first = found.first else { return nil }
            let size = first.value.count
            var out: [UInt8] = [0x05, size == 2 ? 1 : 2]
            for (handle, uuid) in found where uuid.count == size && out.count + 2 + size <= Self.room { out += Self.le(handle) + uuid }
            return out
        case 0x0A:
            guard let value = values[start] else { return nil }
            return [0x0B] + value.prefix(Self.room - 1)
        case 0x0C:
            guard let value = values[start], let offset = Self.u16(request, 3), Int(offset) <= value.count else { return nil }
            return [0x0D] + value.dropFirst(Int(offset)).prefix(Self.room - 1)
        default:
            return nil
        }
    }
}
