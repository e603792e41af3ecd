// Running a GATT client over the ATT module's sans-I/O bearer: requests in, responses, values and MTU out.
import OCBCore
import OCBATT

extension GATTClient {
    /// Runs the client over `bearer` until neither has anything more to say, and returns the bearer events the
    /// client does not consume, in order: ``ATTBearerEvent/send(_:)`` (PDUs for CID 0x0004), diagnostics,
    /// ``ATTBearerEvent/closed(_:)`` and the results of requests others queued on the bearer.
    ///
    /// Call it after feeding the bearer (``ATTBearer/receive(_:now:)``, ``ATTBearer/tick(now:)``) and after
    /// calling any client procedure. It keeps the bearer's subscriptions equal to the client's value handlers
    /// (and the Service Changed handle) before any request goes out, so a value arriving before the Write
    /// Response of its CCCD write is delivered (Vol 3 Part G §4.10, §4.11). Exchange MTU goes through the
    /// bearer's offer (``ATTBearer/exchangeMTU(clientRxMTU:now:)``, with the procedure's Client Rx MTU); ATT_MTU follows ``ATTBearerEvent/mtuChanged(_:)``.
    /// A transaction timeout closes the client with ``GATTError/timeout``, any other closure with
    /// ``GATTError/disconnected``.
    public func run(on bearer: inout ATTBearer, now: ContinuousClock.Instant) -> [ATTBearerEvent] {
        var passed: [ATTBearerEvent] = []
        while true {
            if deliveredHandlesChanged {
                // Only after the handlers or the cache changed: recomputing per received value would cost every value.
                deliveredHandlesChanged = false
                let wanted = deliveredHandles
                for handle in bearer.subscribedHandles.subtracting(wanted) { bearer.unsubscribe(handle: handle) }
                for handle in wanted.subtracting(bearer.subscribedHandles) { bearer.subscribe(handle: handle) }
            }
            let pdus = takeOutgoingPDUs()
            for pdu in pdus { submit(pdu, to: &bearer, now: now) }
            let events = bearer.takeEvents()
            if pdus.isEmpty && events.isEmpty { return passed }
            for event in events {
                switch event {
                case .requestCompleted(let id, let result) where id == bearerRequest:
                    bearerRequest = nil
                    switch result {
                    case .success(let pdu):
                        // The bearer decoded the response already: pick its fields, do not encode and parse it again.
                        do throws(GATTError) { receive(try GATTResponse(pdu)) } catch { receiveInvalid(error) }
                    case .failure(.errorResponse(let response)):
                        receive(.error(response.error, handle: response.attributeHandle))
                    case .failure(.timeout): close(.timeout)
                    case .failure(.bearerClosed): close(.disconnected)
                    case .failure(.invalidResponse(let error)):
                        receiveInvalid(.malformed(GATTMalformedResponse(error)))
                    case .failure(.unexpectedResponse(let received, _)):
                        receiveInvalid(.unexpectedResponse(received.description))
                    case .failure(let error):
                        failCurrent(.invalidRequest(error.description))
                    }
                case .value(let handle, let value, _):
                    receiveValue(value, handle: handle)
                case .mtuChanged(let mtu):
                    self.mtu = mtu
                    passed.append(event)
                case .closed(let reason):
                    close(reason == .transactionTimeout ? .timeout : .disconnected)
                    passed.append(event)
                default:
                    passed.append(event)
                }
            }
        }
    }

    /// Hands one PDU of the client to the bearer: requests to its queue (remembering the id), commands at once.
    private func submit(_ pdu: any ATTPDUCoding, to bearer: inout ATTBearer, now: ContinuousClock.Instant) {
        if let exchange = pdu as? ATTExchangeMTURequest {
            bearerRequest = bearer.exchangeMTU(clientRxMTU: exchange.clientRxMTU, now: now)
        } else if let request = pdu as? any ATTRequestPDU {
            bearerRequest = bearer.enqueue(request, now: now)
        } else if let command = pdu as? any ATTCommandPDU {
            do throws(ATTBearerError) {
                try bearer.send(command)
            } catch {
                // A command has no completion; the bearer's closure reaches the client as an event.
            }
        }
    }
}
