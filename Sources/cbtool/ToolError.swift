// The errors a cbtool command ends with, each a one-line message saying what to do.

import OCBHost

/// Why a command failed; ``message`` is the line printed after "cbtool: error: ".
enum ToolError: Error {
    /// A bad command line found by the command (exit 2), with the usage line to show.
    case usage(String, usage: String)
    /// A failure a person can act on (exit 1).
    case failure(String)

    /// True for a bad command line (exit 2).
    var isUsage: Bool {
        if case .usage = self { return true }
        return false
    }

    /// The one-line message.
    var message: String {
        switch self {
        case let .usage(message, _), let .failure(message): message
        }
    }

    /// The message for a transport error: HCITransportError's descriptions already say what to do.
    static func transport(_ error: HCITransportError, spec: String) -> ToolError {
        switch error {
        case .noSuchController:
            .failure("\(error) (see `cbtool controllers`, or pick another with --transport)")
        case .timedOut:
            .failure("\(error): is the controller at \(spec) powered and answering?")
        default:
            .failure("\(error)")
        }
    }
}
