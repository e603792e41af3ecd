// The ATT response a GATT procedure consumes, in the spec's terms, after the ATT module decoded it.
import OCBCore
import OCBATT

/// The answer to a procedure's last ``GATTRequest`` (Core v5.4 Vol 3 Part F §3.4), or the Error Response
/// that replaced it.
enum GATTResponse: Sendable {
    /// Error Response (§3.4.1.1): the error code and the handle in error.
    case error(ATTError, handle: AttributeHandle)
    /// Exchange MTU Response (§3.4.2.2): the server's receive MTU.
    case exchangeMTU(serverRxMTU: UInt16)
    /// Find Information Response (§3.4.3.2): handle-UUID pairs.
    case findInformation([(handle: AttributeHandle, uuid: BluetoothUUID)])
    /// Find By Type Value Response (§3.4.3.4): Found Attribute Handle, Group End Handle pairs.
    case findByTypeValue([(found: AttributeHandle, groupEnd: AttributeHandle)])
    /// Read By Type Response (§3.4.4.2): handle-value pairs (``GATTAttributeData/endGroupHandle`` unused).
    case readByType([GATTAttributeData])
    /// Read Response (§3.4.4.4) or Read Blob Response (§3.4.4.6): the value or part.
    case read([UInt8])
    /// Read Multiple Response (§3.4.4.8): the concatenated values.
    case readMultiple([UInt8])
    /// Read Multiple Variable Response (§3.4.4.12): each value with its announced length.
    case readMultipleVariable([(length: UInt16, value: [UInt8])])
    /// Read By Group Type Response (§3.4.4.10): handle, End Group Handle, value.
    case readByGroupType([GATTAttributeData])
    /// Write Response (§3.4.5.2).
    case write
    /// Prepare Write Response (§3.4.6.2): the echo of the request.
    case prepareWrite(handle: AttributeHandle, offset: UInt16, value: [UInt8])
    /// Execute Write Response (§3.4.6.4).
    case executeWrite

    /// The spec name of the response, for errors.
    var name: String {
        switch self {
        case .error: "Error Response"
        case .exchangeMTU: "Exchange MTU Response"
        case .findInformation: "Find Information Response"
        case .findByTypeValue: "Find By Type Value Response"
        case .readByType: "Read By Type Response"
        case .read: "Read Response"
        case .readMultiple: "Read Multiple Response"
        case .readMultipleVariable: "Read Multiple Variable Response"
        case .readByGroupType: "Read By Group Type Response"
        case .write: "Write Response"
        case .prepareWrite: "Prepare Write Response"
        case .executeWrite: "Execute Write Response"
        }
    }
}
