# SPDX-License-Identifier: GPL-2.0
"""The races around an answered-later RUN, widened by the test bed's
injected delays (kmod/kbench_fault.c: fault_point, fault_delay_ms,
fault_hits); run by concurrent_test.py --faults, with its Tap.

Each test would fail on a module that has the race: rmmod while a RUN
starts, a requester killed (a fatal signal) while its RUN starts, the
requester closed while a group's later CPU is still finishing, a group
whose later CPU starts late stopping at one deadline, a group's answer
larger than the room progress leaves free (made small) to a requester
that reads nothing, a group's answer with a message not allocated
fetched again by run-get, a socket
that binds the port of a closed requester before the answer is sent, a
socket that binds it before the release notifier has run and sends a
RUN of its own, a
request over the memory budget next to a kept run, a run as large as the
budget allows started right after a killed one's process was reaped, a
RUN next to a run that is ending refused at once while a family
registers, a run a dump holds kept when the budget evicts, eight
RUNs in one sendmsg() each answered, sixteen RUNs one after another on
one small socket read only at the end each answered, requesters closed
and killed while their runs are in a routine's setup (neither waits: the
release only aborts; the CPUs refuse with -EAGAIN, naming the ending
run, until it ends), and 30 rmmods during starting and running RUNs and
groups.
"""
import errno
import functools
import json
import os
import re
import signal
import socket
import struct
import subprocess
import threading
import time

from ynl_common import answer, run_answer


def run_answer_get(ynl, run_id):
    """`ynl --dump run-get` of @run_id: (its answer() or None, diag)."""
    reply, diag = ynl.json('--dump', 'run-get', request={'id': run_id})
    return answer(reply), diag


PARAMS = '/sys/module/kbench/parameters/'
# kmod/kbench_internal.h: enum kbench_fault_point, as bits of fault_point
START, GROUP_END, ANSWER, GROUP_LATE, RELEASE = \
    1 << 1, 1 << 2, 1 << 3, 1 << 4, 1 << 5
TESTS = 19

NETLINK_GENERIC = 16
NLM_F_REQUEST, NLM_F_ACK, NLM_F_DUMP = 1, 4, 0x300
NLMSG_ERROR = 2
SOL_NETLINK, NETLINK_CAP_ACK, NETLINK_EXT_ACK = 270, 10, 11
GENL_ID_CTRL, CTRL_CMD_GETFAMILY = 16, 3
CTRL_ATTR_FAMILY_ID, CTRL_ATTR_FAMILY_NAME = 1, 2
KBENCH_CMD_RUN, KBENCH_CMD_SAMPLES_GET = 4, 5
A_RUN_ID, A_SAMPLES_RUN_ID = 7, 1
SETUP_TEST = '/lib/kbench/kbench_setup_test.ko'
GENL_TEST = '/lib/kbench/kbench_genl_test.ko'
ST_PARAMS = '/sys/module/kbench_setup_test/parameters/'
A_ROUTINE, A_CPU, A_SAMPLES, A_ITERATIONS, A_TARGET_NS, A_WARMUP = \
    1, 2, 3, 4, 5, 6
A_CPUS = 24


def setp(name, value, params=PARAMS):
    """Module parameter @name of kbench (or of @params' module) := @value."""
    with open(params + name, 'w') as f:
        f.write(str(value))


def getp(name, params=PARAMS):
    """Module parameter @name as a number (a bool's Y/N as 1/0)."""
    with open(params + name) as f:
        v = f.read().strip()
    return {'Y': 1, 'N': 0}.get(v) if v in ('Y', 'N') else int(v)


def wait_hits(before, timeout=60):
    """Until a thread has reached the fault point after @before hits."""
    end = time.time() + timeout
    while time.time() < end:
        if getp('fault_hits') > before:
            return True
        time.sleep(0.05)
    return False


def wait_threads(h, want, timeout=120, step=0.05):
    """Until a kbench thread runs on every CPU of @want (a set of CPU
    numbers as text): True, or False after @timeout seconds."""
    end = time.time() + timeout
    while time.time() < end and not want <= h.run_threads():
        time.sleep(step)
    return want <= h.run_threads()


def wait_no_thread(h, cpu, timeout=120):
    """Until no kbench thread runs on @cpu (a test that failed left one
    waiting out its delay: the next test starts without it)."""
    end = time.time() + timeout
    while time.time() < end and cpu in h.run_threads():
        time.sleep(0.1)


def attr(kind, payload):
    n = 4 + len(payload)
    return struct.pack('HH', n, kind) + payload + b'\0' * ((4 - n % 4) % 4)


def attrs(data):
    out = {}
    while len(data) >= 4:
        n, kind = struct.unpack_from('HH', data)
        if n < 4:
            break
        out.setdefault(kind & 0x3fff, data[4:n])
        data = data[(n + 3) & ~3:]
    return out


class Nl:
    """A raw generic netlink socket: the tests need its port and its fd."""

    def __init__(self, port=0):
        self.s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW,
                               NETLINK_GENERIC)
        self.s.setsockopt(SOL_NETLINK, NETLINK_EXT_ACK, 1)
        self.s.setsockopt(SOL_NETLINK, NETLINK_CAP_ACK, 1)
        self.s.bind((port, 0))
        self.port = self.s.getsockname()[0]
        self.seq = 100

    def send(self, family, cmd, payload, flags=NLM_F_REQUEST | NLM_F_ACK):
        self.seq += 1
        body = struct.pack('BBH', cmd, 1, 0) + payload
        self.s.send(struct.pack('IHHII', 16 + len(body), family, flags,
                                self.seq, self.port) + body)
        return self.seq

    def recv(self, timeout):
        """[(type, seq, error or None, payload)] of one datagram, or []."""
        self.s.settimeout(timeout)
        try:
            data = self.s.recv(1 << 20)
        except socket.timeout:
            return []
        msgs = []
        while len(data) >= 16:
            n, kind, _, seq, _ = struct.unpack_from('IHHII', data)
            body = data[16:n]
            err = struct.unpack_from('i', body)[0] if kind == NLMSG_ERROR \
                else None
            msgs.append((kind, seq, err, body))
            data = data[(n + 3) & ~3:]
        return msgs

    def family(self):
        self.send(GENL_ID_CTRL, CTRL_CMD_GETFAMILY,
                  attr(CTRL_ATTR_FAMILY_NAME, b'kbench\0'), NLM_F_REQUEST)
        for kind, _, _, body in self.recv(10):
            if kind == GENL_ID_CTRL:
                return struct.unpack('H', attrs(body[4:])[CTRL_ATTR_FAMILY_ID][:2])[0]
        raise RuntimeError('no kbench family')

    def close(self):
        self.s.close()


