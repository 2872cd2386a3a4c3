#!/usr/bin/env python3
"""Checks ioramp's trace profiles against their traces, independently of ioramp's own code.

For every real trace sample given, it runs `ioramp trace profile` and `ioramp trace synth`
(the profile's RDs back to back, for the trace's duration) and recomputes, here, from the
trace file itself and from the synthesized fio iolog, the fidelity figures of man ioramp(1)
(FIDELITY FIGURES), then compares them against the targets of issue 12:

  read %            within 1 point          mean size per op  within 3 %
  size mix          within 5 points         sequential %      within 3 points
  footprint         within 10 %             hot 10 % share    within 5 points
  rate              within 2 %              per-second CV     within 25 %

Only the Python standard library; the trace parsers here are written from the formats'
descriptions (shared/reference/traces.md), not from ioramp's readers.

A synthesized stream is random: on a trace of a few thousand I/Os a figure moves from seed to
seed by about its sampling error (a mean read size over 7,000 reads by 2-3 %). Every trace is
therefore synthesized with SEEDS seeds and a figure passes when the median of its
differences is within the target. The per-seed values are printed too.

Usage: check.py IORAMP SAMPLES_DIR   exit 0 all pass, 1 a figure fails, 77 samples absent
"""
import collections
import gzip
import math
import os
import statistics
import struct
import subprocess
import sys
import tempfile

MIB = 1 << 20
SEEDS = (1, 2, 3)

# (path under the samples directory, parser, kind)
SAMPLES = [
    ("blkreplay-1und1/windows-mssql.load.gz", "blkreplay", "database (MS SQL Server)"),
    ("blkreplay-1und1/linux-mysql.load.gz", "blkreplay", "database (MySQL)"),
    ("mqsim/tpcc-small.trace", "mqsim", "OLTP, 16 devices (TPC-C)"),
    ("mqsim/wsrch-small.trace", "mqsim", "web search"),
    ("msr-cambridge/msr_web_0_first100000.csv.gz", "msr", "web/SQL server (MSR web_0)"),
    ("cloudphysics-vscsi/cloudPhysicsIO.vscsi", "vscsi", "VM disk (VMware vSCSI)"),
]


def opener(path):
    with open(path, "rb") as f:
        magic = f.read(2)
    return gzip.open(path, "rt") if magic == b"\x1f\x8b" else open(path, "rt")


def is_number(w):
    try:
        float(w)
        return True
    except ValueError:
        return False


# Every parser yields (time_ns, dev, is_write, offset_bytes, size_bytes) for reads and writes.
def parse_blkreplay(path):
    # "start ; sector ; length ; op ; delay ; duration" after a free-text header
    for line in opener(path):
        f = [x.strip() for x in line.split(";")]
        if len(f) < 4 or not is_number(f[0]) or not is_number(f[1]):
            continue
        op = f[3].upper()
        if not op or op[0] not in "RW":
            continue
        yield (round(float(f[0]) * 1e9), 0, op[0] == "W", int(f[1]) * 512, int(f[2]) * 512)


def parse_mqsim(path):
    # "arrival_ns devno blkno nblocks flags", flags bit 0 set for a read
    for line in opener(path):
        f = line.split()
        if len(f) != 5 or not f[0].isdigit():
            continue
        yield (int(f[0]), int(f[1]), not int(f[4]) & 1, int(f[2]) * 512, int(f[3]) * 512)


def parse_msr(path):
    # "Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime", FILETIME ticks
    for line in opener(path):
        f = line.strip().split(",")
        if len(f) < 6 or not f[0].isdigit():
            continue
        yield (int(f[0]) * 100, int(f[2]), f[3].lower() == "write", int(f[4]), int(f[5]))


def parse_vscsi(path):
    # v1: u32 sn, u32 len, u32 nSG, u16 cmd, u16 ver, u64 lbn, u64 ts (us), little-endian
    data = open(path, "rb").read()
    for i in range(0, len(data) - 31, 32):
        sn, length, nsg, cmd, ver, lbn, ts = struct.unpack_from("<IIIHHQQ", data, i)
        if cmd in (0x28, 0x88, 0x08):
            yield (ts * 1000, 0, False, lbn * 512, length)
        elif cmd in (0x2A, 0x8A, 0x0A):
            yield (ts * 1000, 0, True, lbn * 512, length)


def parse_iolog(path):
    # fio iolog v3: "time_us file action [offset length]"
    for line in open(path):
        f = line.split()
        if len(f) == 5 and f[2] in ("read", "write"):
            yield (int(f[0]) * 1000, f[1], f[2] == "write", int(f[3]), int(f[4]))


PARSERS = {"blkreplay": parse_blkreplay, "mqsim": parse_mqsim, "msr": parse_msr,
           "vscsi": parse_vscsi, "iolog": parse_iolog}


def union_bytes(extents):
    total, cur_s, cur_e = 0, None, None
    for s, e in sorted(extents):
        if cur_s is None:
            cur_s, cur_e = s, e
        elif s <= cur_e:
            cur_e = max(cur_e, e)
        else:
            total += cur_e - cur_s
            cur_s, cur_e = s, e
    return total + (cur_e - cur_s if cur_s is not None else 0)


