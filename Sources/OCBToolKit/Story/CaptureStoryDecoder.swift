// Reads a capture's records in order and builds its story: advertisers, connections, GATT databases, traffic.

import OCBATT
import OCBAdvertising
import OCBCore
import OCBHCI
import OCBL2CAP

/// Builds a ``CaptureStory`` from a ``CaptureFile``. Sans-I/O and total: malformed packets are counted in
/// ``CaptureStory/problems`` and skipped, never trapped on.
///
/// - Advertising: LE Advertising Report, LE Directed Advertising Report and LE Extended Advertising Report
///   (Core v5.4 Vol 4 Part E §7.7.65.2/.11/.13); extended fragment chains are joined by ``ExtendedAdvertisingReassembler``.
///   Per advertiser (address type + address) the last advertising data and the last scan response are kept and
///   merged, and every local name is remembered.
/// - Connections: LE Connection Complete and LE Enhanced Connection Complete v1/v2 (§7.7.65.1/.10/.29) open one,
///   Disconnection Complete (§7.7.5) closes it; a PDU with a defined ATT opcode on a handle never announced opens an
///   unannounced one (a capture started during a connection); other data on such a handle (a controller's vendor
///   diagnostics) is counted as a problem and opens nothing.
/// - ATT (CID 0x0004, Vol 3 Part F): ACL fragments are recombined per direction (``L2CAPRecombiner``); the host is
///   taken as the GATT client: requests it sends are remembered per connection (one outstanding request per bearer,
///   §3.3.2) so each received response is paired with its request: only its answer (its response opcode, or an
///   Error Response naming its opcode, §3.4.1.1) ends it; any other response is counted as a problem and the request
///   waits on for its answer. Read By Group Type responses to 0x2800/0x2801 give
///   services, Find By Type Value responses to 0x2800 services of the requested UUID, Read By Type responses to 0x2803
///   characteristics (Vol 3 Part G §3.3.1) and to 0x2802 includes (§3.2), Find Information responses descriptors
///   (declarations and value handles excluded). Read, Read Blob, Write Request and Write Command sent, queued writes
///   (Prepare Write Requests committed by an answered Execute Write, their value written at its offsets), and
///   notifications and indications received, are counted per attribute handle of the peer.
public struct CaptureStoryDecoder {
    private var advertisers: [String: StoryAdvertiser] = [:]
    private var advertiserOrder: [String] = []
    private var reassembler = ExtendedAdvertisingReassembler()
    private var connections: [StoryConnection] = []
    private var activeConnection: [ConnectionHandle: Int] = [:]
    /// The Client Rx MTU of an Exchange MTU Request waiting for its response, per connection and the side that asked.
    private var clientRxMTU: [MTUKey: Int] = [:]
    private struct MTUKey: Hashable {
        var connection: Int
        var requester: CaptureDirection
    }
    /// Per connection: the Prepare Write Requests the peer queued (answered) since the last Execute Write (at most
    /// ``maximumPreparedWrites``).
    private var preparedWrites: [Int: [ATTPrepareWriteRequest]] = [:]
    /// Per connection: the queue an Execute Write Request took, until its answer.
    private var executingWrites: [Int: [ATTPrepareWriteRequest]] = [:]
    private var recombiners: [CaptureDirection: L2CAPRecombiner] = [.sent: L2CAPRecombiner(), .received: L2CAPRecombiner()]
    private var pendingRequest: [Int: ATTPDU] = [:]
    private var peers: [String: PeerDatabaseBuilder] = [:]
    private var peerOrder: [String] = []
    private var problems: [String: Int] = [:]

    /// Makes an empty decoder.
    public init() {}

    /// The story of a whole capture.
    public static func story(of capture: CaptureFile) -> CaptureStory {
        var decoder = CaptureStoryDecoder()
        for record in capture.records { decoder.add(record) }
        return decoder.finish(format: capture.format, records: capture.records, readError: capture.error)
    }

    /// Adds one record (records must come in file order).
    public mutating func add(_ record: CaptureRecord) {
        guard let packet = record.packet else { return }
        switch packet.type {
        case .event:
            do {
                handle(try HCIEvent(packet: packet), at: record.timestamp)
            } catch {
                problem("malformed HCI event")
            }
        case .acl:
            do {
                let acl = try HCIACLDataPacket(bytes: packet.bytes)
                handle(acl, direction: record.direction, at: record.timestamp)
            } catch {
                problem("malformed ACL packet")
            }
        default:
            break
        }
    }

