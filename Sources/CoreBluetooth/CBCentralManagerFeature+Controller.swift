// The CoreBluetooth features a controller offers, read from what bring-up learned about it.
internal import OCBHCI
internal import OCBHost

extension CBCentralManager.Feature {
    /// The features of the controller `info` describes: ``extendedScanAndConnect`` when its Supported Commands
    /// (Core v5.4 Vol 4 Part E §7.4.2, bit table §6.27) list LE Set Extended Scan Parameters (octet 37 bit 5),
    /// LE Set Extended Scan Enable (bit 6) and LE Extended Create Connection (bit 7) — the commands the host then
    /// scans and connects with.
    init(controller info: ControllerInfo) {
        let commands = info.supportedCommands
        let extended = commands.contains(.leSetExtendedScanParameters) && commands.contains(.leSetExtendedScanEnable)
            && commands.contains(.leExtendedCreateConnection)
        self = extended ? .extendedScanAndConnect : []
    }
}
