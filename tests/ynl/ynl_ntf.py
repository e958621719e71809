#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""ynl_ntf.py CLI ARGS...: the kernel's ynl CLI, tolerant of notifications.

linux-source-6.12's YnlFamily._ops() sets its op to None when a message
that answers no request arrives (a RUN's progress-ntf, sequence number 0,
sent every 250 ms of a run) and then dereferences it at its next receive:
a RUN longer than 250 ms fails with AttributeError.  This wrapper runs
CLI unchanged after rewriting that one receive to use the request's op.

And it reads the spec with libyaml's parser where PyYAML has it: the CLI's
yaml.safe_load() is pure Python, 0.28 s for our spec on the host (0.04 s
with libyaml), once per CLI call; in the KASAN guest a call took 17-20 s,
11-19 s so (2026-11-29, beside other VMs).  tests/ynl/run.sh runs the CLI
as it is.
"""
import inspect
import os
import runpy
import sys
import textwrap

if len(sys.argv) < 2 or not os.path.isfile(sys.argv[1]):
    sys.exit(__doc__.split('\n', 1)[0])
cli = sys.argv[1]
sys.path.insert(0, os.path.dirname(os.path.abspath(cli)))
import yaml  # noqa: E402


def c_safe_load(stream):
    """yaml.safe_load() by libyaml: the same documents, parsed in C."""
    return yaml.load(stream, Loader=yaml.CSafeLoader)


if getattr(yaml, '__with_libyaml__', False):
    yaml.safe_load = c_safe_load
from lib import ynl as Y  # noqa: E402

src = textwrap.dedent(inspect.getsource(Y.YnlFamily._ops))
bad = 'NlMsgs(reply, attr_space=op.attr_set)'
if bad in src:
    src = src.replace(bad, 'NlMsgs(reply, attr_space=self.ops[method].attr_set)')
    ns = {}
    exec(compile(src, Y.__file__, 'exec'), vars(Y), ns)
    Y.YnlFamily._ops = ns['_ops']
sys.argv = sys.argv[1:]
runpy.run_path(cli, run_name='__main__')