def n_attrs(samples):
    """10 iterations a window; or, for more than 1000 samples, N adaptive
    with windows of 1 ms: a run of minutes (the default 20 us target
    made 300000 samples a run of seconds in plain TCG)."""
    if samples <= 1000:
        return attr(A_ITERATIONS, struct.pack('I', 10))
    return attr(A_TARGET_NS, struct.pack('I', 1000000))


def run_req(cpu, samples=5, routine=b'add_chain', fixed=False):
    """A RUN of @routine on @cpu (n_attrs() says how long; @fixed: 10
    iterations a window whatever the samples)."""
    return (attr(A_ROUTINE, routine + b'\0') +
            attr(A_CPU, struct.pack('I', cpu)) +
            attr(A_SAMPLES, struct.pack('I', samples)) +
            (n_attrs(1) if fixed else n_attrs(samples)) +
            attr(A_WARMUP, struct.pack('I', 0)))


def group_req(cpus, samples=5):
    """A RUN on @cpus together (n_attrs() says how long)."""
    return (attr(A_ROUTINE, b'add_chain\0') +
            b''.join(attr(A_CPUS, struct.pack('I', c)) for c in cpus) +
            attr(A_SAMPLES, struct.pack('I', samples)) + n_attrs(samples) +
            attr(A_WARMUP, struct.pack('I', 0)))


def answers(nl, fam, seqs, timeout):
    """{seq: [(kind, err, extack message)]} of what @nl received for
    @seqs, in order, until each has its ack (or after @timeout s)."""
    got = {s: [] for s in seqs}
    end = time.time() + timeout
    while time.time() < end and not all(
            any(k == NLMSG_ERROR for k, _, _ in got[s]) for s in seqs):
        for kind, seq, err, body in nl.recv(max(0.1, end - time.time())):
            if seq in got:
                got[seq].append((kind, err, ext_msg(body)
                                 if kind == NLMSG_ERROR else ''))
    return got


EAGAIN_RETRY_S = 60


def refused_eagain(got):
    """@got (answers() or answers_raw()) holds a -EAGAIN ack: a run that
    is ending holds what the RUN needs (kbenchctl retries those)."""
    return any(k == NLMSG_ERROR and e == -errno.EAGAIN for k, e, _ in got)


def sent_closed(nl, fam, h, cpu):
    """A RUN of 300000 samples on @cpu sent on @nl, sent again while it is
    refused with -EAGAIN (a run that is ending holds the memory or the
    CPU, as kbenchctl does, for up to a minute); what it got within 3 s,
    then @nl closed (which ends the run if it started) and @cpu's thread
    gone: (what it got, the extack messages of its refusals)."""
    end = time.time() + EAGAIN_RETRY_S
    while True:
        seq = nl.send(fam, KBENCH_CMD_RUN, run_req(cpu, 300000))
        got = answers(nl, fam, [seq], 3)[seq]
        if not refused_eagain(got) or time.time() > end:
            break
        time.sleep(0.1)
    nl.close()
    wait_no_thread(h, str(cpu))
    return got, [m for k, e, m in got if k == NLMSG_ERROR and e]


def check_freed(tap, ynl, h, passed, what, diag):
    """The TAP line @what: @passed and both CPUs free (@diag and the
    CPUs' state when not)."""
    ok, free = h.cpus_free(ynl)
    tap.check(passed and ok, what, f'{diag}\n{free}')


def ext_msg(body):
    """The extack message of an NLMSG_ERROR with NETLINK_CAP_ACK."""
    return attrs(body[4 + 16:]).get(1, b'').rstrip(b'\0').decode()


def loaded_with(args):
    """@test with kbench loaded with the module arguments @args, and
    loaded plain again after it, whatever it did."""
    def wrap(test):
        @functools.wraps(test)
        def run(tap, ynl, h):
            h.reload(args)
            try:
                test(tap, ynl, h)
            finally:
                h.reload()
        return run
    return wrap


# two runs of add_chain at 300000 samples, about 9.6 MB each, do not fit
budget_limited = loaded_with('store_bytes_max=16000000')


def rmmod_during_start(tap, ynl, h, cpus):
    """rmmod while a RUN starts (its CPUs claimed, no thread yet), the
    thread then waiting at its answer after the routine references are
    dropped: rmmod must wait for the thread, not free its code."""
    setp('fault_point', START | ANSWER)
    setp('fault_delay_ms', 3000)
    before = getp('fault_hits')
    req = {'routine': ['add_chain'], 'samples': 5, 'iterations': 10,
           'warmup': 0}
    req.update({'cpus': cpus} if len(cpus) > 1 else {'cpu': cpus[0]})
    p = subprocess.Popen(ynl.cmd('--do', 'run', request=req),
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         text=True)
    hit = wait_hits(before)
    rm = subprocess.run(['rmmod', 'kbench'], capture_output=True, text=True)
    out = p.communicate(timeout=120)[0]
    left = h.run_threads()
    ok, diag = h.dmesg_clean()
    tap.check(hit and rm.returncode == 0 and ok and not left and
              p.returncode == 1 and 'kbench is being unloaded' in out,
              f'rmmod while a RUN on cpus {cpus} starts: unloads after its '
              'thread, no kbench thread left, the requester told '
              "'kbench is being unloaded', log clean",
              f'hit {hit} rmmod {rm.returncode} {rm.stderr} threads {left}\n'
              f'run {p.returncode} {out}\n{diag}')
    h.reload()


def killed_while_starting(tap, ynl, h, cpus):
    """A fatal signal while the RUN starts: kthread_create_on_cpu() says
    -EINTR; the socket, shared with another process, gets the answer."""
    setp('fault_point', START)
    setp('fault_delay_ms', 2000)
    nl = Nl()
    fam = nl.family()
    payload = run_req(cpus[0]) if len(cpus) == 1 else group_req(cpus)
    before = getp('fault_hits')
    seq = nl.seq + 1
    pid = os.fork()
    if not pid:
        nl.send(fam, KBENCH_CMD_RUN, payload)
        os._exit(0)
    hit = wait_hits(before)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    setp('fault_point', 0)
    got = answers(nl, fam, [seq], 60)[seq]
    nl.close()
    acks = [(e, m) for k, e, m in got if k == NLMSG_ERROR]
    # kthreadd may create the thread before the creator's killable wait
    # looks at the signal: then the run goes on and is answered as usual
    intr = len(acks) == 1 and acks[0][0] == -4 and \
        'interrupted by a signal' in acks[0][1]
    ran = len(acks) == 1 and acks[0][0] == 0 and got[0][0] == fam
    check_freed(tap, ynl, h, hit and (intr or ran),
                f'the sender of a RUN on cpus {cpus} killed while it '
                "starts: the socket's other holder gets the error and 'run "
                "interrupted by a signal' (or, the thread made before the "
                'signal was seen, the run\'s answer), the CPUs free'
                + ('' if intr or not ran else ' [the run\'s answer]'),
                f'hit {hit} got {got}')


