// A connect's time split at the virtual peer's timeline (OCB_PEER_TIMELINE) and the host's (HostTimeline), for Benchmarks --flood.

import Glibc

/// A connect split at the peer's timeline (OCB_PEER_TIMELINE, Tests/Peer/peer_controller.py): from connect() to the
/// peer taking LE Create Connection (Core v5.4 Vol 4 Part E §7.8.12: the host's sending and the peer's reading), from
/// there to the peer handing over LE Connection Complete (§7.7.65.1: the peer waits for alpha's next advertisement),
/// and from there to didConnect (the peer's writing of what it queued first, the socket, the host's reading). The host's
/// own timeline (``Host/HostTimeline``) splits the first part at the moment the host handed LE (Extended) Create
/// Connection to the socket: before it the host's work, after it the socket's and the peer's (a Python process that
/// shares the cores with the host and, during a flood, is busy writing it).
enum ConnectPhases {
    /// One connect's three parts, seconds, and the bytes the peer's writer held ahead of its Connection Complete.
    /// `toNextCommand`: from the Connection Complete to the peer taking the host's next command (the host read the
    /// event and answered it); `toFirstACL`: to the peer taking the host's first ACL data (ATT_EXCHANGE_MTU_REQ).
    struct Split {
        var toPeer: Double
        /// connect() to the host handing LE (Extended) Create Connection to the socket; nil when the host's timeline
        /// has no such write within the connect.
        var toHostWrite: Double?
        /// The peer handing over LE (Enhanced) Connection Complete to the host taking it (the socket, and the host
        /// reading what came before it); nil without a host timeline of events.
        var toHostRead: Double?
        var atPeer: Double
        var toApp: Double
        var queuedAhead: Int
        var toNextCommand: Double?
        var toFirstACL: Double?
    }

    /// Now on CLOCK_MONOTONIC, seconds (Python's time.monotonic() reads the same clock).
    static func monotonic() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// One line of the timeline: "SECONDS NAME EVENT [DETAIL]".
    struct Event {
        /// CLOCK_MONOTONIC seconds.
        var at: Double
        /// "create", "command", "acl" or "complete".
        var event: String
        /// The opcode of a "command" (hex), the bytes queued ahead of a "complete"; empty for the others.
        var detail: String
        /// A "complete"'s bytes queued ahead of it.
        var queued: Int { Int(detail) ?? 0 }
    }

    /// The timeline's lines, in order; none when the file is missing.
    static func read(_ path: String) -> [Event] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count >= 3, let at = Double(fields[0]) else { return nil }
            return Event(at: at, event: String(fields[2]), detail: fields.count > 3 ? String(fields[3]) : "")
        }
    }

    /// Each span's split: the first "create" within it, the first "complete" after that within it; a span without
    /// both is left out.
    /// `hostWrites`: the host's commands (CLOCK_MONOTONIC seconds, opcode), `hostReads` the events it took (seconds,
    /// event code, first parameter), from ``Host/HostTimeline``.
    static func split(_ spans: [(start: Double, end: Double)], _ events: [Event],
                      hostWrites: [(at: Double, opcode: UInt16)] = [], hostReads: [(at: Double, code: UInt8, first: UInt8?)] = []) -> [Split] {
        spans.compactMap { span in
            guard let create = events.first(where: { $0.event == "create" && $0.at >= span.start && $0.at <= span.end }),
                  let complete = events.first(where: { $0.event == "complete" && $0.at >= create.at && $0.at <= span.end })
            else { return nil }
            let next = events.first { $0.event == "command" && $0.at >= complete.at && $0.at <= span.end }
            let acl = events.first { $0.event == "acl" && $0.at >= complete.at && $0.at <= span.end }
            // LE Create Connection (0x200D) or LE Extended Create Connection (0x2043), Core v5.4 Vol 4 Part E §7.8.12, §7.8.66.
            let written = hostWrites.first { ($0.opcode == 0x200D || $0.opcode == 0x2043) && $0.at >= span.start && $0.at <= create.at }
            // LE Meta (0x3E) LE Connection Complete (0x01) or LE Enhanced Connection Complete (0x0A), §7.7.65.1, §7.7.65.10.
            let read = hostReads.first { $0.code == 0x3E && ($0.first == 0x01 || $0.first == 0x0A) && $0.at >= complete.at && $0.at <= span.end }
            return Split(toPeer: create.at - span.start, toHostWrite: written.map { $0.at - span.start },
                         toHostRead: read.map { $0.at - complete.at },
                         atPeer: complete.at - create.at, toApp: span.end - complete.at,
                         queuedAhead: complete.queued, toNextCommand: next.map { $0.at - complete.at },
                         toFirstACL: acl.map { $0.at - complete.at })
        }
    }

    /// The stack's part of each connect, seconds: connect() to the peer taking the command, and the peer's Connection
    /// Complete to didConnect; the advertiser's part between them (its next advertisement, 0-50 ms at random, the
    /// same wait with or without a flood) left out, so a comparison of 15 connects is not one of 15 random waits.
    static func stackPart(_ splits: [Split]) -> [Double] {
        splits.map { $0.toPeer + $0.toApp }
    }

    /// The host's own part of each connect that has a host timeline, seconds: connect() to the host handing the
    /// command to the socket, and the peer's Connection Complete to didConnect (the socket and the host reading
    /// through what the peer queued ahead of it, the host's answers, the MTU exchange).
    static func hostPart(_ splits: [Split]) -> [Double] {
        splits.compactMap { split in split.toHostWrite.map { $0 + split.toApp } }
    }

    /// "N connects: connect() → peer takes the command median A ms (max), peer → Connection Complete B ms, → didConnect C ms".
    static func summary(_ splits: [Split]) -> String {
        guard !splits.isEmpty else { return "no timeline (the peer wrote none)" }
        func median(_ values: [Double]) -> String { String(format: "%.1f", values.sorted()[values.count / 2] * 1000) }
        func maximum(_ values: [Double]) -> String { String(format: "%.1f", (values.max() ?? 0) * 1000) }
        let queued = splits.map(\.queuedAhead).sorted()
        let written = splits.compactMap(\.toHostWrite), taken = splits.compactMap(\.toHostRead)
        let line = "\(splits.count) connects, median (max) ms: connect() to the host writing LE Create Connection "
            + (written.isEmpty ? "unknown" : "\(median(written)) (\(maximum(written)))") + ", to the peer taking it "
            + "\(median(splits.map(\.toPeer))) (\(maximum(splits.map(\.toPeer)))), the peer to its LE Connection Complete "
            + "\(median(splits.map(\.atPeer))) (\(maximum(splits.map(\.atPeer)))), that to didConnect "
            + "\(median(splits.map(\.toApp))) (\(maximum(splits.map(\.toApp))))"
            + (taken.isEmpty ? "" : ", of which to the host taking it \(median(taken)) (\(maximum(taken)))")
            + "; bytes the peer held ahead of it: median "
            + "\(queued[queued.count / 2]), max \(queued.last ?? 0); from it to the peer taking the host's next command "
            + "\(optionalMedian(splits.compactMap(\.toNextCommand))), its first ACL data \(optionalMedian(splits.compactMap(\.toFirstACL)))"
        func optionalMedian(_ values: [Double]) -> String { values.isEmpty ? "none" : median(values) }
        return line
    }
}

