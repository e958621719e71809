#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""spec_bounds.py SPEC SET: "name min max" for every integer attribute of
attribute set SET that the spec bounds (min defaults to 0, max to -)."""
import sys

import yaml

spec = yaml.safe_load(open(sys.argv[1]))
consts = {d["name"]: d["value"] for d in spec.get("definitions", [])
          if d.get("type") == "const"}


def value(v):
    return consts.get(v, v) if isinstance(v, str) else v


for aset in spec["attribute-sets"]:
    if aset["name"] != sys.argv[2]:
        continue
    for a in aset["attributes"]:
        checks = a.get("checks", {})
        if not a["type"].startswith("u") or not checks:
            continue
        lo = value(checks.get("min", 0))
        hi = value(checks.get("max", "-"))
        print(a["name"], lo, hi)
