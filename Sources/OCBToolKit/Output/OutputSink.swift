// Where a command's results go: readable text lines or one JSON object per line.

/// The two output styles of cbtool.
public enum OutputMode: Hashable, Sendable {
    /// Lines for a person.
    case text
    /// One JSON object per line (`--json`), for gateway scripts.
    case jsonLines
}

/// Receives a command's results and writes each in the chosen ``OutputMode``.
///
/// A command gives every result in both shapes (`text` lines and one `json` object); the sink writes the one its
/// mode asks for through `write` (one call per line, without the newline). Commands never print directly, so the same
/// command runs in tests with a collecting sink. Text lines go through ``TerminalText/escaped(_:)`` (their parts may
/// come from the air or a file); JSON lines escape per RFC 8259.
public final class OutputSink: @unchecked Sendable {
    /// The style written.
    public let mode: OutputMode
    private let write: (String) -> Void

    /// Makes a sink writing lines through `write` (e.g. `{ print($0) }`).
    public init(mode: OutputMode, write: @escaping (String) -> Void) {
        self.mode = mode
        self.write = write
    }

    /// Writes one result: `text` (zero or more lines) in text mode, `json` as one line in JSON mode.
    public func emit(text: [String], json: JSONValue) {
        switch mode {
        case .text: for line in text { write(TerminalText.escaped(line)) }
        case .jsonLines: write(json.text)
        }
    }

    /// Writes one result whose text is a single line; only the form the mode writes is built (a scan's hot path).
    public func emit(_ text: @autoclosure () -> String, json: @autoclosure () -> JSONValue) {
        switch mode {
        case .text: write(TerminalText.escaped(text()))
        case .jsonLines: write(json().text)
        }
    }

    /// Writes lines only in text mode (headings, blank lines); nothing in JSON mode.
    public func note(_ text: String) {
        if mode == .text { write(TerminalText.escaped(text)) }
    }
}

/// Collects lines in memory (tests, and commands that post-process output).
public final class LineCollector: @unchecked Sendable {
    /// The lines written so far.
    public private(set) var lines: [String] = []

    /// Makes an empty collector.
    public init() {}

    /// A sink in `mode` that appends to ``lines``.
    public func sink(_ mode: OutputMode) -> OutputSink {
        OutputSink(mode: mode) { [self] line in lines.append(line) }
    }
}
