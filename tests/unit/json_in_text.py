#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""json_in_text.py JSON TEXT: every number of the JSON document appears in
the text (as an integer, or rounded to 0-6 decimals, or in %g form).
Exits 1 and lists the keys whose value is missing."""
import json
import re
import sys

doc = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read()
tokens = set(re.findall(r"\d+(?:\.\d+)?(?:e[-+]\d+)?", text))


def forms(v):
    v = abs(v)
    f = {"%.*f" % (p, v) for p in range(7)}
    if isinstance(v, int):
        f.add(str(v))
    f |= {"%g" % v, "%.3g" % v, "%.4g" % v}
    return f


missing = []


def walk(o, path):
    if isinstance(o, dict):
        for k, v in o.items():
            walk(v, path + "." + k)
    elif isinstance(o, list):
        for i, v in enumerate(o):
            walk(v, "%s[%d]" % (path, i))
    elif isinstance(o, (int, float)) and not isinstance(o, bool):
        if not forms(o) & tokens:
            missing.append("%s = %r" % (path, o))


walk(doc, "")
for m in missing:
    print("# not in the text: " + m)
sys.exit(1 if missing else 0)