    /// The story so far. `records` supplies the count and time span.
    public func finish(format: CaptureFormat, records: [CaptureRecord], readError: CaptureError?) -> CaptureStory {
        CaptureStory(format: format, recordCount: records.count, firstTimestamp: records.first?.timestamp,
                     lastTimestamp: records.last?.timestamp,
                     advertisers: advertiserOrder.compactMap { advertisers[$0] }, connections: connections,
                     peers: peerOrder.compactMap { peers[$0]?.build() }, problems: problems, readError: readError)
    }

    private mutating func problem(_ kind: String) { problems[kind, default: 0] += 1 }

    // MARK: HCI events

    private mutating func handle(_ event: HCIEvent, at time: Int64) {
        switch event {
        case let .leMeta(meta):
            switch meta {
            case let .advertisingReport(reports):
                if reports.diagnostic != nil { problem("malformed advertising report") }
                reports.reports.forEach { advertised(HCIAdvertisingReport($0), at: time) }
            case let .directedAdvertisingReport(reports):
                reports.reports.forEach { advertised(HCIAdvertisingReport($0), at: time) }
            case let .extendedAdvertisingReport(reports):
                let output = reassembler.add(reports)
                output.reports.forEach { advertised($0, at: time) }
                if !output.diagnostics.isEmpty { problems["extended advertising chain dropped", default: 0] += output.diagnostics.count }
            case let .connectionComplete(complete), let .enhancedConnectionComplete(complete), let .enhancedConnectionCompleteV2(complete):
                guard complete.status.isSuccess else { return }
                connected(complete, at: time)
            default:
                break
            }
        case let .disconnectionComplete(disconnection):
            guard disconnection.status.isSuccess, let index = activeConnection.removeValue(forKey: disconnection.handle) else { return }
            connections[index].disconnectedAt = time
            connections[index].reason = disconnection.reason
            pendingRequest[index] = nil
            preparedWrites[index] = nil
            executingWrites[index] = nil
            clientRxMTU[MTUKey(connection: index, requester: .sent)] = nil
            clientRxMTU[MTUKey(connection: index, requester: .received)] = nil
            recombiners[.sent]?.reset(handle: disconnection.handle)
            recombiners[.received]?.reset(handle: disconnection.handle)
        default:
            break
        }
    }

    private mutating func advertised(_ report: HCIAdvertisingReport, at time: Int64) {
        let key = "\(report.address) \(report.addressType.rawValue)"
        let data = AdvertisingData(bytes: report.data)
        var advertiser = advertisers[key] ?? StoryAdvertiser(
            address: report.address, addressType: report.addressType, reportCount: 0, rssi: nil, advertisingData: nil,
            scanResponse: nil, names: [], isConnectable: false, isExtended: false, firstSeen: time, lastSeen: time)
        if advertisers[key] == nil { advertiserOrder.append(key) }
        advertiser.reportCount += 1
        advertiser.rssi = report.rssi ?? advertiser.rssi
        advertiser.lastSeen = time
        if report.isScanResponse {
            advertiser.scanResponse = report.data
        } else if !report.data.isEmpty || advertiser.advertisingData == nil {
            advertiser.advertisingData = report.data
        }
        if let name = data.localName, !advertiser.names.contains(name) { advertiser.names.append(name) }
        if report.isConnectable { advertiser.isConnectable = true }
        if report.kind == .extended { advertiser.isExtended = true }
        advertisers[key] = advertiser
    }

    private mutating func connected(_ complete: LEConnectionComplete, at time: Int64) {
        if let stale = activeConnection[complete.handle] {
            pendingRequest[stale] = nil
        }
        let connection = StoryConnection(number: connections.count + 1, handle: complete.handle, peerAddress: complete.peerAddress,
                                         peerAddressType: complete.peerAddressType, isCentral: complete.isCentral,
                                         connectedAt: time, disconnectedAt: nil, reason: nil, isAnnounced: true, attPDUCount: 0)
        activeConnection[complete.handle] = connections.count
        connections.append(connection)
        notePeer(connection)
    }

    private mutating func notePeer(_ connection: StoryConnection) {
        let key = connection.peerKey
        if peers[key] == nil {
            peers[key] = PeerDatabaseBuilder(key: key)
            peerOrder.append(key)
        }
        peers[key]?.connections.append(connection.number)
    }

    // MARK: ACL and ATT

