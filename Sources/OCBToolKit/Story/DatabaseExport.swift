// The GATT database a capture reveals, with its peer's advertising data, as the JSON file a clone of the device serves.

import OCBCore
import OCBGATT

/// `cbtool decode FILE --export-db OUT.json`: one peer's database from a ``CaptureStory``, for
/// `scripts/peer --database OUT.json` to serve as a peripheral that advertises like the original.
///
/// Shape (version 1; handles and properties are numbers, UUIDs as cbtool prints them, values lower-case hex):
///
///     {"format":"opencorebluetooth-gatt-database","version":1,"source":"band.btsnoop",
///      "peer":{"address":"42:C9:6B:FA:1A:AD","addressType":"public","name":"Pokemon GO Plus"},
///      "advertising":{"connectable":true,"data":"0201…","scanResponse":"…"},
///      "services":[{"start":1,"end":9,"uuid":"1800","primary":true,"includes":[{"handle":…,"start":…,"end":…,"uuid":…}],
///        "characteristics":[{"handle":2,"valueHandle":3,"uuid":"2A00","properties":2,"value":"4f4342",
///          "descriptors":[{"handle":4,"uuid":"2902","value":null}]}]}]}
///
/// `value` is the last value seen (read, written, notified; at most 512 bytes, Core v5.4 Vol 3 Part F §3.2.9), null
/// when the capture never shows one. `advertising` is null when the peer never advertised in the capture; `addressType`
/// is null when unknown. Characteristics the capture found outside any service are left out (no service to put them in).
public enum DatabaseExport {
    /// Why there is nothing to export.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// The capture shows no GATT database (no discovery of any peer).
        case noDatabase
        /// `--peer` named no peer of the capture; the ones it has are listed.
        case noSuchPeer(String, known: [String])

        public var description: String {
            switch self {
            case .noDatabase: "the capture shows no GATT database (no service discovery of any peer)"
            case let .noSuchPeer(peer, known): "no peer \(peer) in the capture (peers: \(known.joined(separator: ", ")))"
            }
        }
    }

    /// The JSON of the first peer with services (or `peer`'s, by its key). Throws ``Failure``.
    public static func json(_ story: CaptureStory, source: String, peer: String? = nil) throws(Failure) -> JSONValue {
        let candidates = story.peers.filter { !$0.services.isEmpty }
        let chosen: StoryPeer
        if let peer {
            guard let found = candidates.first(where: { $0.key == peer }) else {
                throw .noSuchPeer(peer, known: candidates.map(\.key))
            }
            chosen = found
        } else {
            guard let first = candidates.first else { throw .noDatabase }
            chosen = first
        }
        let connection = story.connections.first { chosen.connections.contains($0.number) && $0.peerAddress != nil }
        let advertiser = story.advertisers.last { $0.address.description == chosen.key }
        func hex(_ bytes: [UInt8]?) -> JSONValue { bytes.map { .string(Hex.string($0)) } ?? .null }
        let advertising: JSONValue = advertiser.map { advertiser in
            ["connectable": .bool(advertiser.isConnectable), "data": hex(advertiser.advertisingData ?? []),
             "scanResponse": hex(advertiser.scanResponse ?? [])]
        } ?? .null
        let services: [JSONValue] = chosen.services.map { node in
            [
                "start": .integer(node.service.startHandle), "end": .integer(node.service.endHandle),
                "uuid": .string(node.service.uuid.description), "primary": .bool(node.service.isPrimary),
                "includes": .array(node.includes.map { include in
                    ["handle": .integer(include.handle), "start": .integer(include.startHandle), "end": .integer(include.endHandle),
                     "uuid": .optional(include.uuid?.description)]
                }),
                "characteristics": .array(node.characteristics.map { characteristic in
                    [
                        "handle": .integer(characteristic.characteristic.declarationHandle),
                        "valueHandle": .integer(characteristic.characteristic.valueHandle),
                        "uuid": .string(characteristic.characteristic.uuid.description),
                        "properties": .integer(characteristic.characteristic.properties.rawValue),
                        "value": hex(characteristic.value),
                        "descriptors": .array(characteristic.descriptors.map { descriptor in
                            ["handle": .integer(descriptor.handle), "uuid": .string(descriptor.descriptor.uuid.description),
                             "value": hex(descriptor.value)]
                        }),
                    ]
                }),
            ]
        }
        let addressType = connection?.peerAddressType?.description ?? advertiser?.addressType.description
        return [
            "format": "opencorebluetooth-gatt-database", "version": 1, "source": .string(source),
            "peer": ["address": .string(chosen.key), "addressType": .optional(addressType),
                     "name": .optional(advertiser?.names.last)],
            "advertising": advertising,
            "services": .array(services),
        ]
    }
}