def closed_while_group_ends(tap, ynl, h):
    """The requester closed while the group's second CPU is still
    finishing (held at an injected delay of two minutes) and the first
    has exited: the close ends it (the delay gives way to the abort), and
    waits for nothing: the requester is reaped, then the thread goes."""
    setp('fault_point', GROUP_END)
    setp('fault_delay_ms', 120000)
    before = getp('fault_hits')
    p = subprocess.Popen(ynl.cmd('--do', 'run', request={
        'routine': ['add_chain'], 'cpus': [0, 1], 'samples': 5,
        'iterations': 10, 'warmup': 0}), stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True)
    hit = wait_hits(before)
    end = time.time() + 60
    while time.time() < end and h.run_threads() != {'1'}:
        time.sleep(0.05)
    only1 = h.run_threads() == {'1'}
    p.send_signal(signal.SIGKILL)
    p.wait()
    # the fault point still set: only the abort ends the thread's delay
    wait_no_thread(h, '1', 60)
    left = h.run_threads()
    setp('fault_point', 0)
    wait_no_thread(h, '1')
    check_freed(tap, ynl, h, hit and only1 and not left,
                'requester killed while the second CPU of its group '
                'finishes (the first exited): reaped, the abort ends that '
                'CPU (its delay still set), no kbench thread left, both '
                'CPUs free',
                f'hit {hit} only cpu1 {only1} left {left}')


@loaded_with('max_run_ms=7000')
def group_one_deadline(tap, ynl, h):
    """A group of two CPUs whose second starts 2 s late (injected, before
    its setup; slept in 10 ms slices, each at least a jiffy late, so
    longer), run until max_run_ms (7 s): both stop at the group's one
    deadline, within a round of each other.  With a deadline per CPU from
    its own start, the first stopped 2 s or more before the second, which
    went on alone, every window waiting out the rendezvous limit with
    interrupts off for a CPU that would not come."""
    setp('fault_point', GROUP_LATE)
    setp('fault_delay_ms', 2000)
    run, diag = run_answer(ynl, {
        'routine': ['add_chain'], 'cpus': [0, 1], 'samples': 300000,
        'target-ns': 1000000, 'warmup': 0, 'skew-ns': 20000000})
    setp('fault_point', 0)
    cr = run.get('cpu-run', []) if run else []
    taken = [[r.get('samples') for r in c.get('result', [])] for c in cr]
    # the lockstep holds the CPUs within a window; the one deadline,
    # seen at each CPU's next check, within a round more
    close = len(taken) == 2 and len(taken[0]) == 1 and \
        len(taken[1]) == 1 and None not in taken[0] + taken[1] and \
        abs(taken[0][0] - taken[1][0]) <= 3
    check_freed(tap, ynl, h, close and run.get('status') == 'timeout',
                'a 2-CPU group, its second CPU 2 s late, run into max_run_ms: '
                'both CPUs stop at the one deadline (samples within 3 of '
                'each other), status timeout',
                f'samples per CPU {taken} status '
                f'{run.get("status") if run else None}\n{diag}')
    print(f'# samples per CPU {taken}', flush=True)


@loaded_with('max_run_ms=12000')
def group_answer_room(tap, ynl, h):
    """A requester that reads nothing during a group's run, its receive
    queue small (SO_RCVBUF 8192: 16 KiB charged), progress notifications
    told to leave only 512 bytes free (fault_room: as the 32 KiB kept free
    stand to a 32-CPU group's reply of about 100 KB): the reply and its
    ack still arrive, since progress leaves room for the reply it will
    send, however large; with a fixed room the notifications filled the
    queue to within 512 bytes, the reply went in over it and the ack was
    dropped (ENOBUFS)."""
    setp('fault_room', 512)
    nl = Nl()
    nl.s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8192)
    fam = nl.family()
    seq = nl.send(fam, KBENCH_CMD_RUN, group_req([0, 1], 300000))
    started = wait_threads(h, {'0', '1'})
    # the run times out at 12 s: progress every 250 ms until then
    wait_no_thread(h, '0', 60)
    wait_no_thread(h, '1', 60)
    try:
        got = answers(nl, fam, [seq], 30)[seq]
    except OSError as e:
        got = [('recv', e.errno, str(e))]
    nl.close()
    setp('fault_room', 0)
    acks = [(e, m) for k, e, m in got if k == NLMSG_ERROR]
    replies = [k for k, _, _ in got if k == fam]
    check_freed(tap, ynl, h, started and replies == [fam] * 3 and
                acks == [(0, '')],
                "a group's requester that reads nothing, its queue 16 KiB, "
                'progress told to leave 512 bytes: the answer (a message '
                "per CPU and the group's) and its ack arrive, no ENOBUFS",
                f'started {started} got {got}')


NLMSGERR_ATTR_COOKIE = 3


def answer_nomem(tap, ynl, h):
    """A group's answer whose first message cannot be allocated
    (fault_nomem bit 0: CPU 0's): CPU 1's message and the group's still
    come, the ack says -ENOMEM with the group's id as its extack cookie
    and in its message, and run-get of that id gives the whole answer:
    the results were stored, not lost."""
    setp('fault_nomem', 1)
    nl = Nl()
    fam = nl.family()
    try:
        seq = nl.send(fam, KBENCH_CMD_RUN, group_req([0, 1], 20))
        got = []
        end = time.time() + 120
        while time.time() < end and not any(k == NLMSG_ERROR
                                            for k, _, _, _ in got):
            got += [m for m in nl.recv(5) if m[1] == seq]
    finally:
        setp('fault_nomem', 0)
        nl.close()
    replies = [b for k, _, _, b in got if k == fam]
    acks = [(e, attrs(b[4 + 16:])) for k, _, e, b in got if k == NLMSG_ERROR]
    cookie = acks[0][1].get(NLMSGERR_ATTR_COOKIE) if acks else None
    gid = struct.unpack('Q', cookie)[0] if cookie and len(cookie) == 8 else 0
    msg = acks[0][1].get(1, b'').rstrip(b'\0').decode() if acks else ''
    again, diag = run_answer_get(ynl, gid)
    cr = again.get('cpu-run', []) if again else []
    check_freed(tap, ynl, h, len(replies) == 2 and len(acks) == 1 and
                acks[0][0] == -errno.ENOMEM and gid > 0 and
                f'run-get id {gid}' in msg and
                [c.get('cpu') for c in cr] == [0, 1] and
                cr[0].get('id') == gid and 'skew-max' in again,
                "a group's answer, its first message not allocated: the "
                'other two arrive, the ack says -ENOMEM, cookie and message '
                'name the group id, run-get of it gives both CPUs and the '
                'skew',
                f'replies {len(replies)} acks {acks} gid {gid} msg {msg!r}\n'
                f'{diag}')


