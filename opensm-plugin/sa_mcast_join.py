#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""Joins this node's port to a multicast group through the SA, as IPoIB does
for its broadcast group, so OpenSM routes the group (osm_mcast_mgr) and
dumps its tables (opensm.mcfdbs). Runs under umad2sim: the test starts it
with the fabric's client environment and SIM_HOST naming the host.

    sa_mcast_join.py --sm-lid 1 --port-gid fe80::5053:4800:0:0

Exits 0 once the SA answers the join with status 0."""

import argparse
import ctypes
import ipaddress
import os
import struct
import sys

# The IPoIB broadcast group OpenSM creates for the default partition.
IPOIB_BROADCAST = "ff12:401b:ffff::ffff:ffff"

SA_CLASS, SA_VERSION = 0x03, 2
METHOD_SET, METHOD_GET_RESP = 0x02, 0x81
ATTR_MCMEMBER_RECORD = 0x0038
QP1_QKEY = 0x80010000
MAD_SIZE = 256
# Component mask: MGID, PortGID, JoinState.
COMP_MASK = (1 << 0) | (1 << 1) | (1 << 16)
FULL_MEMBER = 1


def join_mad(tid, mgid, port_gid):
    """A SubnAdmSet(MCMemberRecord) MAD: header, RMPP header, SA header, record."""
    mad = bytearray(MAD_SIZE)
    struct.pack_into(">BBBBHHQHHI", mad, 0, 1, SA_CLASS, SA_VERSION, METHOD_SET, 0, 0, tid,
                     ATTR_MCMEMBER_RECORD, 0, 0)
    # RMPP header (24..35) and SM_Key (36..43) stay zero; attribute offset in
    # 8-byte words (the record is 52 bytes, padded to 56).
    struct.pack_into(">HHQ", mad, 44, 56 // 8, 0, COMP_MASK)
    record = 56
    mad[record:record + 16] = mgid
    mad[record + 16:record + 32] = port_gid
    mad[record + 48] = FULL_MEMBER  # scope 0 in the high nibble, join state low
    return bytes(mad)


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sm-lid", type=int, required=True)
    p.add_argument("--port-gid", required=True, help="this port's GID, e.g. fe80::...")
    p.add_argument("--mgid", default=IPOIB_BROADCAST)
    p.add_argument("--timeout-ms", type=int, default=5000)
    args = p.parse_args(argv)
    mgid = ipaddress.IPv6Address(args.mgid).packed
    port_gid = ipaddress.IPv6Address(args.port_gid).packed

    umad = ctypes.CDLL("libibumad.so.3", use_errno=True)
    umad.umad_get_mad.restype = ctypes.c_void_p
    if umad.umad_init() < 0:
        print("umad_init failed", file=sys.stderr)
        return 1
    port = umad.umad_open_port(None, 0)
    if port < 0:
        print("umad_open_port failed: %d" % port, file=sys.stderr)
        return 1
    agent = umad.umad_register(port, SA_CLASS, SA_VERSION, 1, None)
    if agent < 0:
        print("umad_register failed: %d" % agent, file=sys.stderr)
        return 1
    size = umad.umad_size() + MAD_SIZE
    buf = ctypes.create_string_buffer(size)
    tid = (os.getpid() << 16) | 1
    mad = join_mad(tid, mgid, port_gid)
    ctypes.memmove(umad.umad_get_mad(buf), mad, MAD_SIZE)
    umad.umad_set_addr(buf, args.sm_lid, 1, 0, QP1_QKEY)
    if umad.umad_send(port, agent, buf, MAD_SIZE, args.timeout_ms, 3) < 0:
        print("umad_send failed", file=sys.stderr)
        return 1
    length = ctypes.c_int(MAD_SIZE)
    rc = umad.umad_recv(port, buf, ctypes.byref(length), args.timeout_ms)
    if rc < 0:
        print("no answer from the SA (umad_recv %d)" % rc, file=sys.stderr)
        return 1
    answer = ctypes.string_at(umad.umad_get_mad(buf), MAD_SIZE)
    method, status = answer[3], struct.unpack_from(">H", answer, 4)[0]
    if method != METHOD_GET_RESP or status != 0:
        print("SA answered method 0x%02x status 0x%04x" % (method, status), file=sys.stderr)
        return 1
    mlid = struct.unpack_from(">H", answer, 56 + 36)[0]
    print("joined %s, MLID 0x%04x" % (args.mgid, mlid))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
