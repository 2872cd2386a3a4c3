#!/usr/bin/env python3
"""Writes the small test traces of traces/ deterministically (no randomness, gzip with a
fixed mtime): the same logical I/O sequence in every format ioramp reads. The sequence is
the rule below; tests/unit/test_trace.c implements the same rule independently and checks
the readers and the statistics against it. Run from anywhere: python3 traces/gen-traces.py
"""
import gzip
import os
import struct

N = 240  # data I/Os in every trace
OUT = os.path.dirname(os.path.abspath(__file__))


def records(nr_devs):
    """The rule: record i of a trace with nr_devs devices (see traces/README.md)."""
    prev_end = {}
    out = []
    for i in range(N):
        dev = i % nr_devs
        op = 'W' if i % 4 == 0 else 'R'
        size = 4096 << (i % 3)
        t_us = i * 1000 + (i % 7) * 100
        if i % 5 in (1, 2) and dev in prev_end:
            off = prev_end[dev]
        else:
            off = ((i * 7919) % 1000) * 65536
        prev_end[dev] = off + size
        lat_ns = 50000 + (i % 11) * 1000
        out.append(dict(i=i, dev=dev, op=op, size=size, t_us=t_us, off=off, lat_ns=lat_ns))
    return out


def flushes():
    """Flush and discard events of the blkparse/blktrace traces: (i, kind, time_ns, off, size)."""
    ev = []
    for i in range(N):
        if i % 80 == 79:
            ev.append((i, 'F', (i * 1000 + (i % 7) * 100 + 500) * 1000, 0, 0))
        if i % 120 == 60:
            ev.append((i, 'D', (i * 1000 + (i % 7) * 100 + 600) * 1000, 999999 * 512, 65536))
    return ev


def write(name, text, gz=False):
    data = text.encode() if isinstance(text, str) else text
    path = os.path.join(OUT, name)
    if gz:
        with open(path, 'wb') as f:
            with gzip.GzipFile(filename='', mode='wb', fileobj=f, mtime=0) as g:
                g.write(data)
    else:
        with open(path, 'wb') as f:
            f.write(data)


