// Writes one JSON object's members straight into UTF-8 bytes, in the sorted key order JSONValue's text uses.

/// An object written member by member without building a ``JSONValue``: the same bytes as the equal
/// `JSONValue.object(…).text` when members are added in ascending UTF-8 key order (the caller's duty; a debug build
/// checks it). For hot paths (a scan's line per advertisement); everything else builds a ``JSONValue``.
///
/// Shape: `{"key":value,…}`; strings escaped as ``JSONValue`` escapes them (RFC 8259 §7).
struct JSONObjectWriter {
    /// The bytes so far (the object is closed by ``finish()``).
    private(set) var bytes: [UInt8]
    private var count = 0
    #if DEBUG
    private var lastKey = ""
    #endif

    /// Starts an object, reserving `capacity` bytes (a scan's line with a name, manufacturer data and its decoded text
    /// passes 512).
    init(capacity: Int = 1_024) {
        bytes = []
        bytes.reserveCapacity(capacity)
        bytes.append(0x7B)  // {
    }

    private init(opening bytes: consuming [UInt8]) {
        self.bytes = bytes
        self.bytes.append(0x7B)
    }

    private mutating func key(_ key: StaticString) {
        #if DEBUG
        let text = key.description
        assert(count == 0 || lastKey.utf8.lexicographicallyPrecedes(text.utf8), "JSON keys out of order: \(lastKey), \(text)")
        lastKey = text
        #endif
        if count > 0 { bytes.append(0x2C) }
        count += 1
        bytes.append(0x22)
        key.withUTF8Buffer { bytes.append(contentsOf: $0) }  // keys are ours: plain ASCII, nothing to escape
        bytes.append(0x22)
        bytes.append(0x3A)
    }

    /// `"key":"value"` (escaped), or `"key":null` for nil.
    mutating func string(_ name: StaticString, _ value: String?) {
        key(name)
        if let value { JSONValue.writeString(value, into: &bytes) } else { bytes += "null".utf8 }
    }

    /// `"key":12`, or `"key":null` for nil.
    mutating func integer<T: BinaryInteger>(_ name: StaticString, _ value: T?) {
        key(name)
        if let value { Self.decimal(Int64(clamping: value), into: &bytes) } else { bytes += "null".utf8 }
    }

    /// `"key":true`, or `"key":null` for nil.
    mutating func bool(_ name: StaticString, _ value: Bool?) {
        key(name)
        if let value { bytes += (value ? "true" : "false").utf8 } else { bytes += "null".utf8 }
    }

    /// `"key":` and any value.
    mutating func value(_ name: StaticString, _ value: JSONValue) {
        key(name)
        value.write(into: &bytes)
    }

    /// `"key":["a","b"]`.
    mutating func strings<S: Sequence>(_ name: StaticString, _ values: S) where S.Element == String {
        key(name)
        bytes.append(0x5B)
        var first = true
        for value in values {
            if !first { bytes.append(0x2C) }
            first = false
            JSONValue.writeString(value, into: &bytes)
        }
        bytes.append(0x5D)
    }

    /// `"key":[{…},{…}]`: one object per element, its members written by `members` (in ascending key order).
    mutating func objects<S: Sequence>(_ name: StaticString, _ elements: S,
                                       members: (inout JSONObjectWriter, S.Element) -> Void) {
        key(name)
        bytes.append(0x5B)
        var first = true
        for element in elements {
            if !first { bytes.append(0x2C) }
            first = false
            object(of: element, members: members)
        }
        bytes.append(0x5D)
    }

    /// `"key":{…}`, its members written by `members` (in ascending key order).
    mutating func object(_ name: StaticString, members: (inout JSONObjectWriter) -> Void) {
        key(name)
        object(of: (), members: { writer, _ in members(&writer) })
    }

    private mutating func object<T>(of element: T, members: (inout JSONObjectWriter, T) -> Void) {
        var carried: [UInt8] = []
        swap(&carried, &bytes)  // the nested object writes on at the end of this one's bytes, without a copy
        var nested = JSONObjectWriter(opening: consume carried)
        members(&nested, element)
        nested.bytes.append(0x7D)
        swap(&nested.bytes, &bytes)
    }

    /// Appends `value` in decimal, as `String(value)` spells it (a minus sign, no leading zeros), without making the
    /// string (``appendDecimal(_:width:to:)``).
    static func decimal(_ value: Int64, into bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        appendDecimal(value.magnitude, to: &bytes)
    }

    /// Closes the object and gives its text.
    consuming func finish() -> String {
        bytes.append(0x7D)  // }
        return String(decoding: bytes, as: UTF8.self)
    }
}
