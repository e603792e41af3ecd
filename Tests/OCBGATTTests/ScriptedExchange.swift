// Test helper: drives a GATTClient through a script of expected request bytes and the response bytes to feed back.
import Testing
import OCBCore
@testable import OCBGATT

/// Parses hex written as in the spec's byte layouts ("10 01 00 ff ff 00 28"); an empty array if not hex.
func hex(_ text: String) -> [UInt8] { Hex.bytes(text) ?? [] }

/// Expects the client to have exactly `request` queued to send (hex), then feeds it `response` (hex).
func exchange(_ client: GATTClient, _ request: String, _ response: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let sent = client.takeOutgoing()
    #expect(sent.map { Hex.string($0, separator: " ") } == [Hex.string(hex(request), separator: " ")], sourceLocation: sourceLocation)
    client.receiveResponse(hex(response))
}

/// Expects nothing more to be sent.
func expectQuiet(_ client: GATTClient, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(client.takeOutgoing().isEmpty, sourceLocation: sourceLocation)
    #expect(!client.isBusy, sourceLocation: sourceLocation)
}

/// Holds the one result a completion delivers.
final class Outcome<Value> {
    var result: Result<Value, GATTError>?
    var completion: (Result<Value, GATTError>) -> Void { { self.result = $0 } }
    var value: Value? { if case .success(let value) = result { value } else { nil } }
    var error: GATTError? { if case .failure(let error) = result { error } else { nil } }
}
