# SPDX-License-Identifier: GPL-2.0
"""What the ynl tests share (ynl_test.py, concurrent_test.py): TAP output,
the kernel's ynl CLI run as a user would run it, and a refused RUN.  The
scripts that boot the VM add this file next to the tests (--add), so a
plain import finds it.
"""
import json
import subprocess
import sys
import time


class Tap:
    """TAP lines; the plan first, each failure with up to @diag_lines of
    diagnostics."""

    def __init__(self, planned, diag_lines=30):
        self.n = 0
        self.failed = 0
        self.diag_lines = diag_lines
        self.t = time.monotonic()
        print(f'1..{planned}', flush=True)

    def check(self, ok, desc, diag=''):
        self.n += 1
        now = time.monotonic()
        print(f'{"ok" if ok else "not ok"} {self.n} - {desc}', flush=True)
        # where a suite's time goes: the seconds since the previous result
        print(f'# {self.n}: {now - self.t:.1f} s', flush=True)
        self.t = now
        if not ok:
            self.failed += 1
            for line in str(diag).splitlines()[:self.diag_lines]:
                print(f'# {line}', flush=True)


class Ynl:
    """tools/net/ynl/cli.py with our spec, JSON out; @wrapper (a script
    that runs the CLI, e.g. ynl_ntf.py) in front of it if given."""

    def __init__(self, cli, spec, wrapper=None, timeout=300):
        self.base = [sys.executable] + ([wrapper] if wrapper else []) + \
            [cli, '--spec', spec, '--no-schema', '--output-json']
        self.timeout = timeout

    def cmd(self, *args, request=None):
        cmd = self.base + list(args)
        if request is not None:
            cmd += ['--json', json.dumps(request)]
        return cmd

    def __call__(self, *args, request=None):
        p = subprocess.run(self.cmd(*args, request=request),
                           capture_output=True, text=True,
                           timeout=self.timeout)
        return p.returncode, p.stdout, p.stderr

    def json(self, *args, request=None):
        """(decoded reply or None, diagnostics)"""
        rc, out, err = self(*args, request=request)
        if rc:
            return None, f'exit {rc}\n{out}{err}'
        try:
            return json.loads(out), out
        except ValueError as e:
            return None, f'not JSON ({e}):\n{out}{err}'


def rejected(tap, ynl, desc, request, msg, attr):
    """A RUN that must fail: exit 1, the extack message and attribute."""
    rc, out, err = ynl('--do', 'run', request=request)
    text = out + err
    tap.check(rc == 1 and f"'msg': '{msg}'" in text and
              f"'bad-attr': '.{attr}'" in text,
              f"{desc}: exit 1, extack '{msg}' at .{attr}",
              f'exit {rc}\n{text}')


def answer(reply):
    """A RUN's answer as one dict.  A concurrent RUN answers in a message
    per CPU (one cpu-run nest each) and one of the group's figures, and
    ynl gives several messages as a list: merged here, the cpu-runs in
    their order, the other attributes as the messages say them (the last
    message's win).  One message (a run on one CPU) as it is."""
    if not isinstance(reply, list):
        return reply
    out, cr = {}, []
    for m in reply:
        cr += m.get('cpu-run', [])
        out.update({k: v for k, v in m.items() if k != 'cpu-run'})
    if cr:
        out['cpu-run'] = cr
    return out


def run_answer(ynl, request):
    """`ynl --do run` of @request: (its answer() or None, diagnostics)."""
    reply, diag = ynl.json('--do', 'run', request=request)
    return answer(reply), diag