def gen_msr():
    lines = ['Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime']
    base = 128166372000000000  # 2007-02-22, FILETIME ticks
    for r in records(2):
        lines.append('%d,testhost,%d,%s,%d,%d,%d' % (
            base + r['t_us'] * 10, r['dev'], 'Read' if r['op'] == 'R' else 'Write',
            r['off'] + 3584, r['size'], r['lat_ns'] // 100))
    text = '\n'.join(lines) + '\n'
    write('msr.csv', text)
    write('msr.csv.gz', text, gz=True)


def gen_spc():
    lines = []
    for r in records(2):
        op = r['op'].lower() if r['i'] % 3 else r['op']
        sep = ', ' if r['i'] % 10 == 3 else ','
        extra = ',7' if r['i'] % 9 == 4 else ''
        lines.append(sep.join([str(r['dev']), str(r['off'] // 512), str(r['size']), op,
                               '%d.%06d' % divmod(r['t_us'], 1000000)]) + extra)
    write('spc.spc', '\n'.join(lines) + '\n')


def gen_alibaba():
    base = 1577836800000000
    lines = ['%d,%s,%d,%d,%d' % (r['dev'], r['op'], r['off'], r['size'], base + r['t_us'])
             for r in records(2)]
    write('alibaba.csv', '\n'.join(lines) + '\n')


def gen_tencent():
    base = 1538352000
    lines = ['%d,%d,%d,%d,%d' % (base + r['t_us'] // 1000000, r['off'] // 512, r['size'] // 512,
                                 0 if r['op'] == 'R' else 1, 1000 + r['dev'])
             for r in records(2)]
    write('tencent.csv', '\n'.join(lines) + '\n')


def gen_disksim():
    ds = ['%d.%03d %d %d %d %d' % (r['t_us'] // 1000, r['t_us'] % 1000, r['dev'], r['off'] // 512,
                                   r['size'] // 512, 1 if r['op'] == 'R' else 0)
          for r in records(2)]
    write('disksim.trace', '\n'.join(ds) + '\n')
    mq = ['%d %d %d %d %d' % (r['t_us'] * 1000, r['dev'], r['off'] // 512, r['size'] // 512,
                              1 if r['op'] == 'R' else 0) for r in records(2)]
    write('mqsim.trace', '\n'.join(mq) + '\n')


def gen_blkreplay():
    header = ('Copyright notice of a synthetic test file (ioramp traces/gen-traces.py).\n'
              'Free text, as blkreplay files carry.\n\n'
              '#################################################################\n'
              'start ; sector; length ; op ;  replay_delay=0 ; replay_duration=0\n')
    lines = []
    for r in records(1):
        op = r['op'] + ('A' if r['op'] == 'R' and r['i'] % 6 == 1 else '')
        lines.append('%6d.%09d ; %12d ; %4d ; %s ; 0.0 ; 0.0' % (
            r['t_us'] // 1000000, (r['t_us'] % 1000000) * 1000, r['off'] // 512,
            r['size'] // 512, op))
    # the header twice, as in windows-mssql.load.gz
    text = header + header + '\n'.join(lines) + '\n'
    write('blkreplay.load', text)
    write('blkreplay.load.gz', text, gz=True)


def gen_fio():
    files = ['/dev/ioramp-test0', '/dev/ioramp-test1']
    v2 = ['fio version 2 iolog'] + ['%s add' % f for f in files] + ['%s open' % f for f in files]
    v3 = ['fio version 3 iolog'] + ['0 %s add' % f for f in files] + ['0 %s open' % f for f in files]
    prev = 0
    for r in records(2):
        f = files[r['dev']]
        act = 'read' if r['op'] == 'R' else 'write'
        if r['t_us'] > prev:
            v2.append('%s wait %d' % (f, r['t_us'] - prev))
        prev = r['t_us']
        v2.append('%s %s %d %d' % (f, act, r['off'], r['size']))
        v3.append('%d %s %s %d %d' % (r['t_us'], f, act, r['off'], r['size']))
    v2 += ['%s close' % f for f in files]
    v3 += ['%d %s close' % (prev, f) for f in files]
    write('fio2.iolog', '\n'.join(v2) + '\n')
    write('fio3.iolog', '\n'.join(v3) + '\n')


def gen_vscsi():
    out = b''
    for r in records(1):
        cmd = 0x28 if r['op'] == 'R' else 0x2a
        out += struct.pack('<IIIHHQQ', r['i'], r['size'], 1, cmd, 0x0100, r['off'] // 512, r['t_us'])
    # one SCSI command that moves no data (TEST UNIT READY): read and skipped
    out += struct.pack('<IIIHHQQ', N, 0, 0, 0x00, 0x0100, 0, 240000)
    write('vscsi.bin', out)


def gen_vscsi_csv():
    """libCacheSim's CSV of a vSCSI trace: a header row, whole seconds from 5633898 (all 240
    I/Os fall in one second), hex opcodes (upper case every third line), and a TEST UNIT
    READY (moves no data: skipped) after every 60th I/O."""
    lines = ['version,time,op,size,lbn']
    for r in records(1):
        op = '28' if r['op'] == 'R' else '2a'
        lines.append('1,%d,%s,%d,%d' % (5633898 + r['t_us'] // 10**6,
                                        op.upper() if r['i'] % 3 == 2 else op, r['size'],
                                        r['off'] // 512))
        if r['i'] % 60 == 59:
            lines.append('1,%d,0,0,0' % (5633898 + r['t_us'] // 10**6))
    write('vscsi.csv', '\n'.join(lines) + '\n')


def gen_systor():
    """Systor '17: a header row, Unix seconds with nine decimals, LUNs 0 and 4, and a line
    whose IOType is blank (no response seen) after every 50th I/O."""
    lines = ['Timestamp,Response,IOType,LUN,Offset,Size']
    base = 1456135200  # 2016-02-22 19:00 JST
    for r in records(2):
        lines.append('%d.%06d000,0.%09d,%s,%d,%d,%d' % (
            base + r['t_us'] // 10**6, r['t_us'] % 10**6, r['lat_ns'], r['op'], 4 * r['dev'],
            r['off'], r['size']))
        if r['i'] % 50 == 49:
            lines.append('%d.%06d000,0.000000000,,%d,0,4096' % (
                base + r['t_us'] // 10**6, r['t_us'] % 10**6 + 1, 4 * r['dev']))
    write('systor.csv', '\n'.join(lines) + '\n')


def gen_fiu():
    """FIU: ns, pid, process (some with a blank), 512-byte blocks, devices 8,16 and 8,32."""
    procs = ['kjournald', 'Web Content', 'httpd']
    lines = []
    for r in records(2):
        maj, mnr = DEVS[r['dev']]
        lines.append('%d %d %s %d %d %s %d %d %032x' % (
            r['t_us'] * 1000, 4000 + r['i'] % 3, procs[r['i'] % 3], r['off'] // 512,
            r['size'] // 512, r['op'], maj, mnr, r['i'] * 2654435761))
    write('fiu.trace', '\n'.join(lines) + '\n')


def gen_biosnoop():
    """biosnoop (bcc): its header, each I/O at its completion (TIME = issue + LAT, seconds
    since the first), disks nvme0n1 and sdb, a COMM with a blank every third line."""
    lines = ['TIME(s)     COMM           PID    DISK    T SECTOR     BYTES   LAT(ms)']
    procs = ['postgres', 'Web Content', 'kworker/u8:2']
    for r in records(2):
        lat_us = r['lat_ns'] // 1000
        lines.append('%-11.6f %-14.14s %-6d %-7s %s %-10d %-7d %7.3f' % (
            (r['t_us'] + lat_us) / 1e6, procs[r['i'] % 3], 3000 + r['i'] % 3,
            ['nvme0n1', 'sdb'][r['dev']], r['op'], r['off'] // 512, r['size'], lat_us / 1000))
    write('biosnoop.txt', '\n'.join(lines) + '\n')


ETW_IO_COLS = ('TimeStamp,     Process Name ( PID),   ThreadID, CPU,             IrpPtr,   '
               'ByteOffset,     IOSize, ElapsedTime,  DiskNum, IrpFlags, DiskSvcTime, I/O Pri,  '
               'VolSnap,         FileObject, FileName')


def gen_etw():
    """Windows event tracing's text dump, as in the SNIA Microsoft server traces: the header
    block (with the CPU column of newer xperf), each I/O's DiskRead/DiskWrite logged at its
    completion (TimeStamp = issue + ElapsedTime, in us), other events between them."""
    lines = ['BeginHeader',
             '              DiskRead,  ' + ETW_IO_COLS,
             '             DiskWrite,  ' + ETW_IO_COLS,
             '          DiskReadInit,  TimeStamp,     Process Name ( PID),   ThreadID, CPU,'
             '             IrpPtr',
             '             DiskFlush,  TimeStamp,     Process Name ( PID),   ThreadID, CPU,'
             '             IrpPtr,                           ElapsedTime,  DiskNum, IrpFlags, '
             'DiskSvcTime, I/O Pri',
             '              FileIoRead,  TimeStamp,     Process Name ( PID),   ThreadID, '
             'FileObject, FileName',
             'EndHeader']
    for r in records(2):
        lat_us = r['lat_ns'] // 1000
        lines.append('          DiskReadInit, %10d, %24s, %10d, %3d, 0xfffffa80%08x' % (
            r['t_us'], 'sqlservr.exe (1234)', 5678, r['i'] % 2, r['i']))
        if r['i'] % 40 == 7:
            lines.append('            FileIoRead, %10d, %24s, %10d, 0xfffffa80%08x, '
                         '"C:\\data\\a, b.mdf"' % (r['t_us'] + 1, 'sqlservr.exe (1234)', 5678,
                                                     r['i']))
        lines.append('%22s, %10d, %24s, %10d, %3d, 0xfffffa80%08x, 0x%010x, 0x%08x, %10d, %8d, '
                     '0x060043, %10d, %7d, Original, 0xfffffa80%08x, "C:\\data\\db, %d.mdf"' % (
                         'DiskRead' if r['op'] == 'R' else 'DiskWrite', r['t_us'] + lat_us,
                         'sqlservr.exe (1234)', 5678, r['i'] % 2, r['i'], r['off'], r['size'],
                         lat_us, r['dev'], lat_us - 5, 3, r['i'], r['dev']))
    write('etw.csv', '\n'.join(lines) + '\n')


# ---- blkparse text and blktrace binary: the same events in both ----------------------------

DEVS = [(8, 16), (8, 32)]
WHAT = dict(Q=1, M=2, F=3, G=4, S=5, R=6, D=7, C=8, P=9, U=10, T=11, I=12, X=13, B=14, A=15)
TC = dict(READ=0x1, WRITE=0x2, FLUSH=0x4, SYNC=0x8, QUEUE=0x10, ISSUE=0x40, COMPLETE=0x80,
          FS=0x100, PC=0x200, NOTIFY=0x400, AHEAD=0x800, META=0x1000, DISCARD=0x2000)


def blk_events():
    """Every event: dict(t_ns, cpu, dev, act, rwbs, cat, sector, nsect, pid, tail, pdu)."""
    ev = []
    for r in records(2):
        cpu, dev, t = r['i'] % 2, DEVS[r['dev']], r['t_us'] * 1000
        sector, nsect = r['off'] // 512, r['size'] // 512
        if r['op'] == 'W':
            rwbs, cat = 'WS', TC['WRITE'] | TC['SYNC']
        elif r['i'] % 6 == 1:
            rwbs, cat = 'RA', TC['READ'] | TC['AHEAD']
        else:
            rwbs, cat = 'R', TC['READ']
        io = dict(cpu=cpu, dev=dev, rwbs=rwbs, sector=sector, nsect=nsect, pid=4242)
        if r['op'] == 'R':
            ev.append(dict(io, t_ns=t - 100, act='A', cat=cat | TC['QUEUE'],
                           tail='%d + %d <- (%d,%d) %d' % (sector, nsect, dev[0], dev[1] + 1,
                                                           sector),
                           pdu=struct.pack('>IIQ', dev[0] << 20 | (dev[1] + 1),
                                           dev[0] << 20 | dev[1], sector)))
        ev.append(dict(io, t_ns=t, act='Q', cat=cat | TC['QUEUE'], tail='%d + %d [fio]'))
        ev.append(dict(io, t_ns=t + 200, act='G', cat=cat | TC['QUEUE'], tail='%d + %d [fio]'))
        ev.append(dict(io, t_ns=t + 250, act='P', cat=TC['QUEUE'], rwbs='N', tail='[fio]',
                       sector=0, nsect=0))
        if r['i'] % 3 == 0:
            ev.append(dict(io, t_ns=t + 300, act='U', cat=TC['QUEUE'], rwbs='N', tail='[fio] 1',
                           sector=0, nsect=0))
        ev.append(dict(io, t_ns=t + 350, act='I', cat=cat | TC['QUEUE'], tail='%d + %d [fio]'))
        ev.append(dict(io, t_ns=t + 400, act='D', cat=cat | TC['ISSUE'], tail='%d + %d [fio]'))
        if r['i'] % 60 == 30:
            ev.append(dict(io, t_ns=t + 450, act='X', cat=cat | TC['ISSUE'],
                           tail='%d / %d [fio]' % (sector, sector + 8)))
        ev.append(dict(io, t_ns=t + 400 + r['lat_ns'], act='C', cat=cat | TC['COMPLETE'],
                       pid=0, tail='%d + %d [0]'))
        if r['i'] % 50 == 25:
            ev.append(dict(io, t_ns=t + 600, act='m', cat=TC['NOTIFY'], rwbs='N', pid=4242,
                           tail='cfq4242S / inserted', sector=0, nsect=0, note=True))
    for i, kind, t, off, size in flushes():
        cpu, dev = i % 2, DEVS[i % 2]
        if kind == 'F':
            base = dict(cpu=cpu, dev=dev, rwbs='FN', sector=0, nsect=0, pid=77)
            cat = TC['FLUSH']
            ev.append(dict(base, t_ns=t, act='Q', cat=cat | TC['QUEUE'], tail='[kworker/0:1H]'))
            ev.append(dict(base, t_ns=t + 100, act='D', cat=cat | TC['ISSUE'], tail='[kworker/0:1H]'))
            ev.append(dict(base, t_ns=t + 9000, act='C', cat=cat | TC['COMPLETE'], pid=0,
                           tail='0 [0]'))
        else:
            base = dict(cpu=cpu, dev=dev, rwbs='DS', sector=off // 512, nsect=size // 512, pid=88)
            cat = TC['DISCARD'] | TC['WRITE'] | TC['SYNC']
            for act, dt, cc in (('Q', 0, 'QUEUE'), ('D', 100, 'ISSUE'), ('C', 20000, 'COMPLETE')):
                ev.append(dict(base, t_ns=t + dt, act=act, cat=cat | TC[cc],
                               tail='%d + %d [0]' if act == 'C' else '%d + %d [fstrim]'))
    ev.sort(key=lambda e: (e['t_ns'], e['cpu']))
    seq = {0: 0, 1: 0}
    for e in ev:
        if e.get('note'):
            e['seq'] = 0
        else:
            seq[e['cpu']] += 1
            e['seq'] = seq[e['cpu']]
    return ev


def blk_tail(e):
    return e['tail'] % (e['sector'], e['nsect']) if '%d' in e['tail'] else e['tail']


def gen_blkparse(ev):
    lines = []
    for e in ev:
        lines.append('%3d,%-3d %2d %8d %5d.%09d %5d %2s %3s %s' % (
            e['dev'][0], e['dev'][1], e['cpu'], e['seq'], e['t_ns'] // 10**9, e['t_ns'] % 10**9,
            e['pid'], e['act'], e['rwbs'], blk_tail(e)))
    nq = sum(1 for e in ev if e['act'] == 'Q')
    lines += ['CPU0 (8,16):',
              ' Reads Queued:         %4d,      720KiB\t Writes Queued:          60,      480KiB' % nq,
              ' Read Dispatches:       180,      720KiB\t Write Dispatches:       60,      480KiB',
              '',
              'Total (8,16):',
              'Throughput (R/W): 3000KiB/s / 2000KiB/s',
              'Events (8,16): %d entries' % len(ev),
              'Skips: 0 forward (0 -   0.0%)']
    write('blkparse.txt', '\n'.join(lines) + '\n')
    write('blkparse.txt.gz', '\n'.join(lines) + '\n', gz=True)


FTRACE_HEADER = """# tracer: blk
#
# entries-in-buffer/entries-written: %d/%d   #P:2
#
#                                _-----=> irqs-off/BH-disabled
#                               / _----=> need-resched
#                              | / _---=> hardirq/softirq
#                              || / _--=> preempt-depth
#                              ||| / _-=> migrate-disable
#                              |||| /     delay
#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION
#              | |         |   |||||     |         |"""

# blkparse's actions as block tracepoints (perf script, trace-cmd report, tracefs events)
TRACEPOINTS = dict(Q='block_bio_queue', G='block_getrq', P='block_plug', U='block_unplug',
                   I='block_rq_insert', D='block_rq_issue', C='block_rq_complete',
                   A='block_bio_remap', X='block_split')


def ftrace_comm(e):
    return {0: '<idle>', 77: 'kworker/0:1H', 88: 'fstrim'}.get(e['pid'], 'fio')


def tracepoint_payload(e):
    """The tracepoint's own text: rq events carry bytes and "(cmd)", completions no bytes."""
    dev = '%d,%d %s' % (e['dev'][0], e['dev'][1], e['rwbs'])
    pos = '%d + %d' % (e['sector'], e['nsect'])
    comm = '[%s]' % ftrace_comm(e)
    if e['act'] in 'ID':
        return '%s %d () %s be,0,4 %s' % (dev, e['nsect'] * 512, pos, comm)
    if e['act'] == 'C':
        return '%s () %s be,0,4 [0]' % (dev, pos)
    if e['act'] in 'PU':
        return blk_tail(e)
    return '%s %s' % (dev, blk_tail(e) if e['act'] in 'AX' else pos + ' ' + comm)


def gen_ftrace(ev):
    """The same events as the ftrace blk tracer prints them (tracefs trace file, the time in
    ns as trace-cmd report -t gives it), and as block tracepoints in perf script's layout
    (--ns), with another subsystem's event and a lost-events note in between."""
    blk = [FTRACE_HEADER % (len(ev), len(ev))]
    tp = []
    for n, e in enumerate(ev):
        t = '%5d.%09d:' % (e['t_ns'] // 10**9, e['t_ns'] % 10**9)
        blk.append('%16s-%-7d [%03d] d..1. %s %3d,%-3d %2s %3s %s' % (
            ftrace_comm(e), e['pid'], e['cpu'], t, e['dev'][0], e['dev'][1], e['act'],
            e['rwbs'], blk_tail(e)))
        if e['act'] in TRACEPOINTS:
            tp.append('%16s %6d [%03d] %s block:%s: %s' % (
                ftrace_comm(e), e['pid'], e['cpu'], t, TRACEPOINTS[e['act']],
                tracepoint_payload(e)))
        if n == 100:
            blk.append('CPU:1 [LOST 3 EVENTS]')
            tp.append('%16s %6d [%03d] %s sched:sched_switch: prev_comm=fio prev_pid=4242 '
                      '==> next_comm=swapper/1 next_pid=0' % ('fio', 4242, 1, t))
    write('ftrace-blk.txt', '\n'.join(blk) + '\n')
    write('ftrace-events.txt', '\n'.join(tp) + '\n')


def blk_record(e, endian):
    what = 0 if e.get('note') else WHAT[e['act']]
    pdu = e.get('pdu', b'')
    if e.get('note'):
        pdu = b'cfq4242S / inserted\0'
    dev = e['dev'][0] << 20 | e['dev'][1]
    action = what | e['cat'] << 16
    nbytes = e['nsect'] * 512
    return struct.pack(endian + 'IIQQIIIIIHH', 0x65617407, e['seq'], e['t_ns'], e['sector'],
                       nbytes, action, e['pid'], dev, e['cpu'], 0, len(pdu)) + pdu


def blk_process_notes(endian):
    """A process-name note per CPU, as blktrace writes first (NOTIFY, action 0, pdu = name)."""
    out = {}
    for cpu in (0, 1):
        pdu = b'fio\0'
        out[cpu] = struct.pack(endian + 'IIQQIIIIIHH', 0x65617407, 0, 0, 0, 0, TC['NOTIFY'] << 16,
                               4242, DEVS[0][0] << 20 | DEVS[0][1], cpu, 0, len(pdu)) + pdu
    return out


def gen_blktrace(ev):
    notes = blk_process_notes('<')
    single = notes[0] + notes[1] + b''.join(blk_record(e, '<') for e in ev)
    write('blktrace.bin', single)
    write('blktrace.bin.gz', single, gz=True)
    notes_be = blk_process_notes('>')
    write('blktrace-be.bin', notes_be[0] + notes_be[1] +
          b''.join(blk_record(e, '>') for e in ev))
    for cpu in (0, 1):
        write('percpu.blktrace.%d' % cpu,
              notes[cpu] + b''.join(blk_record(e, '<') for e in ev if e['cpu'] == cpu))


def main():
    gen_msr()
    gen_spc()
    gen_alibaba()
    gen_tencent()
    gen_disksim()
    gen_blkreplay()
    gen_fio()
    gen_vscsi()
    gen_vscsi_csv()
    gen_systor()
    gen_fiu()
    gen_etw()
    gen_biosnoop()
    ev = blk_events()
    gen_blkparse(ev)
    gen_blktrace(ev)
    gen_ftrace(ev)


if __name__ == '__main__':
    main()
