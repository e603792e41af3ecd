// The subcommands of cbtool, their operands and the options each accepts.

/// One cbtool subcommand, with its usage line and the command-specific options it takes.
public enum Subcommand: String, CaseIterable, Hashable, Sendable {
    /// `scan`: list advertisers live.
    case scan
    /// `gatt ADDRESS`: connect and print the GATT database as a tree.
    case gatt
    /// `read ADDRESS UUID|HANDLE`: read one characteristic or descriptor.
    case read
    /// `write ADDRESS UUID|HANDLE VALUE`: write one characteristic or descriptor.
    case write
    /// `notify ADDRESS UUID`: stream notifications or indications until interrupted.
    case notify
    /// `rssi ADDRESS`: connect and read the RSSI.
    case rssi
    /// `pair ADDRESS`: connect and pair (or encrypt with the bond's key).
    case pair
    /// `bonds [remove ADDRESS]`: list the stored bonds, or remove one.
    case bonds
    /// `decode FILE`: a capture file as a readable story.
    case decode
    /// `controllers`: the controllers this machine has.
    case controllers
    /// `help [COMMAND]`: usage.
    case help

    /// The operand names, in order (an operand in brackets is optional).
    public var operands: [String] {
        switch self {
        case .scan, .controllers: []
        case .gatt, .rssi, .pair: ["ADDRESS"]
        case .bonds: ["[remove]", "[ADDRESS]"]
        case .read: ["ADDRESS", "UUID|HANDLE"]
        case .write: ["ADDRESS", "UUID|HANDLE", "VALUE"]
        case .notify: ["ADDRESS", "UUID|HANDLE"]
        case .decode: ["FILE"]
        case .help: ["[COMMAND]"]
        }
    }

    /// Options only this command accepts (besides the global ones).
    public var specificOptions: Set<OptionName> {
        switch self {
        case .scan: [.duration, .passive, .service, .duplicates]
        case .write: [.withoutResponse, .hex, .text]
        case .notify: [.duration]
        case .decode: [.exportDB]
        default: []
        }
    }

    /// True when the command needs a radio (a transport); false for `decode`, `controllers` and `help`.
    public var isLive: Bool {
        switch self {
        case .decode, .controllers, .help, .bonds: false
        default: true
        }
    }

    /// One line of usage: `cbtool write ADDRESS UUID|HANDLE VALUE [--without-response] [--hex|--text]`.
    public var usage: String {
        var parts = ["cbtool", rawValue] + operands
        // `--text` is shown with `--hex` as one alternative: `[--hex|--text]`.
        for option in OptionName.allCases where specificOptions.contains(option) && option != .text {
            parts.append("[\(option.synopsis)]")
        }
        if isLive { parts.append("[--transport SPEC] [--timeout SECONDS] [--btsnoop FILE]") }
        if self != .help { parts.append("[--json]") }
        return parts.joined(separator: " ")
    }

    /// What the command does, one line.
    public var summary: String {
        switch self {
        case .scan: "list advertisers: address, RSSI, name, decoded advertising data"
        case .gatt: "connect and print the GATT database as a tree with decoded values"
        case .read: "read a characteristic or descriptor by UUID or handle"
        case .write: "write a characteristic or descriptor (hex or text value)"
        case .notify: "subscribe and print values with timestamps until interrupted"
        case .rssi: "connect and print the link's RSSI"
        case .pair: "connect and pair (Just Works), storing the bond; a bonded device is encrypted with its key"
        case .bonds: "list the bonds in the state directory ($OCB_STATE_DIR), or remove one (remove ADDRESS)"
        case .decode: "tell the story of a capture file (btsnoop, pcap, pcapng)"
        case .controllers: "list this machine's Bluetooth controllers and their state"
        case .help: "show usage of cbtool or of one command"
        }
    }
}
