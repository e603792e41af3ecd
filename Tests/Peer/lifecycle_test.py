#!/usr/bin/env python3
"""Process-lifecycle checks of the virtual peer: every kind of stdin, EOF, SIGTERM and SIGINT (part of smoke_test.py).

Documented behaviour (Tests/Peer/README.md): with stdin a pipe or terminal the peer answers control lines and exits
on EOF; with stdin /dev/null or a regular file it ignores stdin and lives on; SIGTERM and SIGINT end it within 0.5 s
with status 0; never a traceback on stderr.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from typing import Callable

HERE = os.path.dirname(os.path.abspath(__file__))
PROMPT_EXIT = 0.5  # seconds: the documented bound on exiting after a signal or EOF
LIVES_ON = 0.6     # seconds after READY during which a peer that must not quit is watched


def start(stdin, preexec: Callable[[], None] | None = None) -> tuple[subprocess.Popen, str]:
    process = subprocess.Popen([sys.executable, os.path.join(HERE, 'peer.py')], stdin=stdin, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, preexec_fn=preexec)
    return process, process.stdout.readline()


def ended_within(process: subprocess.Popen, seconds: float) -> float | None:
    """Seconds until `process` ended, or None (and the process killed) when still running after `seconds`."""
    started = time.monotonic()
    try:
        process.wait(seconds)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        return None
    return round(time.monotonic() - started, 3)


def clean(process: subprocess.Popen) -> str:
    """The peer's stderr; empty for a clean run (no traceback, no warning)."""
    return process.stderr.read()


def run(check: Callable[[bool, str], None]) -> None:
    # /dev/null: at end of file from the start, which must not end the peer; SIGTERM does.
    process, line = start(subprocess.DEVNULL)
    check(line.startswith('READY '), 'stdin /dev/null: READY')
    time.sleep(LIVES_ON)
    check(process.poll() is None, f'stdin /dev/null: still running {LIVES_ON} s after READY (EOF is not "quit")')
    process.send_signal(signal.SIGTERM)
    took = ended_within(process, PROMPT_EXIT)
    check(took is not None and process.returncode == 0,
          f'stdin /dev/null: SIGTERM ends it with status 0 within {PROMPT_EXIT} s (took {took}, {process.returncode})')
    errors = clean(process)
    check(errors == '', f'stdin /dev/null: nothing on stderr, got {errors[-300:]!r}')

    # A regular file: its lines are not control lines; SIGINT ends it.
    with tempfile.TemporaryFile() as file:
        file.write(b'quit\n')
        file.seek(0)
        process, line = start(file)
        time.sleep(LIVES_ON)
        check(line.startswith('READY ') and process.poll() is None,
              'stdin a regular file: READY, still running (the file is ignored)')
        process.send_signal(signal.SIGINT)
        took = ended_within(process, PROMPT_EXIT)
        check(took is not None and process.returncode == 0,
              f'stdin a regular file: SIGINT ends it with status 0 within {PROMPT_EXIT} s (took {took})')
        errors = clean(process)
        check(errors == '', f'stdin a regular file: nothing on stderr, got {errors[-300:]!r}')

    # A pipe: control lines answered, EOF ends it.
    process, line = start(subprocess.PIPE)
    process.stdin.write('ping\n')
    process.stdin.flush()
    check(process.stdout.readline().strip() == 'OK ping', 'stdin a pipe: ping answered OK ping')
    process.stdin.close()
    took = ended_within(process, PROMPT_EXIT)
    check(took is not None and process.returncode == 0, f'stdin a pipe: EOF ends it within {PROMPT_EXIT} s (took {took})')
    errors = clean(process)
    check(errors == '', f'stdin a pipe: nothing on stderr, got {errors[-300:]!r}')

    # A terminal: control lines answered, ^D (EOF in canonical mode) ends it.
    controller, terminal = os.openpty()
    try:
        process, line = start(terminal)
        os.write(controller, b'ping\n')
        check(process.stdout.readline().strip() == 'OK ping', 'stdin a terminal: ping answered OK ping')
        os.write(controller, b'\x04')
        took = ended_within(process, PROMPT_EXIT)
        check(took is not None and process.returncode == 0,
              f'stdin a terminal: ^D ends it within {PROMPT_EXIT} s (took {took})')
    finally:
        os.close(terminal)
        os.close(controller)

    # Started with SIGINT ignored, as a non-interactive shell starts `scripts/peer &`: SIGINT still ends it.
    process, line = start(subprocess.DEVNULL, preexec=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    check(line.startswith('READY '), 'SIGINT ignored by the parent: READY')
    process.send_signal(signal.SIGINT)
    took = ended_within(process, PROMPT_EXIT)
    check(took is not None and process.returncode == 0,
          f'SIGINT ignored by the parent: SIGINT still ends it within {PROMPT_EXIT} s (took {took})')


if __name__ == '__main__':
    failures = []

    def report(condition: bool, what: str) -> None:
        print(('  ok   ' if condition else '  FAIL ') + what, flush=True)
        if not condition:
            failures.append(what)

    run(report)
    sys.exit(1 if failures else 0)