def port_reused(tap, ynl, h):
    """A socket that binds the port of a closed requester before the
    answer is sent gets nothing of that requester's."""
    setp('fault_point', ANSWER)
    setp('fault_delay_ms', 3000)
    port = 0x6b62_0029
    a = Nl(port)
    fam = a.family()
    before = getp('fault_hits')
    seq = a.send(fam, KBENCH_CMD_RUN, run_req(0))
    hit = wait_hits(before)
    a.close()
    b, end = None, time.time() + 30
    while b is None and time.time() < end:
        try:
            b = Nl(port)
        except OSError:
            time.sleep(0.05)
    # the run's thread gone, its answer was sent or never will be
    wait_no_thread(h, '0')
    got = b.recv(1) if b else None
    if b:
        b.close()
    setp('fault_point', 0)
    check_freed(tap, ynl, h, hit and b is not None and got == [],
                "a socket bound to a closed requester's port while its "
                'answer is pending: gets nothing',
                f'hit {hit} bound {b is not None} got {got} (seq {seq})')


def port_reused_before_release(tap, ynl, h):
    """netlink_release() frees a socket's port before the release
    notifier runs: another socket that binds the port in between (held
    open by the test bed at kbench's notifier) and sends a RUN keeps its
    run, which is answered (here by the unload's ack), while the closed
    socket's own run ends.  Matched by port, the old socket's release
    ended the new socket's run, which then answered nobody."""
    port = 0x6b62_002a
    a = Nl(port)
    fam = a.family()
    a.send(fam, KBENCH_CMD_RUN, run_req(0, 300000))
    started = wait_threads(h, {'0'})
    setp('fault_point', RELEASE)
    setp('fault_delay_ms', 120000)
    before = getp('fault_hits')
    closer = threading.Thread(target=a.close)
    closer.start()
    hit = wait_hits(before)
    b, end = None, time.time() + 30
    while hit and b is None and time.time() < end:
        try:
            b = Nl(port)
        except OSError:
            time.sleep(0.05)
    seq = b.send(fam, KBENCH_CMD_RUN, run_req(1, 300000)) if b else None
    b_started = b is not None and wait_threads(h, {'1'})
    # the notifier goes on, the close returns
    setp('fault_point', 0)
    closer.join(120)
    wait_no_thread(h, '0')
    # the second socket's run goes on until rmmod ends it, and it is told
    b_alive = '1' in h.run_threads()
    rm = subprocess.run(['rmmod', 'kbench'], capture_output=True, text=True)
    got = answers(b, fam, [seq], 30)[seq] if b else []
    if b:
        b.close()
    h.reload()
    told = [m for k, e, m in got if k == NLMSG_ERROR and e]
    tap.check(started and hit and b_started and not closer.is_alive() and
              b_alive and rm.returncode == 0 and told and
              'kbench is being unloaded' in told[0],
              "a socket that binds a closed requester's port before the "
              "release notifier and sends a RUN: its run goes on after the "
              "old socket's release and is answered",
              f'started {started} hit {hit} second started {b_started} '
              f'closed {not closer.is_alive()} second run alive {b_alive} '
              f'rmmod {rm.returncode} {rm.stderr.strip()} got {got}')


@budget_limited
def budget_refusal_keeps(tap, ynl, h):
    """A RUN over the budget even after every kept run went is refused
    before a kept run is evicted."""
    kept, diag = ynl.json('--do', 'run', request={
        'routine': ['add_chain'], 'cpu': 0, 'samples': 5,
        'iterations': 10, 'warmup': 0})
    rid = kept and kept.get('id')
    long = subprocess.Popen(ynl.cmd('--do', 'run', request={
        'routine': ['add_chain'], 'cpu': 1, 'samples': 300000,
        'warmup': 0}), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        text=True)
    wait_threads(h, {'1'}, step=0.1)
    rc, out, err = ynl('--do', 'run', request={
        'routine': ['add_chain'], 'cpu': 0, 'samples': 400000,
        'warmup': 0})
    count, d2 = h.samples_of(ynl, rid) if rid else (None, diag)
    long.send_signal(signal.SIGKILL)
    long.wait()
    tap.check(rc == 1 and 'store_bytes_max reached' in out + err and
              count and sum(count.values()) == 10,
              'a RUN over store_bytes_max next to a run in flight: refused, '
              'the kept run still has its samples',
              f'run {rc} {out}{err}\nkept {rid}: {count} {d2}')


@budget_limited
def budget_after_kill(tap, ynl, h):
    """A run that takes most of the budget, its process killed and reaped:
    its thread may still be ending (the socket's release only aborts it)
    and the RUN is refused with -EAGAIN and sent again, as kbenchctl
    does, or its memory is back already: a run as large starts, it is
    never refused for the budget."""
    # add_chain, 300000 samples: about 9.6 MB charged; two do not fit
    nl = Nl()
    fam = nl.family()
    pid = os.fork()
    if not pid:
        child = Nl()
        child.send(fam, KBENCH_CMD_RUN, run_req(1, 300000))
        # its socket stays open (progress comes, read or not) until killed
        signal.pause()
        os._exit(0)
    started = wait_threads(h, {'1'})
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    # refused at once, or started: then closing the socket ends it
    got, refused = sent_closed(nl, fam, h, 1)
    check_freed(tap, ynl, h, started and not refused,
                'a RUN as large as the budget allows, sent as soon as the '
                'killed process of another was reaped: not refused',
                f'started {started} got {got}')


