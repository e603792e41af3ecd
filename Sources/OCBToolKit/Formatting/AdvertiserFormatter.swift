// Formats an advertiser as one readable line and as one JSON object, decoding beacons and naming numbers.

import OCBAdvertising
import OCBCore

/// Text and JSON for an ``AdvertiserSnapshot``.
///
/// Line shape: `C4:7C:8D:6A:3F:21 (random) -67 dBm "Polar H10" connectable; services 180D Heart Rate;
/// Apple, Inc. (0x004C) iBeacon E2C56DB5-… major 1 minor 2 power -59 dBm`. Names come from the assigned numbers
/// (company identifiers, service UUIDs, appearance); iBeacon (Apple manufacturer data 02 15) and Eddystone
/// (service data 0xFEAA: UID, URL, TLM) are decoded; other data is shown as hex.
public enum AdvertiserFormatter {
    /// The decoded advertising data, one item per piece: "flags 0x06 (LE General Discoverable, BR/EDR Not Supported)",
    /// "services 180D Heart Rate", "Apple, Inc. (0x004C) iBeacon …", "tx power 4 dBm".
    public static func items(_ snapshot: AdvertiserSnapshot) -> [String] {
        var items: [String] = []
        forEachItem(snapshot) { items.append($0.text) }
        return items
    }

    /// Writes each of ``items(_:)`` in turn into one buffer, emptied before each, and gives it to `each`: the items'
    /// one writer, with no string made for a piece (a scan's JSON line writes them from there).
    static func forEachItem(_ snapshot: AdvertiserSnapshot, _ each: (borrowing LineBuffer) -> Void) {
        var item = LineBuffer(capacity: 256)
        if let flags = snapshot.flags {
            item.append(contentsOf: flagsText(flags))
            each(item)
        }
        if !snapshot.serviceUUIDs.isEmpty {
            item.removeAll()
            item.append("services ")
            appendUUIDs(snapshot.serviceUUIDs, to: &item)
            each(item)
        }
        if !snapshot.solicitedServiceUUIDs.isEmpty {
            item.removeAll()
            item.append("solicits ")
            appendUUIDs(snapshot.solicitedServiceUUIDs, to: &item)
            each(item)
        }
        for data in snapshot.serviceData {
            item.removeAll()
            if data.uuid == Eddystone.serviceUUID, let frame = Eddystone(serviceData: data.data) {
                item.append(contentsOf: eddystoneText(frame))
            } else {
                item.append("service data ")
                GATTText.appendUUID(data.uuid, to: &item)
                item.append(": ")
                GATTText.appendBytes(data.data, to: &item)
            }
            each(item)
        }
        for manufacturer in snapshot.manufacturerData {
            item.removeAll()
            GATTText.appendCompany(manufacturer.companyID, to: &item)
            if let beacon = IBeacon(manufacturer) {
                item.append(" iBeacon ")
                item.append(contentsOf: beacon.proximityUUID.uuidString128)
                item.append(" major ")
                appendDecimal(Int64(beacon.major), to: &item)
                item.append(" minor ")
                appendDecimal(Int64(beacon.minor), to: &item)
                item.append(" power ")
                appendDecimal(Int64(beacon.measuredPower), to: &item)
                item.append(" dBm")
            } else {
                item.append(": ")
                GATTText.appendBytes(manufacturer.payload, to: &item)
            }
            each(item)
        }
        if let power = snapshot.txPowerLevel {
            item.removeAll()
            item.append("tx power ")
            appendDecimal(Int64(power), to: &item)
            item.append(" dBm")
            each(item)
        }
        if let appearance = snapshot.appearance {
            item.removeAll()
            item.append("appearance ")
            if let name = AssignedNumbers.appearanceName(appearance) { item.append(contentsOf: name) } else { GATTText.appendHandle(appearance, to: &item) }
            each(item)
        }
    }

