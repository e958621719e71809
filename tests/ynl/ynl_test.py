#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The kernel's own ynl CLI drives the kbench family (inside the VM).

Usage: ynl_test.py CLI SPEC

CLI is tools/net/ynl/cli.py of linux-source-6.12 and SPEC our netlink spec:
nothing else tells the CLI about the family.  Each test runs the CLI as a
user would and checks its JSON output, or for a bad request its exit
status and the kernel's extack (message and attribute) it prints; and
the CLI's library (tools/net/ynl/lib beside it) drives a RUN with notify
to its result: the ack, the run-ntf and run-end-ntf notifications, run-get
by id.  Prints TAP; exits 1 if a test failed.  tests/ynl/run.sh boots the
VM for it.
"""
import inspect
import os
import sys
import textwrap
import time

import yaml

from ynl_common import Tap, Ynl, rejected


def ynl_family(cli, spec_path):
    """The ynl library beside @cli (tools/net/ynl/lib) with our spec, as
    the CLI builds it with --no-schema.  Its _ops() of 6.12 reads its next
    datagram with the attribute space of the last message's op, None after
    a notification (see ynl_ntf.py): rewritten to use the request's op,
    since a RUN's notifications may come before its ack."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(cli)))
    from lib import ynl as Y
    src = textwrap.dedent(inspect.getsource(Y.YnlFamily._ops))
    bad = 'NlMsgs(reply, attr_space=op.attr_set)'
    if bad in src:
        src = src.replace(bad, 'NlMsgs(reply, attr_space='
                          'self.ops[method].attr_set)')
        ns = {}
        exec(compile(src, Y.__file__, 'exec'), vars(Y), ns)
        Y.YnlFamily._ops = ns['_ops']
    return Y.YnlFamily(spec_path, '')


def notify_run(tap, cli, spec_path):
    """A RUN with notify through the kernel's ynl library: do() returns
    at the ack, the answer comes as run-ntf and run-end-ntf notifications
    to the same socket (check_ntf(), polled), and run-get of the id gives
    the same reply again."""
    y = ynl_family(cli, spec_path)
    req = {'routine': ['add_chain'], 'samples': 20, 'iterations': 100,
           'cpu': 0, 'notify': True}
    try:
        ack = y.do('run', req)
    except Exception as e:  # NlError, or a decoding error: the diag
        tap.check(False, 'ynl do run notify: returns at the ack', repr(e))
        return
    got, end = [], time.time() + 300
    while time.time() < end and not any(m['name'] == 'run-end-ntf'
                                        for m in got):
        y.check_ntf()
        got += y.async_msg_queue
        y.async_msg_queue.clear()
        time.sleep(0.1)
    ntfs = [m['msg'] for m in got if m['name'] == 'run-ntf']
    ends = [m['msg'] for m in got if m['name'] == 'run-end-ntf']
    rid = ntfs[0].get('id') if ntfs else None
    again = y.dump('run-get', {'id': rid}) if rid else None
    tap.check(ack is None and len(ntfs) == 1 and rid and
              ntfs[0].get('samples') == 20 and
              [r.get('routine') for r in ntfs[0].get('result', [])] ==
              ['add_chain'] and len(ends) == 1 and
              ends[0].get('id') == rid and ends[0].get('error') == 0 and
              again and again[0].get('id') == rid and
              again[0].get('result') == ntfs[0].get('result'),
              'ynl library: do run notify returns at the ack; one run-ntf '
              'with the result, run-end-ntf error 0, both with the id; '
              'run-get of the id gives the same result',
              f'ack {ack}\ngot {got}\nagain {again}')


def spec_const(spec, name):
    for d in spec['definitions']:
        if d['name'] == name:
            return d['value']
    raise KeyError(name)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.split('\n\n')[1])
    cli, spec_path = sys.argv[1:]
    with open(spec_path) as f:
        spec = yaml.safe_load(f)
    ynl = Ynl(cli, spec_path)
    tap = Tap(9)

    info, diag = ynl.json('--do', 'info')
    tap.check(info is not None and info.get('version') and
              info.get('max-iterations') == spec_const(spec, 'iterations-limit')
              and info.get('nr-cpus', 0) >= 1 and
              info.get('counter') in ('tsc', 'cntvct', 'timebase'),
              '--do info: version, counter, nr-cpus, max-iterations as the spec says',
              diag)
    nr_cpus = info.get('nr-cpus', 1) if info else 1

    routines, diag = ynl.json('--dump', 'routine-get')
    byname = {r.get('name'): r for r in routines or []}
    tap.check('add_chain' in byname and 'empty' in byname and
              'builtin' in byname['add_chain'].get('flags', []),
              '--dump routine-get: the built-ins, flags decoded by the spec',
              diag)

    clocks, diag = ynl.json('--dump', 'clock-get')
    tap.check(bool(clocks) and
              any(c.get('name') == 'ktime_get_ns' for c in clocks) and
              all(c.get('unit') and c.get('hz', 0) > 0 and
                  c.get('res-changes', 0) > 0 for c in clocks),
              '--dump clock-get: every clock with unit, hz and resolution',
              diag)

    req = {'routine': ['add_chain', 'mul_chain'], 'samples': 20,
           'iterations': 100, 'warmup': 2, 'cpu': 0}
    run, diag = ynl.json('--do', 'run', request=req)
    res = run.get('result', []) if run else []
    ovh = run.get('overhead', {}) if run else {}
    tap.check(run is not None and run.get('samples') == 20 and
              run.get('iterations') == 100 and run.get('warmup') == 2 and
              run.get('cpu') == 0 and run.get('adaptive') == 0 and
              run.get('status') == 'complete' and run.get('id', 0) > 0 and
              [r.get('routine') for r in res] == ['add_chain', 'mul_chain']
              and all(r.get('samples') == 20 and r.get('valid', 0) > 0
                      for r in res) and
              ovh.get('routine') == 'empty' and ovh.get('index') == 2,
              '--do run routine add_chain,mul_chain samples 20 iterations 100: '
              'the request echoed, one result each and the overhead', diag)

    rejected(tap, ynl, 'a CPU the machine lacks',
             {'routine': ['add_chain'], 'cpu': nr_cpus}, 'no such CPU', 'cpu')
    rejected(tap, ynl, 'an unknown routine',
             {'routine': ['add_chain', 'no_such_routine']},
             'unknown routine', 'routine')
    rejected(tap, ynl, 'iterations above the spec\'s iterations-limit',
             {'routine': ['add_chain'],
              'iterations': spec_const(spec, 'iterations-limit') + 1},
             'integer out of range', 'iterations')

    notify_run(tap, cli, spec_path)

    rc, out, err = ynl('--do', 'info', request={'version': 'x'})
    tap.check(rc == 1 and 'Invalid argument' in out + err and
              "'bad-attr': '.version'" in out + err,
              '--do info with an attribute: EINVAL at .version (no request, '
              'no attributes)', f'exit {rc}\n{out}{err}')

    sys.exit(1 if tap.failed else 0)


if __name__ == '__main__':
    main()