@budget_limited
def budget_ending_no_wait(tap, ynl, h):
    """A run that ended (its CPU went offline) but whose thread still
    holds its memory, held at its answer: a RUN that needs that memory is
    refused at once (-EAGAIN) with the ending run named, for the client to
    retry, and nothing waits under genetlink's lock meanwhile: a module
    registering a generic netlink family loads and CTRL_CMD_GETFAMILY is
    answered while the ending run is still held.  A RUN that waited in
    its handler for the ending run held cb_lock: the registration queued
    behind it, and every generic netlink request behind that."""
    setp('fault_point', ANSWER)
    setp('fault_delay_ms', 120000)
    a, b = Nl(), Nl()
    fam = a.family()
    sa = a.send(fam, KBENCH_CMD_RUN, run_req(1, 300000))
    started = wait_threads(h, {'1'})
    before = getp('fault_hits')
    h.online(1, False)
    hit = wait_hits(before, 60)
    gb = {}
    sender = threading.Thread(target=lambda: gb.update(answers(
        b, fam, [b.send(fam, KBENCH_CMD_RUN, run_req(0, 300000))], 60)))
    sender.start()
    load = subprocess.Popen(['insmod', GENL_TEST], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    try:
        load.wait(60)
    except subprocess.TimeoutExpired:
        pass
    loaded = load.returncode == 0
    c = Nl()
    try:
        c.family()
        resolved = True
    except (RuntimeError, OSError):
        resolved = False
    c.close()
    sender.join(60)
    # kbenchctl, refused the same way, says so, waits and retries
    log = '/tmp/kbenchctl-ending.out'
    with open(log, 'w') as f:
        ctl = subprocess.Popen(['kbenchctl', 'run', 'add_chain', '--cpu',
                                '0', '--samples', '300000', '--iterations',
                                '10', '--warmup', '0'], stdout=f,
                               stderr=subprocess.STDOUT)
    end = time.time() + 60
    while time.time() < end and ctl.poll() is None and \
            'is ending' not in open(log).read():
        time.sleep(0.05)
    # all of that while the ending run was still held at its answer
    held = '1' in h.run_threads()
    setp('fault_point', 0)
    # the ending run's memory back, kbenchctl's retry starts its run
    ctl_ran = wait_threads(h, {'0'}, 60)
    ctl.kill()
    ctl.wait()
    ctl_out = open(log).read()
    ctl_waited = re.search(r'run \d+ is ending, retry: waiting up to 60 s',
                           ctl_out) is not None
    out = load.communicate(timeout=120)[0]
    subprocess.run(['rmmod', 'kbench_genl_test'], capture_output=True)
    h.online(1, True)
    ga = answers(a, fam, [sa], 30)[sa]
    a.close()
    got = next(iter(gb.values()), [])
    b.close()
    refused = [(e, m) for k, e, m in got if k == NLMSG_ERROR]
    named = len(refused) == 1 and refused[0][0] == -11 and \
        re.search(r'run \d+ is ending, retry', refused[0][1]) is not None
    wait_no_thread(h, '0')
    check_freed(tap, ynl, h, started and hit and named and loaded and
                resolved and held and ctl_waited and ctl_ran,
                'a RUN that needs the memory of a run that is ending (its '
                'CPU offline, its answer held): refused at once with '
                "'run N is ending, retry' (-EAGAIN), a family registers "
                'and CTRL_CMD_GETFAMILY is answered meanwhile; kbenchctl '
                'says it waits and starts its run once the other ended',
                f'started {started} hit {hit} second {got} insmod '
                f'{load.returncode} {out.strip()} getfamily {resolved} '
                f'ending run held throughout {held}\nkbenchctl waited '
                f'{ctl_waited} ran {ctl_ran}: {ctl_out}\nfirst {ga}')


def ran_id(nl, fam, seq, timeout=120):
    """The id of the run RUN @seq made (its reply's id), or None."""
    for kind, err, body in answers_raw(nl, [seq], timeout)[seq]:
        if kind == fam:
            return struct.unpack('I', attrs(body[4:]).get(A_RUN_ID,
                                                          b'\0' * 4))[0]
    return None


def ran_id_retrying(nl, fam, payload, timeout=120):
    """ran_id() of a RUN of @payload, sent again while it is refused with
    -EAGAIN (a run that is ending, as kbenchctl retries), for up to a
    minute."""
    end = time.time() + EAGAIN_RETRY_S
    while True:
        seq = nl.send(fam, KBENCH_CMD_RUN, payload)
        got = answers_raw(nl, [seq], timeout)[seq]
        if not refused_eagain(got) or time.time() > end:
            break
        time.sleep(0.1)
    for kind, err, body in got:
        if kind == fam:
            return struct.unpack('I', attrs(body[4:]).get(A_RUN_ID,
                                                          b'\0' * 4))[0]
    return None


def answers_raw(nl, seqs, timeout):
    """As answers(), the payloads instead of the extack messages."""
    got = {s: [] for s in seqs}
    end = time.time() + timeout
    while time.time() < end and not all(
            any(k == NLMSG_ERROR for k, _, _ in got[s]) for s in seqs):
        for kind, seq, err, body in nl.recv(max(0.1, end - time.time())):
            if seq in got:
                got[seq].append((kind, err, body))
    return got


@loaded_with('store_bytes_max=16000000 max_run_ms=2000')
def pinned_survives_eviction(tap, ynl, h):
    """A stored run whose samples a dump is reading (its first page read,
    the rest not), the oldest: a RUN that needs the memory of the runs
    stored after it evicts those and not the one the dump holds, whose
    samples a later samples-get still has.  Evicting oldest first, the
    budget took the held run out of the store (it freed nothing while the
    dump held it) and samples-get said 'no stored run with this id'."""
    a = Nl()
    fam = a.family()
    # 20000 samples: a dump of many pages; the others as large as the
    # budget allows one of (max_run_ms ends them, their memory kept)
    pinned = ran_id(a, fam, a.send(fam, KBENCH_CMD_RUN,
                                   run_req(0, 20000, fixed=True)))
    big = ran_id(a, fam, a.send(fam, KBENCH_CMD_RUN, run_req(1, 300000)))
    d = Nl()
    d.s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8192)
    d.send(fam, KBENCH_CMD_SAMPLES_GET,
           attr(A_SAMPLES_RUN_ID, struct.pack('I', pinned or 0)),
           NLM_F_REQUEST | NLM_F_DUMP)
    first = d.recv(30)
    third = ran_id_retrying(a, fam, run_req(1, 300000))
    d.close()
    a.close()
    count, diag = h.samples_of(ynl, pinned) if pinned else (None, '')
    big_gone, _ = h.samples_of(ynl, big) if big else (None, '')
    tap.check(pinned is not None and big is not None and bool(first) and
              third is not None and count is not None and
              sum(count.values()) > 0 and big_gone is None,
              'a run a dump holds, the oldest stored: a RUN that needs the '
              'memory evicts the runs after it, not that one, whose samples '
              'a later samples-get still has',
              f'pinned {pinned} big {big} third {third} first page '
              f'{bool(first)} pinned samples {count} {diag} big after '
              f'{big_gone}')


