#!/usr/bin/env python3
"""signals.py: how long nccllog takes to exit on SIGINT and SIGTERM while it waits on input
that never comes: an idle pipe, a FIFO nobody opened for writing, and a terminal.

    go build -o /tmp/nccllog ./cmd/nccllog && bench/signals.py /tmp/nccllog

Each case starts `nccllog report` with the signals at their default disposition (a shell
starts background jobs with SIGINT ignored, which nccllog, like any program, keeps), waits
0.7 s, sends the signal and prints the exit status and the time to exit.
"""
import os
import signal
import subprocess
import sys
import tempfile
import time


def default_signals():
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def run(name, args, stdin, sig):
    p = subprocess.Popen(args, stdin=stdin, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, preexec_fn=default_signals)
    time.sleep(0.7)
    t0 = time.monotonic()
    p.send_signal(sig)
    rc = p.wait()
    ms = 1000 * (time.monotonic() - t0)
    print(f"{name:20} {signal.Signals(sig).name:8} exit {rc:3}  {ms:6.1f} ms")


def main():
    nccllog = sys.argv[1] if len(sys.argv) > 1 else "nccllog"
    with tempfile.TemporaryDirectory() as d:
        fifo = os.path.join(d, "fifo")
        os.mkfifo(fifo)
        for sig in (signal.SIGINT, signal.SIGTERM):
            r, w = os.pipe()
            run("idle pipe", [nccllog, "report", "-"], r, sig)
            os.close(r)
            os.close(w)
            run("FIFO without writer", [nccllog, "report", fifo], subprocess.DEVNULL, sig)
            m, s = os.openpty()
            run("terminal", [nccllog, "report"], s, sig)
            os.close(m)
            os.close(s)


if __name__ == "__main__":
    main()