    /// "180D Heart Rate, 180F Battery Service": UUIDs with their assigned names, comma-separated.
    private static func appendUUIDs(_ uuids: [BluetoothUUID], to out: inout LineBuffer) {
        for (index, uuid) in uuids.enumerated() {
            if index > 0 { out.append(", ") }
            GATTText.appendUUID(uuid, to: &out)
        }
    }

    /// The whole line (see the type's description).
    public static func line(_ snapshot: AdvertiserSnapshot) -> String {
        var head = snapshot.address
        if let type = snapshot.addressType { head += " (\(type))" }
        if let rssi = snapshot.rssi { head += " \(rssi) dBm" }
        if let name = snapshot.name { head += " \"\(name)\"" }
        if let connectable = snapshot.isConnectable { head += connectable ? " connectable" : " non-connectable" }
        if snapshot.isTruncated { head += " (truncated: the controller received only part of it)" }
        forEachItem(snapshot) { item in
            head += "; "
            head += item.text
        }
        return head
    }

    /// The JSON object: `{"type":"advertiser","address":…,"addressType":…,"rssi":…,"name":…,"connectable":…,
    /// "services":["180D"],"manufacturerData":[{"company":76,"companyName":"Apple, Inc.","data":"0215…"}],
    /// "serviceData":[{"uuid":"FEAA","data":"…"}],"iBeacon":{…},"eddystone":"…","txPower":…,"appearance":…,
    /// "decoded":[items]}` plus `extra` members; `"truncated":true` only for a truncated advertisement.
    public static func json(_ snapshot: AdvertiserSnapshot, extra: [String: JSONValue] = [:]) -> JSONValue {
        var object = extra
        object["type"] = "advertiser"
        object["address"] = .string(snapshot.address)
        object["addressType"] = .optional(snapshot.addressType)
        object["rssi"] = snapshot.rssi.map { .integer($0) } ?? .null
        object["name"] = .optional(snapshot.name)
        object["connectable"] = snapshot.isConnectable.map { .bool($0) } ?? .null
        if snapshot.isTruncated { object["truncated"] = .bool(true) }
        object["services"] = .array(snapshot.serviceUUIDs.map { .string($0.description) })
        object["manufacturerData"] = .array(snapshot.manufacturerData.map { data in
            ["company": .integer(data.companyID), "companyName": .optional(data.companyName), "data": .string(Hex.string(data.payload))]
        })
        object["serviceData"] = .array(snapshot.serviceData.map { data in
            ["uuid": .string(data.uuid.description), "data": .string(Hex.string(data.data))]
        })
        if let beacon = snapshot.manufacturerData.lazy.compactMap(IBeacon.init).first {
            object["iBeacon"] = ["uuid": .string(beacon.proximityUUID.uuidString128), "major": .integer(beacon.major),
                                 "minor": .integer(beacon.minor), "measuredPower": .integer(beacon.measuredPower)]
        }
        if let frame = snapshot.serviceData.lazy.filter({ $0.uuid == Eddystone.serviceUUID }).compactMap({ Eddystone(serviceData: $0.data) }).first {
            object["eddystone"] = .string(eddystoneText(frame))
        }
        object["txPower"] = snapshot.txPowerLevel.map { .integer($0) } ?? .null
        object["appearance"] = snapshot.appearance.map { .integer($0) } ?? .null
        object["decoded"] = .array(items(snapshot).map { .string($0) })
        return .object(object)
    }

    /// The text of ``json(_:extra:)`` with `"time": time` (e.g. an ``ISOTime`` text), written straight into bytes without
    /// building the object: byte for byte the same line.
    public static func jsonLine(_ snapshot: AdvertiserSnapshot, time: String) -> String {
        var out = LineBuffer(capacity: 1_024)
        write(snapshot, into: &out) { $0.string("time", time) }
        return out.text
    }