def batched_eight(tap, ynl, h):
    """Eight RUNs in one sendmsg(), each with NLM_F_ACK, alternating the
    two CPUs: every one is answered, once; a RUN that ran gets its reply
    before its ack, one refused gets -EBUSY and its message."""
    nl = Nl()
    fam = nl.family()
    batch, seqs = b'', []
    for i in range(8):
        nl.seq += 1
        body = struct.pack('BBH', KBENCH_CMD_RUN, 1, 0) + run_req(i % 2)
        batch += struct.pack('IHHII', 16 + len(body), fam,
                             NLM_F_REQUEST | NLM_F_ACK, nl.seq,
                             nl.port) + body
        seqs.append(nl.seq)
    nl.s.send(batch)
    got = answers(nl, fam, seqs, 120)
    nl.close()
    bad = []
    for seq in seqs:
        acks = [(e, m) for k, e, m in got[seq] if k == NLMSG_ERROR]
        replies = [i for i, (k, _, _) in enumerate(got[seq]) if k == fam]
        if len(acks) != 1:
            bad.append(f'{seq}: {len(acks)} acks')
        elif acks[0][0] == 0 and replies != [0]:
            bad.append(f'{seq}: acked without its reply first')
        elif acks[0][0] and (acks[0][0] != -16 or
                             'another run is using' not in acks[0][1]):
            bad.append(f'{seq}: {acks[0]}')
    ran = sum(1 for s in seqs
              if any(k == NLMSG_ERROR and not e for k, e, _ in got[s]))
    wait_no_thread(h, '0')
    wait_no_thread(h, '1')
    tap.check(not bad and ran >= 2,
              'eight RUNs in one sendmsg() with NLM_F_ACK: eight answers, '
              f'one each ({ran} ran, the others -EBUSY with the message)',
              f'{bad}\n{got}')


NLMSG_DONE = 3


def wait_stored(nl, fam, run_id, timeout=60):
    """Until samples-get on @nl finds run @run_id stored (the run has
    ended, its CPU is free): True, or False after @timeout seconds."""
    end = time.time() + timeout
    while time.time() < end:
        nl.send(fam, KBENCH_CMD_SAMPLES_GET,
                attr(A_SAMPLES_RUN_ID, struct.pack('I', run_id)),
                NLM_F_REQUEST | NLM_F_DUMP)
        found, done = False, False
        while not done:
            msgs = nl.recv(10)
            if not msgs:
                break
            for kind, _, err, body in msgs:
                if kind == fam:
                    found = True
                elif kind in (NLMSG_DONE, NLMSG_ERROR):
                    done = True
                    found = found and not (
                        kind == NLMSG_ERROR and err or
                        kind == NLMSG_DONE and struct.unpack_from(
                            'i', body + b'\0' * 4)[0])
        if found:
            return True
        time.sleep(0.02)
    return False


def answers_per_socket(tap, ynl, h, k=16):
    """@k RUNs on one socket whose queue is small (SO_RCVBUF 4096: 8 KiB
    charged, room for a few answers: a reply, trimmed by netlink to its
    length, and an ack), sent one after another (each once
    the one before has run: stored, as samples-get on another socket
    sees), alternating the CPUs, by a client that reads nothing until the
    last was sent: every RUN gets its reply and its ack, none is lost and
    the socket is never flagged ENOBUFS.  With room kept per run, each
    run's answer was sent as it ended, one went over the queue's limit
    and every later one was dropped (ENOBUFS)."""
    watch = Nl()
    fam = watch.family()
    base = ran_id(watch, fam, watch.send(fam, KBENCH_CMD_RUN, run_req(0)))
    nl = Nl()
    nl.s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    seqs, ran = [], 0
    for i in range(k):
        seqs.append(nl.send(fam, KBENCH_CMD_RUN, run_req(i % 2)))
        if base is not None and wait_stored(watch, fam, base + 1 + i):
            ran += 1
    got = {s: [] for s in seqs}
    enobufs, end = 0, time.time() + 60
    while time.time() < end and not all(
            any(kd == NLMSG_ERROR for kd, _, _ in got[s]) for s in seqs):
        try:
            msgs = nl.recv(max(0.1, end - time.time()))
        except OSError as e:
            if e.errno != errno.ENOBUFS:
                raise
            enobufs += 1
            continue
        for kind, seq, err, body in msgs:
            if seq in got:
                got[seq].append((kind, err, ext_msg(body)
                                 if kind == NLMSG_ERROR else ''))
    nl.close()
    watch.close()
    bad = []
    for seq in seqs:
        acks = [(e, m) for kd, e, m in got[seq] if kd == NLMSG_ERROR]
        replies = [i for i, (kd, _, _) in enumerate(got[seq]) if kd == fam]
        if len(acks) != 1:
            bad.append(f'{seq}: {len(acks)} acks, {len(replies)} replies')
        elif acks[0][0] == 0 and replies != [0]:
            bad.append(f'{seq}: acked without its reply first')
        elif acks[0][0] and not acks[0][1]:
            bad.append(f'{seq}: refused without a message {acks[0]}')
    wait_no_thread(h, '0')
    wait_no_thread(h, '1')
    answered = sum(1 for s in seqs if any(kd == NLMSG_ERROR
                                          for kd, _, _ in got[s]))
    check_freed(tap, ynl, h, base is not None and not bad and not enobufs,
                f'{k} RUNs one after another on one socket of 8 KiB read '
                'only at the end: each answered (reply and ack, or a '
                f'refusal with its message), none lost, no ENOBUFS ({ran} '
                'seen stored before the next was sent)',
                f'base {base} enobufs {enobufs} answered {answered} of '
                f'{k}, the first {seqs[0]}: bad {bad}')


def task_state(tid):
    """The state letter of thread @tid of this process ('' when gone)."""
    try:
        with open(f'/proc/self/task/{tid}/stat') as f:
            return f.read().rsplit(')', 1)[1].split()[0]
    except (OSError, IndexError):
        return ''


def d_state_seen(tid, alive):
    """While @alive() is true, poll thread @tid's state: how many polls in
    a row at most saw it in D (uninterruptible sleep)."""
    run, most = 0, 0
    while alive():
        run = run + 1 if task_state(tid) == 'D' else 0
        most = max(most, run)
        time.sleep(0.001)
    return most


