#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Generate the selftests' and the fuzzer's attribute tables from the spec.

Usage: ynl-tables.py YNL_DIR SPEC OUT_C OUT_H

YNL_DIR is tools/net/ynl of linux-source-6.12 (scripts/ynl-tools.sh).  Run
at build time (tests/selftests/Makefile); the output is never committed.

The tables are ynl-gen-c's own, from its own model of the spec:
  - its user-mode policy tables (struct ynl_policy_attr / ynl_policy_nest
    of lib/ynl-priv.h) for every attribute set, rendered by its put_typol()
    exactly as `ynl-gen-c --mode user --source` renders them.  ynl-gen-c
    cannot render the rest of the user-mode library for this spec (it has
    no code for multi-attr strings yet), so only the tables are taken;
  - from the same parsed spec: the attribute set of each command
    (kb_cmd_nest[]) and each request's attributes with the bounds the
    spec's checks give them (kb_reqs[]), for the tests that send values
    just outside them.
"""
import importlib.util
import os
import shutil
import sys
import tempfile


def load_generator(ynl_dir):
    path = os.path.join(ynl_dir, 'ynl-gen-c.py')
    sys.path.insert(0, ynl_dir)     # its "from lib import ..."
    spec = importlib.util.spec_from_file_location('ynl_gen_c', path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def parse(gen, ynl_dir, spec_path):
    """The spec as ynl-gen-c sees it, validated against genetlink-c.yaml,
    which nlspec looks for next to the spec's directory."""
    schemas = os.path.join(ynl_dir, '..', '..', '..', 'Documentation',
                           'netlink')
    with tempfile.TemporaryDirectory() as tmp:
        os.makedirs(os.path.join(tmp, 'specs'))
        for f in os.listdir(schemas):
            if f.endswith('.yaml'):
                shutil.copy(os.path.join(schemas, f), tmp)
        copy = os.path.join(tmp, 'specs', os.path.basename(spec_path))
        shutil.copy(spec_path, copy)
        return gen.Family(copy, [])


def limit(attr, name):
    """A bound of the spec's checks as a number, or None."""
    if name not in attr.checks:
        return None
    return attr.get_limit(name)


def request_rows(gen, family):
    reqs = []
    for op in family.ops.values():
        for mode in ('do', 'dump'):
            if mode not in op or 'request' not in op[mode]:
                continue
            aset = family.attr_sets[op['attribute-set']]
            rows = []
            for name in op[mode]['request']['attributes']:
                attr = aset[name]
                typol = attr._attr_typol().strip().rstrip(',')
                lo = limit(attr, 'min')
                hi = limit(attr, 'max')
                if attr.type == 'string':
                    hi = limit(attr, 'max-len')
                row = [f'.type = {attr.enum_name}', f'.name = "{name}"',
                       f'.pt = {typol.split("=")[1].strip()}']
                if attr.attr.get('multi-attr'):
                    row.append('.multi = true')
                if lo is not None:
                    row += ['.has_min = true', f'.min = {lo}']
                if hi is not None:
                    row += ['.has_max = true', f'.max = {hi}']
                rows.append(row)
            reqs.append((op, mode, rows))
    return reqs


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__.split('\n\n')[1])
    ynl_dir, spec_path, out_c, out_h = sys.argv[1:]
    gen = load_generator(ynl_dir)
    family = parse(gen, ynl_dir, spec_path)
    src = os.path.basename(spec_path)
    banner = [f'/* Generated at build time from {src} by',
              ' * tests/selftests/ynl-tables.py with ynl-gen-c; do not edit. */']

    sets = list(family.pure_nested_structs) + list(family.root_sets)
    reqs = request_rows(gen, family)

    cw = gen.CodeWriter(gen.BaseNlLib(), out_h)
    cw.p('/* SPDX-License-Identifier: GPL-2.0 */')
    for line in banner:
        cw.p(line)
    cw.p('#ifndef _KBENCH_NL_TABLES_H')
    cw.p('#define _KBENCH_NL_TABLES_H')
    cw.nl()
    for inc in ('<stdbool.h>', '<stdint.h>', '<string.h>',
                '<linux/netlink.h>', f'<{family.uapi_header}>',
                '"ynl-priv.h"'):
        cw.p(f'#include {inc}')
    cw.nl()
    for name in sets:
        gen.put_typol_fwd(cw, gen.Struct(family, name))
    cw.nl()
    cw.p('/* The attribute set of each command (NULL: none). */')
    cw.p('extern const struct ynl_policy_nest *const '
         f'kb_cmd_nest[{family.op_prefix}MAX + 1];')
    cw.nl()
    cw.p('/* A request attribute and the bounds the spec\'s checks give it. */')
    cw.block_start('struct kb_req_attr')
    cw.p('uint16_t type;')
    cw.p('const char *name;')
    cw.p('enum ynl_policy_type pt;')
    cw.p('bool multi;')
    cw.p('bool has_min, has_max;')
    cw.p('int64_t min, max;\t/* max-len for strings */')
    cw.block_end(';')
    cw.nl()
    cw.block_start('struct kb_req')
    cw.p('uint8_t cmd;')
    cw.p('bool dump;')
    cw.p('const char *name;')
    cw.p('const struct kb_req_attr *attrs;')
    cw.p('int nattrs;')
    cw.block_end(';')
    cw.nl()
    cw.p(f'#define KB_NREQS {len(reqs)}')
    cw.p('extern const struct kb_req kb_reqs[KB_NREQS];')
    cw.nl()
    cw.p('#endif /* _KBENCH_NL_TABLES_H */')
    cw.close_out_file()

    cw = gen.CodeWriter(gen.BaseNlLib(), out_c)
    cw.p('// SPDX-License-Identifier: GPL-2.0')
    for line in banner:
        cw.p(line)
    cw.p(f'#include "{os.path.basename(out_h)}"')
    cw.nl()
    for name in sets:
        gen.put_typol(cw, gen.Struct(family, name))
    cw.block_start('const struct ynl_policy_nest *const '
                   f'kb_cmd_nest[{family.op_prefix}MAX + 1] =')
    for op in family.msgs.values():
        if getattr(op, 'attr_set', None):
            render = gen.c_lower(f'{family.ident_name}-{op.attr_set.name}')
            cw.p(f'[{op.enum_name}] = &{render}_nest,')
    cw.block_end(';')
    cw.nl()
    for op, mode, rows in reqs:
        cw.block_start('static const struct kb_req_attr '
                       f'{op.render_name}_{mode}_req[] =')
        for row in rows:
            cw.p('{ ' + ', '.join(row) + ', },')
        cw.block_end(';')
        cw.nl()
    cw.block_start('const struct kb_req kb_reqs[KB_NREQS] =')
    for op, mode, rows in reqs:
        arr = f'{op.render_name}_{mode}_req'
        cw.p(f'{{ {op.enum_name}, {"true" if mode == "dump" else "false"}, '
             f'"{op.name} {mode}", {arr}, (int)(sizeof({arr}) / sizeof({arr}[0])) }},')
    cw.block_end(';')
    cw.close_out_file()


if __name__ == '__main__':
    main()
