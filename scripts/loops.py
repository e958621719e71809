#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Dependency loops between the files of a tree (CONTRIBUTING.md, "Layers").

  scripts/loops.py [--calls] DIR...

Two files depend on each other in a loop when one includes or calls into
the other and the other, directly or through others, back.  A file here
is a module: x.c with its x.h.  Edges:
  includes  x.c or x.h has #include "y.h"  (y: a module of DIR)
  calls     x.o uses a symbol y.o defines (nm: U in x.o, T/D/B/R in y.o;
            --calls, after a build: the .o files next to the sources, or
            under --objects DIR)
Prints each loop (a strongly connected set of modules, Tarjan) with its
edges, then one line "loops: N"; exit 0 when N is at most --allow (0).
"""
import argparse
import collections
import glob
import os
import re
import subprocess
import sys

INCLUDE = re.compile(r'\s*#\s*include\s+"([^"]+)"')


def modules(top):
    mods = {}
    for f in glob.glob(os.path.join(top, '**', '*.[ch]'), recursive=True):
        rel = os.path.relpath(f, top)
        if rel.endswith('.mod.c'):
            continue
        mods.setdefault(os.path.splitext(rel)[0], []).append(f)
    return mods


def include_edges(mods):
    by_name = collections.defaultdict(list)
    for m in mods:
        by_name[os.path.basename(m)].append(m)
    edges = collections.defaultdict(dict)
    for m, files in mods.items():
        for f in files:
            with open(f, errors='replace') as fh:
                for line in fh:
                    hit = INCLUDE.match(line)
                    if not hit:
                        continue
                    name = os.path.splitext(os.path.basename(hit.group(1)))[0]
                    for t in by_name.get(name, ()):
                        if t != m and any(x.endswith('.h') for x in mods[t]):
                            edges[m][t] = 'includes ' + hit.group(1)
    return edges


def nm(obj):
    out = subprocess.run(['nm', '-g', obj], capture_output=True, text=True,
                         check=False).stdout
    defined, used = set(), set()
    for line in out.splitlines():
        p = line.split()
        if len(p) == 3 and p[1] in 'TDBRCVWG':
            defined.add(p[2])
        elif len(p) == 2 and p[0] == 'U':
            used.add(p[1])
    return defined, used


def call_edges(top, objdir, mods, edges):
    objs = {}
    for m in mods:
        o = os.path.join(objdir or top, m + '.o')
        if os.path.exists(o):
            objs[m] = nm(o)
    owner = collections.defaultdict(list)
    for m, (defined, _) in objs.items():
        for s in defined:
            owner[s].append(m)
    for m, (_, used) in objs.items():
        for s in sorted(used):
            for t in owner.get(s, ()):
                if t != m:
                    edges[m].setdefault(t, 'calls ' + s)
    return len(objs)


def loops(nodes, edges):
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]
    sys.setrecursionlimit(100000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('dirs', nargs='+', metavar='DIR')
    ap.add_argument('--calls', action='store_true',
                    help='also the calls between the built .o files')
    ap.add_argument('--objects', metavar='DIR',
                    help='the .o files are under DIR (same layout)')
    ap.add_argument('--allow', type=int, default=0,
                    help='loops allowed (explained where they are)')
    a = ap.parse_args()
    total = 0
    for top in a.dirs:
        mods = modules(top)
        edges = include_edges(mods)
        nobj = call_edges(top, a.objects, mods, edges) if a.calls else 0
        if a.calls and not nobj:
            print(f'{top}: no .o files: build first, or give --objects')
            return 2
        for comp in loops(mods, edges):
            total += 1
            print(f'{top}: loop of {len(comp)}: {" ".join(comp)}')
            for m in comp:
                for t, why in sorted(edges[m].items()):
                    if t in comp:
                        print(f'    {m} -> {t} ({why})')
    print(f'loops: {total}')
    return 0 if total <= a.allow else 1


if __name__ == '__main__':
    sys.exit(main())