    private mutating func handle(_ acl: HCIACLDataPacket, direction: CaptureDirection, at time: Int64) {
        guard var recombiner = recombiners[direction] else { return }
        let outputs = recombiner.receive(acl)
        recombiners[direction] = recombiner
        for output in outputs {
            switch output {
            case let .frame(frame):
                guard frame.channelID == .attributeProtocol else { continue }
                // On a handle no connection event opened, only a PDU with a defined ATT opcode opens an unannounced
                // connection: vendor diagnostics some controllers send on a handle of their own are not a connection.
                if activeConnection[frame.handle] == nil, frame.payload.first.map({ ATTOpcode(rawValue: $0).kind == .unknown }) ?? true {
                    problem("ACL data that is not ATT on a handle no connection event opened (vendor diagnostics?)")
                    continue
                }
                let index = connectionIndex(for: frame.handle, at: time)
                connections[index].attPDUCount += 1
                if let opcode = frame.payload.first {
                    if direction == .sent { connections[index].sentOpcodes[opcode, default: 0] += 1 }
                    else { connections[index].receivedOpcodes[opcode, default: 0] += 1 }
                }
                do {
                    let pdu = try ATTPDU(bytes: frame.payload)
                    note(pdu, direction: direction, connection: index)
                    handle(pdu, direction: direction, connection: index)
                } catch {
                    problem("undecodable ATT PDU")
                }
            case .dropped:
                problem("L2CAP fragment dropped")
            }
        }
    }

    /// The connection-level story of a PDU either way: the Exchange MTU (a request's Client Rx MTU, then the
    /// response from the other side: ATT_MTU is the smaller, at least 23, Vol 3 Part F §3.4.2.2) and Error Responses.
    private mutating func note(_ pdu: ATTPDU, direction: CaptureDirection, connection index: Int) {
        switch pdu {
        case let .exchangeMTURequest(request):
            clientRxMTU[MTUKey(connection: index, requester: direction)] = Int(request.clientRxMTU)
        case let .exchangeMTUResponse(response):
            // The answer to the request that came the other way (both sides may be a client, each asking once).
            let asker: CaptureDirection = direction == .sent ? .received : .sent
            guard let client = clientRxMTU.removeValue(forKey: MTUKey(connection: index, requester: asker)) else { return }
            guard connections[index].mtuExchanges.count < StoryConnection.maximumMTUExchanges else {
                return problem("Exchange MTU beyond \(StoryConnection.maximumMTUExchanges) on one connection")
            }
            connections[index].mtuExchanges.append(max(23, min(client, Int(response.serverRxMTU))))
        case let .errorResponse(error):
            if error.requestOpcode == .exchangeMTURequest {
                clientRxMTU[MTUKey(connection: index, requester: direction == .sent ? .received : .sent)] = nil
            }
            if let at = connections[index].attErrors.firstIndex(where: {
                $0.direction == direction && $0.requestOpcode == error.requestOpcode && $0.handle == error.attributeHandle && $0.error == error.error
            }) {
                connections[index].attErrors[at].count += 1
            } else if connections[index].attErrors.count < StoryATTError.maximumDistinct {
                connections[index].attErrors.append(StoryATTError(direction: direction, requestOpcode: error.requestOpcode,
                                                                  handle: error.attributeHandle, error: error.error, count: 1))
            } else {
                problem("kinds of ATT error beyond \(StoryATTError.maximumDistinct) on one connection")
            }
        default:
            break
        }
    }

    private mutating func connectionIndex(for handle: ConnectionHandle, at time: Int64) -> Int {
        if let index = activeConnection[handle] { return index }
        let connection = StoryConnection(number: connections.count + 1, handle: handle, peerAddress: nil, peerAddressType: nil,
                                         isCentral: nil, connectedAt: time, disconnectedAt: nil, reason: nil,
                                         isAnnounced: false, attPDUCount: 0)
        activeConnection[handle] = connections.count
        connections.append(connection)
        notePeer(connection)
        return connections.count - 1
    }

