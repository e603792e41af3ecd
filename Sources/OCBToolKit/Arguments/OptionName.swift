// The command-line options cbtool knows, with whether each takes a value.

/// A cbtool option (`--name` or `--name=value`).
public enum OptionName: String, CaseIterable, Hashable, Sendable {
    /// `--transport SPEC`: hciN, user:hciN, tcp:HOST:PORT, serial:DEVICE[@BAUD] (default `$OCB_TRANSPORT`, else hci0).
    case transport
    /// `--json`: one JSON object per line.
    case json
    /// `--btsnoop FILE`: record the session's HCI traffic to FILE.
    case btsnoop
    /// `--timeout SECONDS`: give up connecting or waiting after this long.
    case timeout
    /// `--duration SECONDS`: how long to scan or stream.
    case duration
    /// `--passive`: scan without scan requests.
    case passive
    /// `--service UUID`: only advertisers of this service (repeatable).
    case service
    /// `--duplicates`: report every advertisement, not each device once.
    case duplicates
    /// `--without-response`: Write Command instead of Write Request.
    case withoutResponse = "without-response"
    /// `--hex`: the VALUE is hex bytes (the default).
    case hex
    /// `--text`: the VALUE is UTF-8 text.
    case text
    /// `--export-db FILE`: `decode` writes the GATT database the capture reveals to FILE (``DatabaseExport``).
    case exportDB = "export-db"
    /// `--help` / `-h`: usage.
    case help

    /// True when the option needs a value.
    public var takesValue: Bool {
        switch self {
        case .transport, .btsnoop, .timeout, .duration, .service, .exportDB: true
        default: false
        }
    }

    /// Options every command accepts.
    public static let global: Set<OptionName> = [.transport, .json, .btsnoop, .timeout, .help]

    /// `--name VALUE` or `--name`.
    public var synopsis: String {
        switch self {
        case .transport: "--transport SPEC"
        case .btsnoop: "--btsnoop FILE"
        case .timeout: "--timeout SECONDS"
        case .duration: "--duration SECONDS"
        case .service: "--service UUID"
        case .hex: "--hex|--text"
        case .exportDB: "--export-db FILE"
        default: "--\(rawValue)"
        }
    }
}
