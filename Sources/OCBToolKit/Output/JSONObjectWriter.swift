// Writes one JSON object's members straight into a line buffer, in the sorted key order JSONValue's text uses.

/// An object written member by member without building a ``JSONValue``: the same bytes as the equal
/// `JSONValue.object(…).text` when members are added in ascending UTF-8 key order (the caller's duty; a debug build
/// checks it). For hot paths (a scan's line per advertisement); everything else builds a ``JSONValue``.
///
/// Shape: `{"key":value,…}`; strings escaped as ``JSONValue`` escapes them (RFC 8259 §7). The object is written at the
/// end of a ``LineBuffer`` (``write(into:members:)``), which is moved in for the duration and back, so the lines of a
/// batch go into one buffer with no copy.
struct JSONObjectWriter: ~Copyable {
    /// The buffer written into, moved in from the caller of ``write(into:members:)`` and moved back when the object ends.
    private var out: LineBuffer
    private var count = 0
    #if DEBUG
    private var lastKey = ""
    #endif

    private init(out: consuming LineBuffer) {
        self.out = out
    }

    /// Appends one object to `buffer`: `{`, the members `members` writes (in ascending key order), `}`.
    static func write(into buffer: inout LineBuffer, members: (inout JSONObjectWriter) -> Void) {
        var writer = JSONObjectWriter(out: buffer)  // the object writes on at the end of the caller's bytes: moved, not copied
        writer.out.append(0x7B)
        members(&writer)
        writer.out.append(0x7D)
        buffer = writer.out
    }

    private mutating func key(_ key: StaticString) {
        #if DEBUG
        let text = key.description
        assert(count == 0 || lastKey.utf8.lexicographicallyPrecedes(text.utf8), "JSON keys out of order: \(lastKey), \(text)")
        lastKey = text
        #endif
        if count > 0 { out.append(0x2C) }
        count += 1
        out.append(0x22)
        out.append(key)  // keys are ours: plain ASCII, nothing to escape
        out.append(0x22)
        out.append(0x3A)
    }

    /// `"key":"value"` (escaped), or `"key":null` for nil.
    mutating func string(_ name: StaticString, _ value: String?) {
        key(name)
        if let value { JSONValue.writeString(value, into: &out) } else { out.append("null") }
    }

    /// `"key":"…"`: a string whose text `text` appends as it is (the caller's duty: nothing in it needs escaping, e.g.
    /// hex digits or a timestamp).
    mutating func plainString(_ name: StaticString, _ text: (inout LineBuffer) -> Void) {
        key(name)
        out.append(0x22)
        text(&out)
        out.append(0x22)
    }

    /// `"key":12`, or `"key":null` for nil.
    mutating func integer<T: BinaryInteger>(_ name: StaticString, _ value: T?) {
        key(name)
        if let value { appendDecimal(Int64(clamping: value), to: &out) } else { out.append("null") }
    }

    /// `"key":true`, or `"key":null` for nil.
    mutating func bool(_ name: StaticString, _ value: Bool?) {
        key(name)
        switch value {
        case true?: out.append("true")
        case false?: out.append("false")
        case nil: out.append("null")
        }
    }

    /// `"key":` and any value.
    mutating func value(_ name: StaticString, _ value: JSONValue) {
        key(name)
        value.write(into: &out)
    }

    /// `"key":["a","b"]`.
    mutating func strings<S: Sequence>(_ name: StaticString, _ values: S) where S.Element == String {
        key(name)
        out.append(0x5B)
        var first = true
        for value in values {
            if !first { out.append(0x2C) }
            first = false
            JSONValue.writeString(value, into: &out)
        }
        out.append(0x5D)
    }

    /// `"key":["a","b"]` of texts given as bytes (escaped like strings): `texts` calls the function it is given once
    /// per element, with the element's UTF-8.
    mutating func texts(_ name: StaticString, _ texts: ((borrowing LineBuffer) -> Void) -> Void) {
        key(name)
        out.append(0x5B)
        var first = true
        texts { text in
            if !first { out.append(0x2C) }
            first = false
            text.withBytes { JSONValue.writeString($0, into: &out) }
        }
        out.append(0x5D)
    }

    /// `"key":[{…},{…}]`: one object per element, its members written by `members` (in ascending key order).
    mutating func objects<S: Sequence>(_ name: StaticString, _ elements: S,
                                       members: (inout JSONObjectWriter, S.Element) -> Void) {
        key(name)
        out.append(0x5B)
        var first = true
        for element in elements {
            if !first { out.append(0x2C) }
            first = false
            Self.write(into: &out) { members(&$0, element) }
        }
        out.append(0x5D)
    }

    /// `"key":{…}`, its members written by `members` (in ascending key order).
    mutating func object(_ name: StaticString, members: (inout JSONObjectWriter) -> Void) {
        key(name)
        Self.write(into: &out, members: members)
    }
}