def release_only_aborts(tap, ynl, h):
    """Requesters whose runs are in a routine's setup, held there by
    kbench_setup_test's hold until the test lets it go (a setup that
    cannot be interrupted): one closes its socket, one is SIGKILLed.
    The release only aborts their runs, nobody waits: close() returns,
    and the killed process is reaped, while the setups are still held
    (the hold still set, both setups still inside, none returned).
    Meanwhile a RUN for either CPU, or for both, is refused with -EAGAIN
    and the ending run named ('run N is ending on this CPU (its
    requester closed), retry'), a module that registers a netlink
    notifier loads, and kbenchctl says it waits.  Once the hold is let
    go the runs end, kbenchctl's run starts and succeeds, a RUN on the
    other CPU succeeds, every setup is torn down, rmmod kbench unloads
    and the log is clean.  With close() waiting for the runs (an
    uninterruptible wait in the closing task), close() and the reap
    returned only after the hold gave up (90 s): the setups were no
    longer held by then."""
    ins = subprocess.run(['insmod', SETUP_TEST], capture_output=True,
                         text=True)
    if ins.returncode:
        tap.check(False, 'release_only_aborts: kbench_setup_test loads',
                  ins.stderr)
        return
    a = Nl()
    fam = a.family()
    # run ids count up: the next two are the held runs
    base = ran_id(a, fam, a.send(fam, KBENCH_CMD_RUN, run_req(0))) or 0
    s0 = getp('setups', ST_PARAMS)
    setp('hold', 1, ST_PARAMS)
    a.send(fam, KBENCH_CMD_RUN, run_req(0, routine=b'setup_test'))
    end = time.time() + 60
    while time.time() < end and getp('holding', ST_PARAMS) < 1:
        time.sleep(0.05)
    pid = os.fork()
    if not pid:
        # the parent's socket is the parent's to close: not held open here
        a.s.close()
        child = Nl()
        child.send(fam, KBENCH_CMD_RUN, run_req(1, routine=b'setup_test'))
        signal.pause()
        os._exit(0)
    while time.time() < end and getp('holding', ST_PARAMS) < 2:
        time.sleep(0.05)
    held = getp('holding', ST_PARAMS) == 2
    # (a) close(): returns while the setup is held, never seen in D
    closer = threading.Thread(target=a.close)
    closer.start()
    d_polls = d_state_seen(closer.native_id, closer.is_alive)
    closer.join()
    at_close = (getp('hold', ST_PARAMS), getp('holding', ST_PARAMS),
                getp('setups', ST_PARAMS) - s0)
    # (b) SIGKILL: reaped while the setup is held
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    at_reap = (getp('hold', ST_PARAMS), getp('holding', ST_PARAMS),
               getp('setups', ST_PARAMS) - s0)
    # (c) the CPUs of the ending runs: -EAGAIN, the ending run named
    c = Nl()
    seqs = [c.send(fam, KBENCH_CMD_RUN, run_req(0)),
            c.send(fam, KBENCH_CMD_RUN, run_req(1)),
            c.send(fam, KBENCH_CMD_RUN, group_req([0, 1]))]
    got = answers(c, fam, seqs, 60)
    c.close()
    refused = [[(e, m) for k, e, m in got[q] if k == NLMSG_ERROR]
               for q in seqs]
    why = '(its requester closed), retry'
    want = [[(-errno.EAGAIN, f'run {base + 1} is ending on this CPU {why}')],
            [(-errno.EAGAIN, f'run {base + 2} is ending on this CPU {why}')],
            [(-errno.EAGAIN,
              f'cpus: run {base + 1} is ending on CPU 0 {why}')]]
    # (d) a module that registers a netlink notifier loads meanwhile
    load = subprocess.Popen(['insmod', GENL_TEST, 'notifier=1'],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True)
    try:
        load.wait(60)
    except subprocess.TimeoutExpired:
        pass
    loaded = load.returncode == 0
    # kbenchctl, refused the same way, says so and waits
    log = '/tmp/kbenchctl-closed.out'
    with open(log, 'w') as f:
        ctl = subprocess.Popen(['kbenchctl', 'run', 'add_chain', '--cpu',
                                '0', '--samples', '100', '--iterations',
                                '100'], stdout=f, stderr=subprocess.STDOUT)
    end = time.time() + 60
    while time.time() < end and ctl.poll() is None and \
            'is ending' not in open(log).read():
        time.sleep(0.05)
    still = (getp('hold', ST_PARAMS), getp('holding', ST_PARAMS),
             getp('setups', ST_PARAMS) - s0)
    # (e) the hold let go: the runs end, kbenchctl's run succeeds
    setp('hold', 0, ST_PARAMS)
    try:
        ctl_rc = ctl.wait(120)
    except subprocess.TimeoutExpired:
        ctl.kill()
        ctl_rc = ctl.wait()
    ctl_out = open(log).read()
    ctl_waited = re.search(rf'run {base + 1} is ending on this CPU '
                           rf'\(its requester closed\), retry: waiting up '
                           r'to 60 s', ctl_out) is not None
    # taken once the run ended (a refusal after 60 s says it again); its
    # figures are the emulator's: a debug kernel under TCG may flag every
    # sample (exit 1, 'none of N samples valid'), which is no refusal
    ctl_ran = ctl_out.count('is ending') == 1 and (
        ctl_rc == 0 or (ctl_rc == 1 and 'samples valid' in ctl_out))
    wait_no_thread(h, '0')
    wait_no_thread(h, '1')
    e = Nl()
    after = ran_id(e, fam, e.send(fam, KBENCH_CMD_RUN, run_req(1)))
    e.close()
    counts = [getp('setups', ST_PARAMS) - s0,
              getp('teardowns', ST_PARAMS) - s0]
    out = load.communicate(timeout=120)[0]
    subprocess.run(['rmmod', 'kbench_genl_test'])
    subprocess.run(['rmmod', 'kbench_setup_test'])
    rm = subprocess.run(['rmmod', 'kbench'], capture_output=True, text=True)
    h.reload()
    ok, diag = h.dmesg_clean()
    tap.check(held and at_close == (1, 2, 0) and d_polls < 2 and
              at_reap == (1, 2, 0) and refused == want and loaded and
              still == (1, 2, 0) and ctl_ran and ctl_waited and
              after is not None and counts == [2, 2] and
              rm.returncode == 0 and ok,
              "requesters closed and SIGKILLed while their runs' setups "
              'are held: close() returns and the process is reaped with '
              'the setups still held (never seen in D); a RUN for those '
              "CPUs is refused, -EAGAIN 'run N is ending on this CPU (its "
              "requester closed), retry' naming the run; a notifier "
              'module loads and kbenchctl waits meanwhile; once let go '
              'kbenchctl and a RUN succeed, setups == teardowns, rmmod '
              'kbench unloads, log clean',
              f'held {held} at close (hold, holding, setups returned) '
              f'{at_close} D polls in a row {d_polls} at reap {at_reap} '
              f'refused {refused}\nwant {want}\ninsmod {load.returncode} '
              f'{out.strip()} while held {still}\nkbenchctl {ctl_rc} '
              f'waited {ctl_waited}: {ctl_out}\nrun after {after} '
              f'setups/teardowns {counts} rmmod {rm.returncode} '
              f'{rm.stderr.strip()}\n{diag}')


