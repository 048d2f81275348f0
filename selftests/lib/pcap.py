# SPDX-License-Identifier: GPL-2.0-only
#
# pcap.py - the frames of a labctl capture file (pcap with nanosecond
# time stamps, Ethernet) for the lab suites: lab/host checks labctl
# capture's files, lab/flows what lab/run --capture recorded.
#
#   import pcap
#   snaplen, frames = pcap.read(PATH)   # frames: [(original length, bytes)]

import struct

MAGIC_NS = 0xa1b23c4d
LINKTYPE_ETHERNET = 1


def read(path):
    """The snap length and every frame of @path; AssertionError if it is
    not a nanosecond Ethernet pcap."""
    d = open(path, 'rb').read()
    magic, _, _, _, _, snap, link = struct.unpack('<IHHiIII', d[:24])
    assert magic == MAGIC_NS and link == LINKTYPE_ETHERNET, \
        path + ': not a nanosecond Ethernet pcap'
    frames, off = [], 24
    while off < len(d):
        _, _, cap, orig = struct.unpack('<IIII', d[off:off + 16])
        frames.append((orig, d[off + 16:off + 16 + cap]))
        off += 16 + cap
    return snap, frames