    /// Appends the text of ``jsonLine(_:time:)`` with the time `microseconds` after 1970 (``ISOTime``) to `out`, making
    /// no string (`cbtool scan --json` writes one per advertisement into the batch of lines it holds).
    public static func writeJSONLine(_ snapshot: AdvertiserSnapshot, microsecondsSince1970 microseconds: Int64,
                                     into out: inout LineBuffer) {
        write(snapshot, into: &out) { object in
            object.plainString("time") { ISOTime.write(microsecondsSince1970: microseconds, into: &$0) }
        }
    }

    /// The object of ``jsonLine(_:time:)``, its `"time"` member written by `time`.
    private static func write(_ snapshot: AdvertiserSnapshot, into out: inout LineBuffer,
                              time: (inout JSONObjectWriter) -> Void) {
        JSONObjectWriter.write(into: &out) { object in
            object.string("address", snapshot.address)
            object.string("addressType", snapshot.addressType)
            object.integer("appearance", snapshot.appearance)
            object.bool("connectable", snapshot.isConnectable)
            object.texts("decoded") { each in forEachItem(snapshot, each) }
            if let frame = snapshot.serviceData.lazy.filter({ $0.uuid == Eddystone.serviceUUID }).compactMap({ Eddystone(serviceData: $0.data) }).first {
                object.string("eddystone", eddystoneText(frame))
            }
            if let beacon = snapshot.manufacturerData.lazy.compactMap(IBeacon.init).first {
                object.object("iBeacon") { member in
                    member.integer("major", beacon.major)
                    member.integer("measuredPower", beacon.measuredPower)
                    member.integer("minor", beacon.minor)
                    member.string("uuid", beacon.proximityUUID.uuidString128)
                }
            }
            object.objects("manufacturerData", snapshot.manufacturerData) { member, data in
                member.integer("company", data.companyID)
                member.string("companyName", data.companyName)
                member.plainString("data") { $0.appendHex(data.payload) }
            }
            object.string("name", snapshot.name)
            object.integer("rssi", snapshot.rssi)
            object.objects("serviceData", snapshot.serviceData) { member, data in
                member.plainString("data") { $0.appendHex(data.data) }
                member.string("uuid", data.uuid.description)
            }
            object.strings("services", snapshot.serviceUUIDs.lazy.map(\.description))
            time(&object)
            if snapshot.isTruncated { object.bool("truncated", true) }
            object.integer("txPower", snapshot.txPowerLevel)
            object.string("type", "advertiser")
        }
    }

    /// "flags 0x06 (LE General Discoverable, BR/EDR Not Supported)" (Supplement Part A §1.3).
    public static func flagsText(_ flags: UInt8) -> String {
        let names = ["LE Limited Discoverable", "LE General Discoverable", "BR/EDR Not Supported",
                     "LE and BR/EDR Controller", "LE and BR/EDR Host"]
        let set = names.enumerated().filter { flags & (1 << $0.offset) != 0 }.map(\.element)
        let digits = String(flags, radix: 16, uppercase: true)
        return "flags 0x" + (digits.count == 1 ? "0" : "") + digits + (set.isEmpty ? "" : " (\(set.joined(separator: ", ")))")
    }

    /// "Eddystone-UID namespace … instance … ranging -20 dBm", "Eddystone-URL https://example.com tx -20 dBm",
    /// "Eddystone-TLM battery 3000 mV, 21.5 °C, 1000 frames, uptime 3600 s".
    public static func eddystoneText(_ frame: Eddystone) -> String {
        switch frame {
        case let .uid(ranging, namespace, instance):
            return "Eddystone-UID namespace \(Hex.string(namespace)) instance \(Hex.string(instance)) ranging \(ranging) dBm"
        case let .url(power, url):
            return "Eddystone-URL \(url) tx \(power) dBm"
        case let .tlm(tlm):
            var parts = ["battery \(tlm.batteryMillivolts) mV"]
            if let celsius = tlm.temperatureCelsius { parts.append("\(PresentationFormat.number(celsius)) °C") }
            parts.append("\(tlm.advertisingCount) frames")
            parts.append("uptime \(tlm.uptimeDeciseconds / 10) s")
            return "Eddystone-TLM " + parts.joined(separator: ", ")
        }
    }
}