def rmmod_rounds(tap, ynl, h, rounds=30):
    """rmmod during a RUN that starts (its CPU claimed, no thread yet), a
    RUN that runs and a 2-CPU group that runs, in turn, @rounds times:
    every rmmod unloads, every requester is told, no kbench thread left."""
    bad, inside = [], 0
    for i in range(rounds):
        kind = ('start', 'run', 'group')[i % 3]
        nl = Nl()
        fam = nl.family()
        before = getp('fault_hits')
        sender = None
        if kind == 'start':
            # the RUN's doit waits at the fault point in the sender's
            # context: sent from a thread of its own, so that rmmod comes
            # while it waits there (and the delay ends early once rmmod
            # aborts the run), not after
            setp('fault_point', START)
            setp('fault_delay_ms', 3000)
            seq = nl.seq + 1
            sender = threading.Thread(target=nl.send, args=(
                fam, KBENCH_CMD_RUN, run_req(i % 2, 300000)))
            sender.start()
            there = wait_hits(before, 30)
        else:
            seq = nl.send(fam, KBENCH_CMD_RUN,
                          run_req(i % 2, 300000) if kind == 'run' else
                          group_req([0, 1], 300000))
            want = {str(i % 2)} if kind == 'run' else {'0', '1'}
            there = wait_threads(h, want, 60)
        # the doit still waiting at the fault point as rmmod starts (only
        # a host that stalls the guest for the delay's 3 s misses it)
        if sender and sender.is_alive():
            inside += 1
        rm = subprocess.run(['rmmod', 'kbench'], capture_output=True,
                            text=True)
        if sender:
            sender.join(60)
            there = there and not sender.is_alive()
        got = answers(nl, fam, [seq], 30)[seq]
        nl.close()
        left = h.run_threads()
        told = [m for k, e, m in got if k == NLMSG_ERROR and e]
        if not (there and rm.returncode == 0 and not left and
                not os.path.exists(PARAMS) and told and
                'kbench is being unloaded' in told[0]):
            bad.append(f'round {i} ({kind}): there {there} rmmod '
                       f'{rm.returncode} {rm.stderr.strip()} left {left} '
                       f'got {got}')
        h.reload()
    ok, diag = h.dmesg_clean()
    starts = len(range(0, rounds, 3))
    print(f'# rmmod came while the RUN waited in its start: {inside} of '
          f'{starts}', flush=True)
    tap.check(not bad and ok and (inside > 0 or not starts),
              f'{rounds} rmmods during starting and running RUNs and 2-CPU '
              'groups: each unloads, its requester told, no kbench thread '
              'left, log clean', '\n'.join(bad) + f'\nrmmod during a '
              f'start: {inside} of {starts}\n' + diag)


def notify_refused(tap, ynl, h):
    """A module that predates notify refuses the attribute (its policy's
    maxattr below it: -EINVAL, "Unknown attribute type", the attribute
    named; fault_no_notify makes this one refuse it so): kbenchctl asks
    again without it and takes the answer as the request's replies, one
    refusal in all, the same run as with notify."""
    def ctl():
        r = subprocess.run(['kbenchctl', '--json', 'run', 'add_chain',
                            '--cpu', '0', '--samples', '20',
                            '--iterations', '100', '--warmup', '0'],
                           capture_output=True, text=True, timeout=300)
        try:
            j = json.loads(r.stdout)
        except ValueError:
            j = {}
        return r, j
    before = getp('fault_hits')
    setp('fault_no_notify', 1)
    try:
        old, jo = ctl()
        refused = getp('fault_hits') - before
    finally:
        setp('fault_no_notify', 0)
    mid = getp('fault_hits')
    new, jn = ctl()
    again = getp('fault_hits') - mid

    def same(j):
        return j.get('routine') == 'add_chain' and \
            j.get('samples_taken') == 20 and j.get('status') == 'complete' and \
            j.get('run_id', 0) > 0
    check_freed(tap, ynl, h, old.returncode == 0 and same(jo) and
                refused == 1 and new.returncode == 0 and same(jn) and
                again == 0 and jn['run_id'] > jo['run_id'],
                'notify refused as a module older than it refuses it: '
                'kbenchctl asks again without it and gets the run '
                '(20 samples, complete) from the replies, one refusal; '
                'with notify accepted the same',
                f'refusals {refused} then {again}; exit {old.returncode} '
                f'{old.stderr.strip()} / {new.returncode} '
                f'{new.stderr.strip()}; keys {sorted(jo)[:8]}')


def run_all(tap, ynl, h, rounds=30):
    try:
        rmmod_during_start(tap, ynl, h, [0])
        rmmod_during_start(tap, ynl, h, [0, 1])
        killed_while_starting(tap, ynl, h, [0])
        killed_while_starting(tap, ynl, h, [0, 1])
        closed_while_group_ends(tap, ynl, h)
        group_one_deadline(tap, ynl, h)
        group_answer_room(tap, ynl, h)
        answer_nomem(tap, ynl, h)
        port_reused(tap, ynl, h)
        port_reused_before_release(tap, ynl, h)
        budget_refusal_keeps(tap, ynl, h)
        budget_after_kill(tap, ynl, h)
        budget_ending_no_wait(tap, ynl, h)
        pinned_survives_eviction(tap, ynl, h)
        batched_eight(tap, ynl, h)
        answers_per_socket(tap, ynl, h)
        release_only_aborts(tap, ynl, h)
        notify_refused(tap, ynl, h)
        rmmod_rounds(tap, ynl, h, rounds)
    finally:
        if os.path.exists(PARAMS + 'fault_point'):
            setp('fault_point', 0)
            setp('fault_nomem', 0)
            setp('fault_no_notify', 0)
        if os.path.exists(ST_PARAMS + 'hold'):
            setp('hold', 0, ST_PARAMS)
