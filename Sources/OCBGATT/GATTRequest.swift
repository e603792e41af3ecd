// The ATT requests a GATT procedure issues, by the spec's parameters, before they become ATT PDUs.
import OCBCore
import OCBATT

/// One ATT request a procedure wants sent next (Core v5.4 Vol 3 Part F §3.4), named and parameterised as
/// the spec names it; ``GATTClient`` turns it into the ATT module's PDU and hands it to the bearer.
enum GATTRequest: Hashable, Sendable {
    /// Exchange MTU Request (Vol 3 Part F §3.4.2.1) with our receive MTU.
    case exchangeMTU(clientRxMTU: UInt16)
    /// Find Information Request (Vol 3 Part F §3.4.3.1).
    case findInformation(start: AttributeHandle, end: AttributeHandle)
    /// Find By Type Value Request (§3.4.3.3): a 16-bit attribute type and the value to match.
    case findByTypeValue(start: AttributeHandle, end: AttributeHandle, type: UInt16, value: [UInt8])
    /// Read By Type Request (§3.4.4.1).
    case readByType(start: AttributeHandle, end: AttributeHandle, type: BluetoothUUID)
    /// Read Request (§3.4.4.3).
    case read(handle: AttributeHandle)
    /// Read Blob Request (§3.4.4.5).
    case readBlob(handle: AttributeHandle, offset: UInt16)
    /// Read Multiple Request (§3.4.4.7), two or more handles.
    case readMultiple(handles: [AttributeHandle])
    /// Read Multiple Variable Request (§3.4.4.11), two or more handles.
    case readMultipleVariable(handles: [AttributeHandle])
    /// Read By Group Type Request (§3.4.4.9).
    case readByGroupType(start: AttributeHandle, end: AttributeHandle, type: BluetoothUUID)
    /// Write Request (§3.4.5.1).
    case write(handle: AttributeHandle, value: [UInt8])
    /// Prepare Write Request (§3.4.6.1).
    case prepareWrite(handle: AttributeHandle, offset: UInt16, value: [UInt8])
    /// Execute Write Request (§3.4.6.3): Flags 0x01 writes the queue, 0x00 cancels it.
    case executeWrite(commit: Bool)
}

/// One handle-value pair of a Read By Type Response or Read By Group Type Response.
struct GATTAttributeData: Hashable, Sendable {
    var handle: AttributeHandle
    var endGroupHandle: AttributeHandle
    var value: [UInt8]
}
