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
///
/// Lines may be held (``hold()``) and written together (``flush()``, through `writeLines`, e.g. in one system call): a
/// live stream faster than its output writes in batches, at most ``heldLimit`` lines at a time, instead of a call per
/// line. Only the command's thread uses a sink.
public final class OutputSink: @unchecked Sendable {
    /// The style written.
    public let mode: OutputMode
    private let writeLine: (String) -> Void
    private let writeLines: ([String]) -> Void
    /// The lines held for the next ``flush()``; nil while lines are written as they come.
    private var held: [String]?
    /// The most lines held before they are written without waiting for ``flush()``.
    public static let heldLimit = 256

    /// Makes a sink writing lines through `write` (e.g. `{ print($0) }`); held lines go through `writeLines` when
    /// given (one call for all of them), else through `write` one by one.
    public init(mode: OutputMode, write: @escaping (String) -> Void, writeLines: (([String]) -> Void)? = nil) {
        self.mode = mode
        self.writeLine = write
        self.writeLines = writeLines ?? { lines in lines.forEach(write) }
    }

    /// From now on, lines are held until ``flush()`` (or until ``heldLimit`` are), until ``release()``.
    public func hold() {
        if held == nil { held = [] }
    }

    /// Writes the held lines, if any, and goes on holding.
    public func flush() {
        guard let lines = held, !lines.isEmpty else { return }
        held = []
        writeLines(lines)
    }

    /// Writes the held lines and goes back to writing each line as it comes.
    public func release() {
        flush()
        held = nil
    }

    private func write(_ line: String) {
        guard held != nil else { return writeLine(line) }
        held?.append(line)
        if (held?.count ?? 0) >= Self.heldLimit { flush() }
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

    /// Writes one result whose JSON text is already written (``AdvertiserFormatter/jsonLine(_:time:)``); only the
    /// form the mode writes is built.
    public func emit(_ text: @autoclosure () -> String, jsonLine: @autoclosure () -> String) {
        switch mode {
        case .text: write(TerminalText.escaped(text()))
        case .jsonLines: write(jsonLine())
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
