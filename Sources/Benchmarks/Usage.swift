// The Benchmarks tool's usage text, printed by --help.

/// What `Benchmarks --help` prints: each mode and its options (README, "Benchmarks", has the figures and how to read them).
let usageText = """
usage: swift run -c release Benchmarks [--only TEXT] [--passes N] [CAPTURES-DIRECTORY]
         the protocol layers over the fixture captures, a table of throughputs
         --only TEXT   only the benchmarks whose name contains TEXT (case-insensitive; "none" runs none)
         --passes N    exactly N passes each, no warm-up
       Benchmarks --scan-path [--reports N] [--passes N] [--advertisers N]
                  [--scan-case changing,counter,repeating,true,false] [--scan-wiring memory|tcp]
         LE Advertising Reports over H4 through Host and CoreBluetooth to didDiscover: reports/s, stack CPU a report
       Benchmarks --flood N
         N distinct advertisers from the virtual peer through CBCentralManager: connects with and without, memory
       Benchmarks --backlog N [--passes N]
         a connect's LE Connection Complete behind N buffered advertising reports (loopback TCP)
       Benchmarks --notification-path [--notifications N] [--passes N]
         Handle Value Notifications over H4 through every layer to didUpdateValueFor: CPU a notification
       Benchmarks --peer [--notifications N]
         against the virtual peer: CPU a notification, discovery round trips
       Benchmarks --write-ad-corpus FILE [CAPTURES-DIRECTORY] | --ad-corpus FILE [--passes N]
         the Swift side of scripts/bench-ad (the advertising-data parse side by side with other parsers)
       Benchmarks --help
The scripts run them with their peers: scripts/bench-ad, scripts/bench-scan (README, "Benchmarks").
"""
