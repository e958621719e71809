#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check that the netlink spec and the uapi header describe the same family.

Usage: tests/spec/check-spec.py [--spec FILE] [--header FILE] [-v]

Reads Documentation/netlink/specs/kbench.yaml and include/uapi/linux/kbench.h
(paths relative to the repository) and checks, the way ynl-gen-c names
things, that every command, attribute, enum, flag and define of one is in the
other with the same name and value, that the header's MAX/__MAX entries are
right, that the spec's cross references resolve, and that each attribute's
type matches the type word in the header's comment.  Prints TAP; exits 1 on
any mismatch, 2 when a file cannot be read or parsed.

Python 3 standard library only: the spec is read with a small parser of the
YAML subset it is written in (block mappings and sequences, `- ` items,
flow lists of plain scalars, `|`/`>` block scalars, plain and quoted
scalars, comments).  When PyYAML happens to be installed, a further test
checks that both parsers read the spec identically; otherwise that test is
skipped.  yamllint is not needed.
"""
import argparse
import os
import re
import sys

# ---------------------------------------------------------------------------
# YAML subset parser


class YamlError(Exception):
    pass


_KEY_RE = re.compile(r'^([A-Za-z0-9_$][A-Za-z0-9_$.-]*):(?:\s+(.*))?$')
_INT_RE = re.compile(r'^[-+]?(0x[0-9a-fA-F]+|[0-9]+)$')


def _strip_comment(text):
    """Remove a trailing comment outside quotes."""
    quote = None
    for i, c in enumerate(text):
        if quote:
            if c == quote:
                quote = None
        elif c in '"\'' and (i == 0 or text[i - 1] in ' [,:'):
            quote = c
        elif c == '#' and (i == 0 or text[i - 1] in ' \t'):
            return text[:i].rstrip()
    return text.rstrip()


def _scalar(text, lineno):
    t = text.strip()
    if t == '' or t in ('~', 'null', 'Null', 'NULL'):
        return None
    if t in ('true', 'True', 'TRUE'):
        return True
    if t in ('false', 'False', 'FALSE'):
        return False
    if _INT_RE.match(t):
        return int(t, 0)
    if t[0] == '"':
        if len(t) < 2 or t[-1] != '"':
            raise YamlError('line %d: unterminated string' % lineno)
        body = t[1:-1]
        if '\\' in body:
            body = body.encode('latin-1', 'backslashreplace').decode(
                'unicode_escape')
        return body
    if t[0] == "'":
        if len(t) < 2 or t[-1] != "'":
            raise YamlError('line %d: unterminated string' % lineno)
        return t[1:-1].replace("''", "'")
    if t[0] in '&*!{|>%@`':
        raise YamlError('line %d: %r is outside the YAML subset' %
                        (lineno, t))
    if ': ' in t or t.endswith(':'):
        raise YamlError('line %d: ": " in a plain scalar' % lineno)
    return t


def _flow_list(text, lineno):
    body = text.strip()
    if not body.endswith(']'):
        raise YamlError('line %d: flow list must end on its line' % lineno)
    body = body[1:-1].strip()
    if not body:
        return []
    if any(c in body for c in '[]{}'):
        raise YamlError('line %d: nested flow collections' % lineno)
    return [_scalar(item, lineno) for item in body.split(',')]


class _Parser:
    def __init__(self, text):
        self.raw = text.split('\n')
        self.i = 0

    def _skip(self):
        """Advance to the next line with content; return (indent, text)."""
        while self.i < len(self.raw):
            line = self.raw[self.i]
            if '\t' in line[:len(line) - len(line.lstrip())]:
                raise YamlError('line %d: tab in indentation' % (self.i + 1))
            text = _strip_comment(line)
            stripped = text.strip()
            if stripped and stripped not in ('---', '...') and \
               not stripped.startswith('%'):
                return len(text) - len(text.lstrip()), stripped
            self.i += 1
        return -1, ''

    def parse(self):
        ind, _ = self._skip()
        if ind < 0:
            return None
        node = self._node(ind)
        ind, text = self._skip()
        if ind >= 0:
            raise YamlError('line %d: unexpected %r' % (self.i + 1, text))
        return node

    def _node(self, ind):
        _, text = self._skip()
        if text == '-' or text.startswith('- '):
            return self._seq(ind)
        return self._map(ind)

    def _map(self, ind):
        out = {}
        while True:
            cur, text = self._skip()
            if cur != ind or text == '-' or text.startswith('- '):
                if cur > ind:
                    raise YamlError('line %d: bad indentation' % (self.i + 1))
                return out
            m = _KEY_RE.match(text)
            if not m:
                raise YamlError('line %d: expected "key: value", got %r' %
                                (self.i + 1, text))
            key, rest = m.group(1), m.group(2)
            if key in out:
                raise YamlError('line %d: duplicate key %r' %
                                (self.i + 1, key))
            lineno = self.i + 1
            self.i += 1
            out[key] = self._value(rest, ind, lineno)

    def _value(self, rest, ind, lineno):
        """The value after "key:" or "- " at indentation @ind."""
        if rest is None or rest == '':
            nxt, text = self._skip()
            if nxt > ind:
                return self._node(nxt)
            if nxt == ind and (text == '-' or text.startswith('- ')):
                return self._seq(ind)
            return None
        if rest[0] in '|>':
            return self._block_scalar(rest, ind, lineno)
        if rest[0] == '[':
            return _flow_list(rest, lineno)
        # a plain scalar may continue on more indented lines
        parts = [rest]
        if rest[0] not in '"\'':
            while True:
                nxt, text = self._skip()
                if nxt <= ind or _KEY_RE.match(text) or text.startswith('- '):
                    break
                parts.append(text)
                self.i += 1
        return _scalar(' '.join(parts), lineno)

    def _block_scalar(self, head, ind, lineno):
        if head not in ('|', '>', '|-', '>-'):
            raise YamlError('line %d: block scalar header %r outside the '
                            'subset' % (lineno, head))
        lines = []
        body_ind = None
        while self.i < len(self.raw):
            line = self.raw[self.i].rstrip()
            if line.strip() == '':
                lines.append('')
                self.i += 1
                continue
            cur = len(line) - len(line.lstrip())
            if body_ind is None:
                if cur <= ind:
                    break
                body_ind = cur
            if cur < body_ind:
                break
            lines.append(line[body_ind:])
            self.i += 1
        while lines and lines[-1] == '':
            lines.pop()
        if head[0] == '|':
            text = '\n'.join(lines)
        else:
            paras, cur = [], []
            for line in lines:
                if line == '':
                    paras.append(' '.join(cur))
                    cur = []
                else:
                    cur.append(line)
            paras.append(' '.join(cur))
            text = '\n'.join(paras)
        if not head.endswith('-') and lines:
            text += '\n'
        return text

    def _seq(self, ind):
        out = []
        while True:
            cur, text = self._skip()
            if cur != ind or not (text == '-' or text.startswith('- ')):
                if cur > ind:
                    raise YamlError('line %d: bad indentation' % (self.i + 1))
                return out
            lineno = self.i + 1
            item = text[1:].strip()
            if item == '':
                self.i += 1
                nxt, _ = self._skip()
                if nxt <= ind:
                    out.append(None)
                else:
                    out.append(self._node(nxt))
            elif _KEY_RE.match(item):
                # "- key: value": a mapping whose keys line up after "- "
                line = self.raw[self.i]
                pos = line.index('-')
                self.raw[self.i] = line[:pos] + ' ' + line[pos + 1:]
                out.append(self._map(pos + 1 + (len(line[pos + 1:]) -
                                                 len(line[pos + 1:].lstrip()))))
            else:
                self.i += 1
                out.append(self._value(item, ind, lineno))


def yaml_load(text):
    return _Parser(text).parse()


# ---------------------------------------------------------------------------
# C header


def _c_eval(expr, known, where):
    e = re.sub(r'\b(0x[0-9a-fA-F]+|[0-9]+)[uUlL]*\b', r'\1', expr.strip())

    def ident(m):
        name = m.group(0)
        if name not in known:
            raise ValueError('%s: unknown identifier %s' % (where, name))
        return '(%d)' % known[name]
    e = re.sub(r'\b[A-Za-z_]\w*\b', ident, e)
    if not re.match(r'^[0-9a-fA-Fx()<>|+\- ]+$', e):
        raise ValueError('%s: cannot evaluate %r' % (where, expr))
    return int(eval(e, {'__builtins__': {}}))  # digits and operators only


def parse_header(text):
    """Return (enums, defines, comments).

    enums: {enum name: [(constant, value), ...]} in order;
    defines: {name: int or str};
    comments: {constant: first word of its trailing comment}.
    """
    comments = {}
    for m in re.finditer(r'^\s*([A-Z_][A-Z0-9_]*)\s*(?:=[^,/]*)?,\s*'
                         r'/\*\s*([a-z0-9]+)', text, re.M):
        comments[m.group(1)] = m.group(2)
    code = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    code = re.sub(r'//[^\n]*', ' ', code)
    defines, known = {}, {}
    for m in re.finditer(r'^\s*#\s*define\s+(\w+)[ \t]+([^\n]+)$', code, re.M):
        name, val = m.group(1), m.group(2).strip()
        if val.startswith('"') and val.endswith('"'):
            defines[name] = val[1:-1]
        else:
            try:
                defines[name] = known[name] = _c_eval(val, known, name)
            except ValueError:
                pass
    enums = {}
    for m in re.finditer(r'\benum\s+(\w+)\s*\{(.*?)\}\s*;', code, re.S):
        entries, nxt = [], 0
        for item in m.group(2).split(','):
            item = item.strip()
            if not item:
                continue
            if '=' in item:
                name, expr = (s.strip() for s in item.split('=', 1))
                val = _c_eval(expr, known, name)
            else:
                name, val = item, nxt
            entries.append((name, val))
            known[name] = val
            nxt = val + 1
        enums[m.group(1)] = entries
    return enums, defines, comments


# ---------------------------------------------------------------------------
# What ynl-gen-c makes of the spec


def c_upper(name):
    return name.upper().replace('-', '_')


def c_lower(name):
    return name.lower().replace('-', '_')


class Expect:
    """The C identifiers and values the spec stands for."""

    def __init__(self, spec):
        fam = spec['name']
        self.family = fam
        self.enums = {}     # enum name -> [(constant, value)]
        self.defines = {}   # define -> value
        self.attr_types = {}  # constant -> spec type
        self.where = {}     # enum name -> what in the spec

        self.defines[c_upper(spec.get('c-family-name',
                                      fam + '-family-name'))] = fam
        self.defines[c_upper(spec.get('c-version-name',
                                      fam + '-family-version'))] = \
            spec.get('version', 1)
        for grp in spec.get('mcast-groups', {}).get('list', []):
            name = grp.get('c-define-name', '%s-mcgrp-%s' % (fam, grp['name']))
            self.defines[c_upper(name)] = grp['name']

        for d in spec.get('definitions', []):
            if 'header' in d:
                continue
            if d['type'] == 'const':
                self.defines[c_upper('%s-%s' % (fam, d['name']))] = d['value']
                continue
            pfx = d.get('name-prefix', '%s-%s-' % (fam, d['name']))
            enum = d.get('enum-name', '%s-%s' % (fam, d['name']))
            if enum is None:
                raise ValueError('definition %s: anonymous enum' % d['name'])
            val = d.get('value-start', 0)
            entries = []
            for e in d.get('entries', []):
                ename = e['name'] if isinstance(e, dict) else e
                if isinstance(e, dict) and 'value' in e:
                    val = e['value']
                v = 1 << val if d['type'] == 'flags' else val
                entries.append((c_upper(pfx + ename), v))
                val += 1
            self._enum(c_lower(enum), entries,
                       'definition %s' % d['name'])

        for s in spec.get('attribute-sets', []):
            if 'subset-of' in s:
                continue
            pfx = s.get('name-prefix')
            if pfx is None:
                pfx = ('%s-a-' % fam if s['name'] == fam else
                       '%s-a-%s-' % (fam, s['name']))
            pfx = c_upper(pfx)
            enum = s.get('enum-name', '%s-%s' % (fam, s['name']))
            entries, val = [], 1
            for a in s['attributes']:
                if 'value' in a:
                    val = a['value']
                const = pfx + c_upper(a['name'])
                entries.append((const, val))
                self.attr_types[const] = a.get('type')
                val += 1
            cnt = c_upper(s.get('attr-cnt-name', '__' + pfx + 'max'))
            mx = c_upper(s.get('attr-max-name', pfx + 'max'))
            entries += [(cnt, val), (mx, val - 1)]
            self._enum(c_lower(enum), entries,
                       'attribute set %s' % s['name'])

        ops = spec['operations']
        pfx = c_upper(ops.get('name-prefix', fam + '-cmd-'))
        enum = ops.get('enum-name')
        if not enum:
            raise ValueError('operations: no enum-name (ynl would render an '
                             'anonymous enum)')
        # unified model: commands count from 1; 0 is the implicit UNSPEC
        entries, val = [(pfx + 'UNSPEC', 0)], 1
        for op in ops['list']:
            if 'value' in op:
                val = op['value']
            entries.append((pfx + c_upper(op['name']), val))
            val += 1
        cnt = c_upper(spec.get('cmd-cnt-name', '__' + pfx + 'max'))
        mx = c_upper(spec.get('cmd-max-name', pfx + 'max'))
        entries += [(cnt, val), (mx, val - 1)]
        self._enum(c_lower(enum), entries, 'operations')

    def _enum(self, name, entries, where):
        if name in self.enums:
            raise ValueError('%s: enum %s defined twice' % (where, name))
        self.enums[name] = entries
        self.where[name] = where


def spec_refs(spec):
    """Cross references inside the spec that do not resolve."""
    errs = []
    defs = {d['name']: d for d in spec.get('definitions', [])}
    sets = {s['name']: s for s in spec.get('attribute-sets', [])}
    groups = {g['name'] for g in spec.get('mcast-groups', {}).get('list', [])}
    for s in sets.values():
        seen = set()
        for a in s['attributes']:
            where = 'set %s attr %s' % (s['name'], a['name'])
            if a['name'] in seen:
                errs.append('%s: listed twice' % where)
            seen.add(a['name'])
            if 'subset-of' not in s and not a.get('type'):
                errs.append('%s: no type' % where)
            if a.get('type') in ('nest', 'array-nest') and \
               a.get('nested-attributes') not in sets:
                errs.append('%s: nested-attributes %r unknown' %
                            (where, a.get('nested-attributes')))
            if 'enum' in a and a['enum'] not in defs:
                errs.append('%s: enum %r unknown' % (where, a['enum']))
    names = set()
    for op in spec['operations']['list']:
        where = 'op %s' % op['name']
        if op['name'] in names:
            errs.append('%s: listed twice' % where)
        names.add(op['name'])
        if not op.get('doc'):
            errs.append('%s: no doc' % where)
        aset = sets.get(op.get('attribute-set'))
        if aset is None and ('do' in op or 'dump' in op or 'event' in op):
            errs.append('%s: attribute-set %r unknown' %
                        (where, op.get('attribute-set')))
            continue
        lists = []
        for mode in ('do', 'dump'):
            for part in ('request', 'reply'):
                sub = (op.get(mode) or {}).get(part)
                if sub is not None:
                    lists.append(('%s %s' % (mode, part),
                                  sub.get('attributes') or []))
        if 'event' in op:
            lists.append(('event', op['event'].get('attributes') or []))
        known = {a['name'] for a in aset['attributes']} if aset else set()
        for what, attrs in lists:
            for name in attrs:
                if name not in known:
                    errs.append('%s %s: attribute %r not in set %s' %
                                (where, what, name, aset['name']))
        if 'notify' in op and op['notify'] not in names:
            errs.append('%s: notify %r unknown' % (where, op['notify']))
        if 'mcgrp' in op and op['mcgrp'] not in groups:
            errs.append('%s: mcgrp %r unknown' % (where, op['mcgrp']))
    return errs


# ---------------------------------------------------------------------------
# TAP


class Tap:
    def __init__(self, verbose):
        self.n = 0
        self.failed = 0
        self.verbose = verbose

    def result(self, ok, desc, diag=(), skip=None):
        self.n += 1
        line = '%s %d - %s' % ('ok' if ok else 'not ok', self.n, desc)
        if skip:
            line += ' # SKIP ' + skip
        print(line)
        if not ok:
            self.failed += 1
        if not ok or self.verbose:
            for d in diag:
                print('#   ' + d)


def compare_enum(name, want, have):
    """Differences between the spec's entries and the header's."""
    diag = []
    if have is None:
        return ['enum %s is not in the header' % name]
    wd, hd = dict(want), dict(have)
    for const, val in want:
        if const not in hd:
            diag.append('%s = %d: in the spec, not in the header' %
                        (const, val))
        elif hd[const] != val:
            diag.append('%s: spec %d, header %d' % (const, val, hd[const]))
    for const, val in have:
        if const not in wd:
            diag.append('%s = %d: in the header, not in the spec' %
                        (const, val))
    if not diag and [c for c, _ in want] != [c for c, _ in have]:
        diag.append('same entries in a different order')
    return diag


# header comment word -> spec type
_COMMENT_TYPES = {'string': 'string', 'u32': 'u32', 'u64': 'u64',
                  's64': 's64', 's32': 's32', 'u8': 'u8', 'u16': 'u16',
                  'nest': 'nest', 'binary': 'binary', 'flag': 'flag'}


def main():
    top = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--spec', default=os.path.join(
        top, 'Documentation/netlink/specs/kbench.yaml'))
    ap.add_argument('--header', default=os.path.join(
        top, 'include/uapi/linux/kbench.h'))
    ap.add_argument('-v', '--verbose', action='store_true',
                    help='print the diagnostics of passing tests too')
    args = ap.parse_args()

    try:
        with open(args.spec, encoding='utf-8') as f:
            spec_text = f.read()
        with open(args.header, encoding='utf-8') as f:
            header_text = f.read()
    except OSError as e:
        print('Bail out! %s' % e)
        return 2

    tap = Tap(args.verbose)
    try:
        spec = yaml_load(spec_text)
        if not isinstance(spec, dict):
            raise YamlError('the document is not a mapping')
    except YamlError as e:
        print('1..1')
        tap.result(False, 'spec parses', ['%s: %s' % (args.spec, e)])
        return 2
    try:
        enums, defines, comments = parse_header(header_text)
        want = Expect(spec)
    except (ValueError, KeyError, TypeError) as e:
        print('1..1')
        tap.result(False, 'header and spec can be read', [str(e)])
        return 2

    # one test per enum of either side, plus the fixed ones below
    names = list(want.enums)
    names += [n for n in enums if n not in want.enums]
    print('1..%d' % (len(names) + 6))

    tap.result(True, 'spec parses (%d attribute sets, %d operations)' %
               (len(spec.get('attribute-sets', [])),
                len(spec['operations']['list'])))

    try:
        import yaml  # optional cross-check of the subset parser
    except ImportError:
        tap.result(True, 'PyYAML reads the spec the same way', skip=
                   'PyYAML not installed')
    else:
        try:
            ref = yaml.safe_load(spec_text)
            same = ref == spec
            diag = [] if same else ['the subset parser and PyYAML differ']
        except yaml.YAMLError as e:
            same, diag = False, ['PyYAML: %s' % e]
        tap.result(same, 'PyYAML reads the spec the same way', diag)

    errs = spec_refs(spec)
    tap.result(not errs, 'spec cross references resolve', errs)

    fam = spec['name']
    req = ['protocol', 'doc', 'attribute-sets', 'operations']
    diag = ['top-level key %r missing' % k for k in req if k not in spec]
    if spec.get('protocol') not in ('genetlink', 'genetlink-c'):
        diag.append('protocol %r is not genetlink(-c)' %
                    spec.get('protocol'))
    tap.result(not diag, 'family %s: genetlink spec with doc' % fam, diag)

    for name in names:
        diag = compare_enum(name, want.enums.get(name), enums.get(name)) \
            if name in want.enums else \
            ['enum %s is in the header, not in the spec' % name]
        what = want.where.get(name, 'header only')
        tap.result(not diag, 'enum %s (%s)' % (name, what), diag)

    diag = []
    pfx = c_upper(fam) + '_'
    for const, val in sorted(want.defines.items()):
        if const not in defines:
            diag.append('#define %s: in the spec, not in the header' % const)
        elif defines[const] != val:
            diag.append('#define %s: spec %r, header %r' %
                        (const, val, defines[const]))
    for const in sorted(defines):
        if const.startswith(pfx) and const not in want.defines:
            diag.append('#define %s: in the header, not in the spec' % const)
    tap.result(not diag, 'defines (family, version, group, constants)', diag)

    diag = []
    for const, typ in sorted(want.attr_types.items()):
        word = comments.get(const)
        if word is None or word not in _COMMENT_TYPES:
            if typ not in ('unused', 'pad'):
                diag.append('%s: spec type %s, no type in the header '
                            'comment' % (const, typ))
            continue
        if _COMMENT_TYPES[word] != typ:
            diag.append('%s: spec type %s, header comment says %s' %
                        (const, typ, word))
    tap.result(not diag, 'attribute types match the header comments', diag)

    if tap.failed:
        print('# %d of %d failed' % (tap.failed, tap.n))
    return 1 if tap.failed else 0


if __name__ == '__main__':
    sys.exit(main())
