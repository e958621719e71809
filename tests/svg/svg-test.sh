#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kbenchctl's SVG plots, rendered the way a reader sees them: write them
# with the userspace twins (no module needed), check the XML (xmllint, else
# python3's xml.etree) and the expected elements, load them in headless
# Chromium (Debian's chromium) for --dump-dom and --screenshot, and check
# the screenshot shows the plot (title text, the series' bar colours).
# Prints TAP.  The SVGs and screenshots stay in build/svg/ to look at.
#
# Usage: tests/svg/svg-test.sh [KBENCHCTL]
# Env:   CHROMIUM (default: chromium)
set -uo pipefail
{

top=$(cd "$(dirname "$0")/../.." && pwd)
ctl=${1:-$top/user/kbenchctl}
chromium=${CHROMIUM:-chromium}
out=$top/build/svg
mkdir -p "$out"
rm -f "$out"/*.svg "$out"/*.png "$out"/*.dom "$out"/*.log

# shellcheck source=tests/lib/tap.sh
. "$top/tests/lib/tap.sh"

if [ ! -x "$ctl" ] && ! make -s -C "$top/user" >"$out/build.log" 2>&1; then
	tap 1 "build kbenchctl" "$out/build.log"
	exit 1
fi
have_chromium=0
command -v "$chromium" >/dev/null 2>&1 && have_chromium=1

# check_svg SVG VALUES ROUTINES...: well-formed SVG with the expected
# elements.  VALUES 0: a run's plot (histogram bars with min/median/mode
# markers per routine, the samples in time order); VALUES > 0: a sweep's
# line plot (--arg): per routine a curve with the median and the min
# through VALUES points equally spaced on the log2 axis, the CI band, a
# point per value, the fit in the legend.  Both: the title names the
# routines, CPU, kernel, counter and date (a sweep also --arg).
check_svg() {
	python3 - "$@" <<'EOF'
import re, sys, xml.etree.ElementTree as ET
path, values, routines = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
NS = '{http://www.w3.org/2000/svg}'
root = ET.parse(path).getroot()
assert root.tag == NS + 'svg', 'root is %s' % root.tag
w, h = int(root.get('width')), int(root.get('height'))
assert root.get('viewBox') == '0 0 %d %d' % (w, h), 'viewBox'
ids = {e.get('id'): e for e in root.iter() if e.get('id')}
panels = ('sweep',) if values else ('histogram', 'timeline')
for panel in panels + ('title', 'subtitle'):
    assert panel in ids, 'no #' + panel
def cls(c, under=root):
    return [e for e in under.iter() if c in (e.get('class') or '').split()]
if values:
    curves = cls('curve', ids['sweep'])
    assert len(curves) == len(routines), '%d curves' % len(curves)
    for cv in curves:
        for m in ('median', 'min'):
            pl = [e for e in cls(m, cv) if e.tag == NS + 'polyline']
            assert len(pl) == 1, '%d %s lines' % (len(pl), m)
            pts = [tuple(float(v) for v in p.split(','))
                   for p in pl[0].get('points').split()]
            assert len(pts) == values, '%s: %d points' % (m, len(pts))
            assert all(0 <= x <= w and 0 <= y <= h for x, y in pts), m
            xs = [x for x, y in pts]
            steps = [b - a for a, b in zip(xs, xs[1:])]
            assert min(steps) > 0 and max(steps) - min(steps) < 1, \
                'x steps %r: not a log2 axis' % steps
        assert len(cls('ci', cv)) == 1, 'no CI band'
        assert len([e for e in cv.iter() if e.tag == NS + 'circle']) == values
    axis = ' '.join(''.join(e.itertext()) for e in ids['sweep'].iter()
                    if e.tag == NS + 'text')
    assert 'log2 scale' in axis, 'x axis not marked log2'
    what = '%d curves of %d values' % (len(curves), values)
else:
    bars = cls('bar', ids['histogram'])
    assert len(bars) >= 2, '%d histogram bars' % len(bars)
    assert all(float(b.get('height')) > 0 and float(b.get('width')) > 0 for b in bars)
    for m in ('min', 'median', 'mode'):
        lines = [e for e in cls(m, ids['histogram']) if e.tag == NS + 'line']
        assert len(lines) == len(routines), '%d %s markers for %d routines' % (
            len(lines), m, len(routines))
        for l in lines:
            assert 0 <= float(l.get('x1')) <= w and l.get('x1') == l.get('x2'), m
    series = cls('series', ids['histogram'])
    assert len(series) == len(routines), '%d series' % len(series)
    points = [e for e in ids['timeline'].iter() if e.tag == NS + 'circle']
    assert len(points) >= 100, '%d time-order points' % len(points)
    what = '%d bars, %d points' % (len(bars), len(points))
title = ''.join(ids['title'].itertext()) + ' ' + ''.join(ids['subtitle'].itertext())
doc_title = root.find(NS + 'title').text
for r in routines:
    assert r in title and r in doc_title, 'routine %s not in title %r' % (r, title)
legend = ' '.join(''.join(g.itertext()) for g in cls('legend'))
for r in routines:
    assert r in legend, 'routine %s not in the legend' % r
wants = [r'\bCPU \d+', r'\bkernel \S+', r'\bcounter \S+ @ [0-9.]+ [GMk]?Hz',
         r'\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ']
if values:
    assert 'fit O(' in legend, 'no fit in the legend %r' % legend
    wants.append(r'--arg \S+')
for want in wants:
    assert re.search(want, title), '%s not in title %r' % (want, title)
print('# %s: %dx%d, %s; %s' % (path.split('/')[-1], w, h, what, title))
EOF
}

# png_check PNG W H COLOUR...: a W x H picture, dark text in the title
# band, and for each COLOUR (r,g,b of a series' bars at 50% over white)
# at least 200 pixels of it.  A small PNG reader: no PIL needed.
png_check() {
	python3 - "$@" <<'EOF'
import struct, sys, zlib
path, w, h = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
colours = [tuple(int(c) for c in a.split(',')) for a in sys.argv[4:]]
d = open(path, 'rb').read()
assert d[:8] == b'\x89PNG\r\n\x1a\n', 'not a PNG'
pos, idat, hdr = 8, b'', None
while pos < len(d):
    ln, typ = struct.unpack('>I4s', d[pos:pos + 8])
    body = d[pos + 8:pos + 8 + ln]
    if typ == b'IHDR':
        hdr = struct.unpack('>IIBBBBB', body)
    elif typ == b'IDAT':
        idat += body
    pos += 12 + ln
pw, ph, depth, ctype, _, _, interlace = hdr
assert (pw, ph) == (w, h), 'screenshot is %dx%d, not %dx%d' % (pw, ph, w, h)
assert depth == 8 and ctype in (2, 6) and not interlace, 'PNG format %r' % (hdr,)
bpp = 4 if ctype == 6 else 3
raw, stride = zlib.decompress(idat), pw * bpp
rows, prev, i = [], bytearray(stride), 0
for y in range(ph):
    f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
    i += 1 + stride
    for x in range(stride):
        a = line[x - bpp] if x >= bpp else 0
        b, c = prev[x], (prev[x - bpp] if x >= bpp else 0)
        if f == 1: line[x] = (line[x] + a) & 255
        elif f == 2: line[x] = (line[x] + b) & 255
        elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    rows.append(line)
    prev = line
def px(y):
    r = rows[y]
    return [tuple(r[x * bpp:x * bpp + 3]) for x in range(pw)]
dark = sum(1 for y in range(5, 55) for p in px(y) if sum(p) < 200)
assert dark > 300, 'title band: %d dark pixels' % dark
hist = {}
for y in range(ph):
    for p in px(y):
        hist[p] = hist.get(p, 0) + 1
assert len(hist) > 20, '%d colours: blank?' % len(hist)
white = hist.get((255, 255, 255), 0)
assert white > pw * ph // 2, 'background not white (%d white pixels)' % white
for c in colours:
    near = sum(k for p, k in hist.items() if max(abs(p[j] - c[j]) for j in range(3)) <= 6)
    assert near >= 200, 'colour %r: %d pixels' % (c, near)
print('# %s: %dx%d, %d colours, %d dark title pixels' % (path.split('/')[-1], pw, ph,
      len(hist), dark))
EOF
}

# Chromium with a throwaway profile, nothing from the network
chrome() {
	local prof rc
	prof=$(mktemp -d)
	timeout 120 "$chromium" --headless --no-sandbox --disable-gpu \
		--disable-background-networking --disable-component-update \
		--disable-sync --no-first-run --hide-scrollbars \
		--user-data-dir="$prof" "$@"
	rc=$?
	rm -rf "$prof"
	return $rc
}

blue=143,187,217	# #1f77b4 at 50% over white
orange=255,191,135	# #ff7f0e at 50% over white

# what the next plot() checks: a run's panels (histogram, timeline), or
# with sweep_values > 0 a sweep's curves of that many values
sweep_values=0

has_ids() { # FILE ID...: FILE has an element of each ID
	local f=$1 id
	shift
	for id in "$@"; do
		grep -q "id=\"$id\"" "$f" || return 1
	done
}

plot() { # NAME "ROUTINES" COLOURS KBENCHCTL-ARGS...
	local name=$1 routines=$2 colours=$3 svg=$out/$1.svg w h what
	local -a panels
	shift 3
	if [ "$sweep_values" = 0 ]; then
		panels=(histogram timeline)
		what="SVG root, two panels, bars, min/median/mode per routine, title (routine, CPU, kernel, counter, date)"
	else
		panels=(sweep)
		what="SVG root, a curve per routine (median, min: $sweep_values points on a log2 axis; CI band), fit, title (routine, CPU, kernel, counter, date, --arg)"
	fi
	"$ctl" "$@" --svg "$svg" >"$out/$name.log" 2>&1
	tap $? "kbenchctl $* --svg: exit 0" "$out/$name.log"
	if command -v xmllint >/dev/null; then
		xmllint --noout "$svg" >"$out/$name.xmllint" 2>&1
		tap $? "$name: xmllint: well-formed XML" "$out/$name.xmllint"
	else
		skip "$name: xmllint" "xmllint not installed (python3's parser below)"
	fi
	# shellcheck disable=SC2086
	check_svg "$svg" "$sweep_values" $routines >"$out/$name.check" 2>&1
	rc=$?
	grep '^#' "$out/$name.check"
	tap $rc "$name: $what" "$out/$name.check"
	if [ "$have_chromium" = 0 ]; then
		skip "$name: Chromium --dump-dom" "chromium not installed (scripts/deps.sh)"
		skip "$name: Chromium --screenshot" "chromium not installed (scripts/deps.sh)"
		return
	fi
	chrome --dump-dom "file://$svg" >"$out/$name.dom" 2>"$out/$name.chrome.log"
	rc=$?
	[ "$rc" = 0 ] && grep -q '<svg' "$out/$name.dom" &&
		has_ids "$out/$name.dom" "${panels[@]}" &&
		! grep -qi 'parsererror\|error on line' "$out/$name.dom"
	tap $? "$name: Chromium parses it (--dump-dom: the svg, ${panels[*]}, no parser error)" "$out/$name.chrome.log"
	w=$(sed -n 's/.*<svg[^>]* width="\([0-9]*\)".*/\1/p' "$svg" | head -n1)
	h=$(sed -n 's/.*<svg[^>]* height="\([0-9]*\)".*/\1/p' "$svg" | head -n1)
	rm -f "$out/$name.png"
	# shellcheck disable=SC2086  # one argument per colour
	chrome --screenshot="$out/$name.png" --window-size="$w,$h" "file://$svg" \
		>>"$out/$name.chrome.log" 2>&1 && [ -s "$out/$name.png" ] &&
		png_check "$out/$name.png" "$w" "$h" ${colours//:/ } >"$out/$name.pngcheck" 2>&1
	rc=$?
	grep '^#' "$out/$name.pngcheck" 2>/dev/null
	tap $rc "$name: Chromium --screenshot ${w}x$h: title drawn, the series in their colours" "$out/$name.pngcheck"
}

plot run add_chain "$blue" run add_chain --user --samples 300
plot compare "add_chain mul_chain" "$blue:$orange" compare add_chain mul_chain --user
plot run-log "add_chain mul_chain" "$blue:$orange" \
	run add_chain mul_chain --user --samples 500 --log-x

# a sweep (--arg, geometric: a log2 axis); its curve's lines in the full
# colour (#1f77b4)
sweep_values=7
plot sweep add_n "31,119,180" run add_n --user --arg 1..64:x2 --samples 200
sweep_values=0

echo "# SVGs and screenshots: $out"
echo "1..$n"
[ "$nfail" = 0 ]
exit
}
