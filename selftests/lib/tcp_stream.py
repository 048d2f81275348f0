#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
#
# tcp_stream.py - one TCP stream over IPv6 for the guest suites: a
# receiver that counts and hashes what arrives, a sender that sends a size
# or a steady trickle.  Each prints one line; a socket error ends the
# stream and is printed in place of "eof" / "ok".
#
#   tcp_stream.py rx PORT [--rcvbuf B] [--timeout S] [--ready FILE]
#                 [--pause-at N ... --go GO]
#       accept one connection, read to EOF: "BYTES SHA256 eof|ERROR";
#       FILE gets a line "listening" once it listens, "receiving" once
#       data arrives (the suites wait on it, spritzctl-lib.sh); with
#       --pause-at, it reads exactly N bytes, writes "paused K" (the K-th
#       pause) to FILE and reads no more until GO has K lines
#   tcp_stream.py tx ADDR PORT [--size N] [--stop FILE --every MS
#                 [--chunk B] [--min N]] [--sndbuf B] [--timeout S]
#       N bytes in 1 MiB writes, or a CHUNK (16 KiB) every MS ms until
#       FILE exists and at least N (--min) were sent; then half-close and
#       wait for the peer's: "BYTES SECONDS SHA256 ok|ERROR"
import argparse
import hashlib
import os
import socket
import sys
import time


def ready(what, path):
    """Append WHAT as a line to PATH (if given)."""
    if path:
        with open(path, "a") as f:
            f.write(what + "\n")


def lines(path):
    """Lines in PATH, 0 if it does not exist."""
    try:
        with open(path) as f:
            return len(f.readlines())
    except FileNotFoundError:
        return 0


def rx(a):
    s = socket.socket(socket.AF_INET6)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if a.rcvbuf:
        # before listen(): the window scale is chosen at the handshake
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, a.rcvbuf)
    s.bind(("::", a.port))
    s.listen(1)
    s.settimeout(a.timeout)
    ready("listening", a.ready)
    n, h, end = 0, hashlib.sha256(), "eof"
    pauses = sorted(a.pause_at)
    try:
        c, _ = s.accept()
        c.settimeout(a.timeout)
        while True:
            want = 1 << 20
            if pauses:
                want = min(want, pauses[0] - n)
            if want == 0:
                pauses.pop(0)
                done = len(a.pause_at) - len(pauses)
                ready("paused %d" % done, a.ready)
                t0 = time.monotonic()
                while lines(a.go) < done:
                    if time.monotonic() - t0 > a.timeout:
                        raise TimeoutError("no go")
                    time.sleep(0.05)
                continue
            b = c.recv(want)
            if not b:
                break
            if n == 0:
                ready("receiving", a.ready)
            n += len(b)
            h.update(b)
    except OSError as e:
        end = repr(e).replace(" ", "")
    print(n, h.hexdigest(), end, flush=True)


def tx(a):
    chunk = bytes(range(256)) * (a.chunk // 256)
    big = bytes(range(256)) * 4096
    t0 = time.monotonic()
    n, h, end = 0, hashlib.sha256(), "ok"
    try:
        s = socket.create_connection((a.addr, a.port), timeout=a.timeout)
        if a.sndbuf:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, a.sndbuf)
        if a.stop:
            while not os.path.exists(a.stop) or n < a.size:
                s.sendall(chunk)
                n += len(chunk)
                h.update(chunk)
                time.sleep(a.every / 1000)
        else:
            while n < a.size:
                b = big[:min(len(big), a.size - n)]
                s.sendall(b)
                n += len(b)
                h.update(b)
        s.shutdown(socket.SHUT_WR)
        s.recv(1)
        s.close()
    except OSError as e:
        end = repr(e).replace(" ", "")
    print(n, "%.3f" % (time.monotonic() - t0), h.hexdigest(), end, flush=True)


def main():
    p = argparse.ArgumentParser(prog="tcp_stream.py")
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("rx")
    r.add_argument("port", type=int)
    r.add_argument("--rcvbuf", type=int, default=0)
    r.add_argument("--timeout", type=float, default=60)
    r.add_argument("--ready")
    r.add_argument("--pause-at", type=int, action="append", default=[])
    r.add_argument("--go")
    t = sub.add_parser("tx")
    t.add_argument("addr")
    t.add_argument("port", type=int)
    t.add_argument("--size", "--min", type=int, default=0)
    t.add_argument("--stop")
    t.add_argument("--every", type=float, default=2)
    t.add_argument("--chunk", type=int, default=16384)
    t.add_argument("--sndbuf", type=int, default=0)
    t.add_argument("--timeout", type=float, default=60)
    a = p.parse_args()
    if a.cmd == "tx" and not a.stop and a.size <= 0:
        p.error("tx needs --size N or --stop FILE")
    if a.cmd == "rx" and a.pause_at and not a.go:
        p.error("--pause-at needs --go FILE")
    if a.cmd == "rx" and any(n < 0 for n in a.pause_at):
        p.error("--pause-at takes a byte count, at least 0")
    if a.cmd == "tx" and a.chunk < 256:
        p.error("--chunk is at least 256 bytes")
    (rx if a.cmd == "rx" else tx)(a)


if __name__ == "__main__":
    sys.exit(main())