    private mutating func handle(_ pdu: ATTPDU, direction: CaptureDirection, connection index: Int) {
        let key = connections[index].peerKey
        guard var peer = peers[key] else { return }
        defer { peers[key] = peer }
        if direction == .sent {
            switch pdu {
            case let .readRequest(request):
                peer.count(request.attributeHandle) { $0.reads += 1 }
            case let .readBlobRequest(request):
                peer.count(request.attributeHandle) { $0.readBlobs += 1 }
            case let .writeRequest(request):
                peer.count(request.attributeHandle) { $0.writeRequests += 1 }
                peer.setValue(request.attributeHandle, request.attributeValue)
            case let .writeCommand(command):
                peer.count(command.attributeHandle) { $0.writeCommands += 1 }
                peer.setValue(command.attributeHandle, command.attributeValue)
            case .executeWriteRequest:
                // The server empties its queue when the execute reaches it (Vol 3 Part F §3.4.6.3): what was queued
                // goes with this request, written only if its Execute Write Response comes.
                executingWrites[index] = preparedWrites.removeValue(forKey: index) ?? []
            default:
                break
            }
            if pdu.isRequest { pendingRequest[index] = pdu }
            return
        }
        switch pdu {
        case let .handleValueNotification(notification):
            peer.count(notification.attributeHandle) { $0.notifications += 1 }
            peer.setValue(notification.attributeHandle, notification.attributeValue)
        case let .handleValueIndication(indication):
            peer.count(indication.attributeHandle) { $0.indications += 1 }
            peer.setValue(indication.attributeHandle, indication.attributeValue)
        case let .multipleHandleValueNotification(multiple):
            for value in multiple.handleLengthValueTupleList {
                peer.count(value.attributeHandle) { $0.notifications += 1 }
                peer.setValue(value.attributeHandle, value.attributeValue)
            }
        default:
            guard pdu.isResponse else { return }
            // Only the answer to the pending request ends it (an Error Response naming its opcode, or its response
            // opcode, Vol 3 Part F §3.3, §3.4.1.1); any other response leaves it pending, so the real answer after
            // it is still read.
            guard let request = pendingRequest[index], pdu.answers(request) else {
                return problem("ATT response that answers no pending request")
            }
            pendingRequest[index] = nil
            StoryResponseReader.apply(pdu, answering: request, to: &peer)
            switch (request, pdu) {
            case let (.prepareWriteRequest(prepared), .prepareWriteResponse):
                // Queued on the server only once it answered (a refused part, e.g. Prepare Queue Full, is not);
                // bounded as the server's queue is.
                if preparedWrites[index, default: []].count < Self.maximumPreparedWrites {
                    preparedWrites[index, default: []].append(prepared)
                } else {
                    problem("prepared writes beyond \(Self.maximumPreparedWrites) in one queue")
                }
            case let (.executeWriteRequest(execute), _):
                executed(execute, answer: pdu, connection: index, peer: &peer)
            default:
                break
            }
        }
    }

    /// The most Prepare Write Requests remembered per connection before an Execute Write (a capture is hostile input).
    static let maximumPreparedWrites = 1_024

    /// An Execute Write Request answered: with flags 0x01 and an Execute Write Response, every queued part is
    /// written in order (its value at its offset) and each handle counts one queued write; a cancel (0x00) or an
    /// Error Response empties the queue without writing (Vol 3 Part F §3.4.6.3).
    private mutating func executed(_ execute: ATTExecuteWriteRequest, answer: ATTPDU, connection index: Int,
                                   peer: inout PeerDatabaseBuilder) {
        let parts = executingWrites.removeValue(forKey: index) ?? []
        guard execute.flags == .writeAllPendingPreparedValues, case .executeWriteResponse = answer else { return }
        var order: [AttributeHandle] = []
        var byHandle: [AttributeHandle: [(offset: Int, value: [UInt8])]] = [:]
        for part in parts {
            if byHandle[part.attributeHandle] == nil { order.append(part.attributeHandle) }
            byHandle[part.attributeHandle, default: []].append((Int(part.valueOffset), part.partAttributeValue))
        }
        for handle in order {
            peer.writeQueued(handle, parts: byHandle[handle] ?? [])
            peer.count(handle) { $0.queuedWrites += 1 }
        }
    }
}

extension ATTPDU {
    /// True for the PDUs a client sends and a response answers (Core v5.4 Vol 3 Part F §3.3: "Request").
    var isRequest: Bool {
        switch self {
        case .exchangeMTURequest, .findInformationRequest, .findByTypeValueRequest, .readByTypeRequest, .readRequest,
             .readBlobRequest, .readMultipleRequest, .readByGroupTypeRequest, .readMultipleVariableRequest, .writeRequest,
             .prepareWriteRequest, .executeWriteRequest:
            true
        default:
            false
        }
    }

    /// True when this response answers `request`: an Error Response whose Request Opcode In Error is the request's
    /// (Core v5.4 Vol 3 Part F §3.4.1.1), or the response opcode of the request (§3.3: each request has one).
    func answers(_ request: ATTPDU) -> Bool {
        if case let .errorResponse(error) = self { return error.requestOpcode == request.opcode }
        return request.opcode.responseOpcode == opcode
    }

    /// True for responses, the error response included.
    var isResponse: Bool {
        switch self {
        case .errorResponse, .exchangeMTUResponse, .findInformationResponse, .findByTypeValueResponse, .readByTypeResponse,
             .readResponse, .readBlobResponse, .readMultipleResponse, .readByGroupTypeResponse, .readMultipleVariableResponse,
             .writeResponse, .prepareWriteResponse, .executeWriteResponse:
            true
        default:
            false
        }
    }
}
