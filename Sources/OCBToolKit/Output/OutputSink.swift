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
/// come from the air or a file); JSON lines escape per RFC 8259. Neither holds a raw line feed.
///
/// Lines may be held (``hold()``) and written together (``flush()``): a live stream faster than its output writes in
/// batches, at most ``heldLimit`` lines at a time, instead of a call per line. Held lines are kept as their UTF-8, each
/// ending in a line feed, in one ``LineBuffer`` that is reused for every batch (a scan's JSON line is written straight
/// into it: ``emit(_:jsonLine:)``); a batch goes to `writeBytes` in one call when the sink has one, else line by line
/// to `write` (a writer may emit into the sink again: its lines join the next batch). The two buffers a sink keeps
/// (the lines held and the last batch's, emptied) keep the size of the largest batch: at most ``heldLimit`` lines.
/// Only the command's thread uses a sink.
public final class OutputSink: @unchecked Sendable {
    /// The style written.
    public let mode: OutputMode
    private let writeLine: (String) -> Void
    private let writeBytes: ((UnsafeRawBufferPointer) -> Void)?
    /// True between ``hold()`` and ``release()``.
    private var holding = false
    /// The held lines, each ending in a line feed.
    private var held = LineBuffer()
    /// How many lines ``held`` has.
    private var heldLines = 0
    /// The last batch's buffer, emptied, for the next (two buffers at most, each as large as the largest batch).
    private var spare: LineBuffer?
    /// The most lines held before they are written without waiting for ``flush()``.
    public static let heldLimit = 256

    /// Makes a sink writing lines through `write` (e.g. `{ print($0) }`); held lines go through `writeBytes` when given
    /// (one call for a batch: the UTF-8 of its lines, each ending in a line feed), else through `write` one by one.
    public init(mode: OutputMode, write: @escaping (String) -> Void,
                writeBytes: ((UnsafeRawBufferPointer) -> Void)? = nil) {
        self.mode = mode
        self.writeLine = write
        self.writeBytes = writeBytes
    }

    /// From now on, lines are held until ``flush()`` (or until ``heldLimit`` are), until ``release()``.
    public func hold() {
        holding = true
    }

    /// Writes the held lines, if any, and goes on holding.
    public func flush() {
        guard heldLines > 0 else { return }
        // The batch is moved out first, so a writer that emits into the sink again (or flushes it) starts the next one.
        var batch = spare.take() ?? LineBuffer()
        swap(&batch, &held)
        heldLines = 0
        if let writeBytes {
            batch.withBytes(writeBytes)
        } else {
            batch.withBytes { bytes in
                for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast() {
                    writeLine(String(decoding: line, as: UTF8.self))
                }
            }
        }
        batch.removeAll()
        spare = consume batch
    }

    /// Writes the held lines and goes back to writing each line as it comes.
    public func release() {
        flush()
        holding = false
    }

    private func write(_ line: String) {
        guard holding else { return writeLine(line) }
        held.append(contentsOf: line)
        endHeldLine()
    }

    /// Counts the line just written into ``held`` and writes the batch at ``heldLimit``.
    private func endHeldLine() {
        held.append(0x0A)
        heldLines += 1
        if heldLines >= Self.heldLimit { flush() }
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

    /// Writes one result whose JSON text `jsonLine` appends to a buffer (``AdvertiserFormatter/writeJSONLine(_:microsecondsSince1970:into:)``,
    /// one line, no line feed): while lines are held, straight into the held batch. Only the form the mode writes is built.
    public func emit(_ text: @autoclosure () -> String, jsonLine: (inout LineBuffer) -> Void) {
        switch mode {
        case .text:
            write(TerminalText.escaped(text()))
        case .jsonLines where holding:
            jsonLine(&held)
            endHeldLine()
        case .jsonLines:
            var line = LineBuffer(capacity: 1_024)
            jsonLine(&line)
            writeLine(line.text)
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