def figures(recs):
    """The fidelity figures of a list of records, in their order."""
    n = len(recs)
    t_first = recs[0][0]
    t_min = min(r[0] for r in recs)
    t_max = max(r[0] for r in recs)
    last16 = collections.defaultdict(lambda: collections.deque(maxlen=16))
    regions = collections.Counter()
    extents = collections.defaultdict(list)
    sizes = collections.Counter()
    nr_op, bytes_op = [0, 0], [0, 0]
    seq = 0
    secs = collections.Counter()
    for t, dev, is_write, off, size in recs:
        window = last16[dev]
        seq += off in window
        window.append(off + size)
        regions[(dev, off >> 20)] += 1
        extents[dev].append((off, off + size))
        sizes[size] += 1
        nr_op[is_write] += 1
        bytes_op[is_write] += size
        secs[max(0, t - t_first) // 1000000000] += 1
    whole = (t_max - t_first) // 1000000000
    counts = [secs[s] for s in range(whole)]
    cv = None
    if whole >= 2 and sum(counts):
        mean = sum(counts) / whole
        cv = math.sqrt(sum((c - mean) ** 2 for c in counts) / whole) / mean
    hot = sorted(regions.values(), reverse=True)
    top = math.ceil(len(hot) * 10 / 100)
    dur = (t_max - t_min) / 1e9
    return {
        "records": n,
        "duration": dur,
        "rate": n / dur if dur > 0 else 0,
        "read_pct": 100 * nr_op[0] / n,
        "mean_read": bytes_op[0] / nr_op[0] if nr_op[0] else None,
        "mean_write": bytes_op[1] / nr_op[1] if nr_op[1] else None,
        "sizes": {k: v / n for k, v in sizes.items()},
        "seq_pct": 100 * seq / n,
        "footprint": sum(union_bytes(e) for e in extents.values()),
        "hot10": 100 * sum(hot[:top]) / n,
        "cv": cv,
    }


def size_mix_distance(a, b):
    keys = set(a) | set(b)
    return 50 * sum(abs(a.get(k, 0) - b.get(k, 0)) for k in keys)


# (figure, how the difference is computed, tolerance)
TARGETS = [
    ("rate", "rel", 0.02),
    ("read_pct", "pts", 1),
    ("mean_read", "rel", 0.03),
    ("mean_write", "rel", 0.03),
    ("size_mix", "dist", 5),
    ("seq_pct", "pts", 3),
    ("footprint", "rel", 0.10),
    ("hot10", "pts", 5),
    ("cv", "rel", 0.25),
]


def difference(fig, how, a, b):
    if how == "dist":
        return size_mix_distance(a["sizes"], b["sizes"])
    x, y = a[fig], b[fig]
    if x is None or y is None:
        return None if x is None and y is None else math.inf
    if how == "pts":
        return y - x
    return (y - x) / x if x else (0 if y == 0 else math.inf)


def synthesize(ioramp, trace, duration, seed, work):
    prof = os.path.join(work, "p.vdb")
    out = os.path.join(work, "syn-%d.iolog" % seed)
    if not os.path.exists(prof):
        subprocess.run([ioramp, "trace", "profile", "-o", prof, trace], check=True,
                       stdout=subprocess.DEVNULL)
    subprocess.run([ioramp, "trace", "synth", prof, "lun=/nonexistent/fid%d", "--all",
                    "--duration", "%.9f" % (duration + 1e-9), "--seed", str(seed), "-o", out],
                   check=True, stdout=subprocess.DEVNULL)
    return list(parse_iolog(out))


def fmt(fig, v):
    if v is None:
        return "n/a"
    if fig == "footprint":
        return "%.1fM" % (v / MIB)
    if fig in ("mean_read", "mean_write"):
        return "%.2fK" % (v / 1024)
    if fig == "rate":
        return "%.1f" % v
    if fig == "cv":
        return "%.3f" % v
    return "%.2f" % v


def check_sample(ioramp, path, parser, kind):
    recs = list(PARSERS[parser](path))
    t0 = recs[0][0]  # the trace on its own clock, from its first record
    tf = figures(recs)
    ok = True
    with tempfile.TemporaryDirectory() as work:
        synth = [figures(synthesize(ioramp, path, (max(r[0] for r in recs) - t0) / 1e9, s,
                                    work)) for s in SEEDS]
    print("%s (%s): %d records over %.1f s" % (os.path.basename(path), kind, tf["records"],
                                                tf["duration"]))
    for fig, how, tol in TARGETS:
        diffs = [difference(fig, how, tf, sf) for sf in synth]
        if all(d is None for d in diffs):
            print("  %-10s n/a" % fig)
            continue
        med = statistics.median(d for d in diffs if d is not None)
        good = abs(med) <= tol
        ok &= good
        unit = "%" if how == "rel" else " pt"
        scale = 100 if how == "rel" else 1
        vals = "size mix" if how == "dist" else "%s -> %s" % (
            fmt(fig, tf[fig]), " ".join(fmt(fig, sf[fig]) for sf in synth))
        print("  %-10s %-44s median difference %+.2f%s (target %g%s) %s" % (
            fig, vals, med * scale, unit, tol * scale, unit, "ok" if good else "FAIL"))
    return ok


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[-1])
        return 2
    ioramp, samples = sys.argv[1], sys.argv[2]
    present = [s for s in SAMPLES if os.path.exists(os.path.join(samples, s[0]))]
    if not present:
        print("skip: no trace samples in %s" % samples)
        return 77
    ok = True
    for rel, parser, kind in present:
        ok &= check_sample(ioramp, os.path.join(samples, rel), parser, kind)
    print("all figures within their targets" if ok else "some figures outside their targets")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
