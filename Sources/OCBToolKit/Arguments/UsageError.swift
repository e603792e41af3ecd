// A command line cbtool cannot run: what is wrong and the usage line that helps.

/// A bad command line (exit status 2): an unknown command or option, a missing or extra operand, a bad value.
public struct UsageError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong, one line ("unknown command \"scna\"").
    public var message: String
    /// The usage line to show with it (the command's, or the general one).
    public var usage: String

    /// Makes the error.
    public init(_ message: String, usage: String) {
        self.message = message
        self.usage = usage
    }

    public var description: String { message }
}
