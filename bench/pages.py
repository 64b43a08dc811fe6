#!/usr/bin/env python3
"""Generates the benchmark pages: deterministic, Python standard library only, no downloads.

    python3 bench/pages.py DIR      writes the pages into DIR and prints their sizes

Layout under DIR (every URL in a page is relative, so the harness can serve a run under its own
prefix and browsers never share a cache entry across runs):

    tiny.html              a few hundred bytes, for warm-up launches
    typical/index.html     ~300 KB of HTML, CSS and JS in four files (index.html, style.css,
    typical/style.css      vendor.js, app.js; app.js renders a 300-row table from an embedded
    typical/vendor.js      data set at DOMContentLoaded) and 20 PNG images in typical/img/
    typical/app.js
    typical/img/*.png
    nav/0.html ... nav/N.html   the navigation chain: 0.html's onload reports `done`, then clicks
                           the link to 1.html; each page's onload clicks the link to the next;
                           N.html's onload reports `done2`. N same-origin navigations in all.

Pages report with `fetch('done?t=<performance.now()>')`; the harness times the request's arrival.
No page keeps timers, animations or connections alive after onload, so idle CPU is the browser's.
"""

import os
import random
import struct
import sys
import zlib

# Bump when the generated output changes, so a cached page directory is regenerated.
VERSION = "3"
NAV_HOPS = 20

WORDS = (
    "school library kiosk museum garden river station harbour window table paper pencil "
    "lesson reading science history music theatre weather market village mountain forest "
    "morning evening summer winter number letter picture journey question answer story "
    "chapter teacher student visitor exhibit gallery catalogue opening hours ticket map "
    "painting sculpture fossil planet rocket engine bridge tower castle island ocean desert"
).split()

REPORT = "fetch('{name}?t=' + performance.now().toFixed(1), {{cache: 'no-store'}})"


def words(rnd, n):
    return " ".join(rnd.choice(WORDS) for _ in range(n))


def sentence(rnd):
    s = words(rnd, rnd.randint(6, 18))
    return s[0].upper() + s[1:] + "."


def paragraph(rnd):
    return " ".join(sentence(rnd) for _ in range(rnd.randint(3, 6)))


# ------------------------------------------------------------------------------------- images

def png(width, height, rows, palette):
    """An 8-bit indexed-colour PNG from `rows` (bytes of `width` palette indices each)."""
    def chunk(tag, data):
        return (struct.pack(">I", len(data)) + tag + data
                + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF))
    raw = b"".join(b"\0" + row for row in rows)
    return (b"\x89PNG\r\n\x1a\n"
            + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0))
            + chunk(b"PLTE", bytes(palette))
            + chunk(b"IDAT", zlib.compress(raw, 9))
            + chunk(b"IEND", b""))


def image(seed, width, height):
    """A picture-like image: a two-colour gradient with noise, in bands of 8 identical rows, so
    the set weighs about what 20 small web images do (~250 KB), not a handful of bytes."""
    rnd = random.Random(seed)
    c1 = [rnd.randint(0, 255) for _ in range(3)]
    c2 = [rnd.randint(0, 255) for _ in range(3)]
    palette = []
    for i in range(256):
        palette.extend(int(a + (b - a) * i / 255) for a, b in zip(c1, c2))
    xs = [(x * 160 // width + rnd.randint(0, 6)) for x in range(width)]
    noise = bytes(rnd.randint(0, 7) for _ in range(4099))
    rows = []
    for y in range(height):
        band = y // 8
        base = band * 8 * 90 // height
        off = (band * 131) % 4000
        rows.append(bytes((xs[x] + base + noise[off + (x & 63)]) & 255 for x in range(width)))
    return png(width, height, rows, palette)


IMAGES = ([("photo%d.png" % i, 800, 450) for i in range(4)]
          + [("thumb%02d.png" % i, 240, 160) for i in range(12)]
          + [("icon%d.png" % i, 96, 96) for i in range(4)])


# ------------------------------------------------------------------------------- typical page

def css(rnd):
    parts = ["""/* generated stylesheet */
*,*::before,*::after{box-sizing:border-box}
body{margin:0;font-family:"DejaVu Sans",sans-serif;line-height:1.5;color:#1d2733;background:#f4f6f9}
a{color:#1456b8;text-decoration:none}
header.site{display:flex;justify-content:space-between;align-items:center;padding:12px 24px;background:linear-gradient(90deg,#0f2d52,#1d5fa8);color:#fff}
header.site nav a{color:#e8f0ff;margin:0 8px}
.layout{display:grid;grid-template-columns:200px minmax(0,1fr) 240px;gap:24px;max-width:1280px;margin:24px auto;padding:0 16px}
aside,main article{background:#fff;border-radius:8px;padding:16px 24px;box-shadow:0 1px 3px rgba(0,0,0,.12)}
.hero img,.card img{display:block;width:100%;height:auto}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(200px,1fr));gap:16px;margin:24px 0}
.card{border:1px solid #dde3ea;border-radius:8px;overflow:hidden}
.card .body{padding:8px 12px}
table.data{width:100%;border-collapse:collapse;font-size:.85rem}
table.data td,table.data th{border-bottom:1px solid #e3e8ee;padding:4px 8px;text-align:left}
table.data tr:nth-child(even) td{background:#f7f9fc}
footer.site{background:#14202e;color:#aab6c4;padding:24px;margin-top:32px}
footer.site .cols{display:grid;grid-template-columns:repeat(4,1fr);gap:16px}
@media (max-width:900px){.layout{grid-template-columns:1fr}aside{display:none}}
"""]
    props = ["margin", "padding", "border-radius", "font-size", "letter-spacing", "max-width",
             "min-height", "gap", "line-height", "opacity", "z-index"]
    i = 0
    while sum(map(len, parts)) < 49_000:
        decls = []
        for _ in range(rnd.randint(2, 6)):
            p = rnd.choice(props)
            if p in ("opacity", "line-height"):
                v = "%.2f" % (rnd.random() + (1 if p == "line-height" else 0))
            elif p == "z-index":
                v = str(rnd.randint(0, 40))
            else:
                v = "%dpx" % rnd.randint(0, 48)
            decls.append("%s:%s" % (p, v))
        decls.append("color:#%06x" % rnd.randint(0, 0xFFFFFF))
        if rnd.random() < 0.3:
            decls.append("background:linear-gradient(%ddeg,#%06x,#%06x)"
                         % (rnd.randint(0, 359), rnd.randint(0, 0xFFFFFF), rnd.randint(0, 0xFFFFFF)))
        parts.append(".c-%s-%d{%s}\n" % (rnd.choice(WORDS), i, ";".join(decls)))
        i += 1
    return "".join(parts)


def vendor_js(rnd):
    out = ["/* generated library: helpers, an event emitter, a tiny template engine */\n"
           "(function (root) {\n'use strict';\nvar lib = {};\n"
           "lib.escape = function (s) { return String(s).replace(/[&<>\"]/g, function (c) {"
           " return {'&': '&amp;', '<': '&lt;', '>': '&gt;', '\"': '&quot;'}[c]; }); };\n"
           "lib.template = function (t, o) { return t.replace(/\\{(\\w+)\\}/g, function (m, k) {"
           " return lib.escape(o[k]); }); };\n"
           "lib.emitter = function () { var h = {}; return { on: function (e, f) {"
           " (h[e] = h[e] || []).push(f); }, emit: function (e, a) { (h[e] || []).forEach(function (f)"
           " { f(a); }); } }; };\n"]
    i = 0
    while sum(map(len, out)) < 33_000:
        a, b = rnd.choice(WORDS), rnd.choice(WORDS)
        out.append("lib.%s_%s_%d = function (list, k) {\n"
                   "  var acc = %d;\n"
                   "  for (var i = 0; i < list.length; i++) { acc = (acc * 31 + String(list[i][k] || '').length)"
                   " %% %d; }\n"
                   "  return acc;\n};\n" % (a, b, i, rnd.randint(1, 99), rnd.randint(1000, 99999)))
        i += 1
    out.append("root.lib = lib;\n})(window);\n")
    return "".join(out)


def app_js(rnd):
    rows = []
    for i in range(300):
        rows.append('{id:%d,name:"%s",place:"%s",visits:%d,score:%.2f,note:"%s"}'
                    % (i, words(rnd, 2), words(rnd, 1), rnd.randint(0, 99999), rnd.random() * 100,
                       sentence(rnd)))
    out = ["/* generated application: renders the data set into #data at DOMContentLoaded */\n"
           "var DATA = [\n" + ",\n".join(rows) + "\n];\n"]
    i = 0
    while sum(map(len, out)) < 130_000:
        out.append("function view_%s_%d(row) {\n"
                   "  var parts = [row.name, row.place, String(row.visits)];\n"
                   "  if (row.score > %d) { parts.push('%s'); }\n"
                   "  return lib.template('<span class=\"c-%s\">{v}</span>', {v: parts.join(' / ')});\n"
                   "}\n" % (rnd.choice(WORDS), i, rnd.randint(0, 99), words(rnd, 2), rnd.choice(WORDS)))
        i += 1
    out.append("document.addEventListener('DOMContentLoaded', function () {\n"
               "  var tpl = '<tr><td>{id}</td><td>{name}</td><td>{place}</td><td>{visits}</td>"
               "<td>{score}</td><td>{note}</td></tr>';\n"
               "  var html = ['<table class=\"data\"><thead><tr><th>#</th><th>Name</th><th>Place</th>"
               "<th>Visits</th><th>Score</th><th>Note</th></tr></thead><tbody>'];\n"
               "  DATA.sort(function (a, b) { return b.visits - a.visits; });\n"
               "  for (var i = 0; i < DATA.length; i++) { html.push(lib.template(tpl, DATA[i])); }\n"
               "  html.push('</tbody></table>');\n"
               "  document.getElementById('data').innerHTML = html.join('');\n"
               "  lib.emitter().emit('ready', DATA.length);\n"
               "});\n"
               "window.addEventListener('load', function () { " + REPORT.format(name="done") + "; });\n")
    return "".join(out)


def index_html(rnd):
    photos = [n for n, _, _ in IMAGES if n.startswith("photo")]
    thumbs = [n for n, _, _ in IMAGES if n.startswith("thumb")]
    icons = [n for n, _, _ in IMAGES if n.startswith("icon")]
    dims = {n: (w, h) for n, w, h in IMAGES}

    def img(name, alt):
        w, h = dims[name]
        return '<img src="img/%s" width="%d" height="%d" alt="%s">' % (name, w, h, alt)

    h = ['<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">\n'
         '<title>Typical page</title>\n<meta name="viewport" content="width=device-width">\n'
         '<link rel="stylesheet" href="style.css">\n<script src="vendor.js"></script>\n'
         '<script src="app.js" defer></script>\n</head><body>\n'
         '<header class="site"><div class="logo">%s%s</div><nav>%s</nav></header>\n'
         % (img(icons[0], "logo"), words(rnd, 2),
            "".join('<a href="#s%d">%s</a>' % (i, words(rnd, 1)) for i in range(8))),
         '<div class="layout"><aside><ul>%s</ul>%s</aside><main>\n'
         % ("".join('<li><a href="#s%d">%s</a></li>' % (i, words(rnd, 3)) for i in range(40)),
            img(icons[1], "badge"))]
    section = 0
    while sum(map(len, h)) < 76_000:
        h.append('<article id="s%d"><h2>%s</h2>\n' % (section, sentence(rnd)))
        if section < len(photos):
            h.append('<div class="hero">%s</div>\n' % img(photos[section], words(rnd, 3)))
        for _ in range(4):
            h.append("<p>%s</p>\n" % paragraph(rnd))
        if section < 3:
            h.append('<div class="cards">%s</div>\n' % "".join(
                '<div class="card">%s<div class="body"><h3>%s</h3><p>%s</p></div></div>'
                % (img(t, words(rnd, 2)), words(rnd, 3), sentence(rnd))
                for t in thumbs[section * 4:section * 4 + 4]))
        h.append("<ul>%s</ul></article>\n" % "".join("<li>%s</li>" % sentence(rnd) for _ in range(6)))
        section += 1
    h.append('<div id="data"></div></main>\n<aside>%s%s<p>%s</p></aside></div>\n'
             % (img(icons[2], "info"), img(icons[3], "help"), paragraph(rnd)))
    h.append('<footer class="site"><div class="cols">%s</div></footer>\n</body></html>\n' % "".join(
        "<div>%s</div>" % "".join('<a href="#s%d">%s</a>' % (j, words(rnd, 2)) for j in range(10))
        for _ in range(4)))
    return "".join(h)


# ------------------------------------------------------------------------------------- pages

def tiny_html():
    return ('<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>tiny</title></head>\n'
            '<body><p>A tiny page.</p>\n<script>window.addEventListener("load", function () { %s; });'
            '</script></body></html>\n' % REPORT.format(name="done"))


def nav_html(k, hops):
    """Page k of the chain. Page 0 reports `done` (waiting for the request to be on its way, so the
    navigation cannot cancel it) and then follows the link; the last page reports `done2`."""
    if k == hops:
        onload = REPORT.format(name="done2") + ";"
    else:
        click = "document.getElementById('next').click()"
        if k == 0:
            onload = REPORT.format(name="done") + ".finally(function () { %s; });" % click
        else:
            onload = "setTimeout(function () { %s; }, 0);" % click
    link = '<a id="next" href="%d.html">next</a>' % (k + 1) if k < hops else "end"
    return ('<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>hop %d</title>\n'
            '<link rel="stylesheet" href="nav.css"></head>\n'
            '<body><h1>Page %d of %d</h1><p>%s</p>\n'
            '<script>window.addEventListener("load", function () { %s });</script></body></html>\n'
            % (k, k, hops, link, onload))


def generate(outdir, hops=NAV_HOPS):
    """Writes the pages into outdir (skipped when a complete set of this version is there) and
    returns outdir."""
    stamp = os.path.join(outdir, ".version")
    want = "%s %d" % (VERSION, hops)
    try:
        with open(stamp) as f:
            if f.read() == want:
                return outdir
    except OSError:
        pass
    rnd = random.Random(20240601)
    files = {
        "tiny.html": tiny_html().encode(),
        "typical/index.html": index_html(rnd).encode(),
        "typical/style.css": css(rnd).encode(),
        "typical/vendor.js": vendor_js(rnd).encode(),
        "typical/app.js": app_js(rnd).encode(),
        "nav/nav.css": b"body{font-family:sans-serif;margin:2em;background:#fafafa}h1{color:#234}\n",
    }
    for seed, (name, w, h) in enumerate(IMAGES):
        files["typical/img/" + name] = image(seed, w, h)
    for k in range(hops + 1):
        files["nav/%d.html" % k] = nav_html(k, hops).encode()
    for rel, data in files.items():
        path = os.path.join(outdir, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
    with open(stamp, "w") as f:
        f.write(want)
    return outdir


def sizes(outdir):
    """(text bytes, image bytes, image count) of the typical page."""
    text = imgs = count = 0
    root = os.path.join(outdir, "typical")
    for dirpath, _, names in os.walk(root):
        for n in names:
            size = os.path.getsize(os.path.join(dirpath, n))
            if n.endswith(".png"):
                imgs += size
                count += 1
            else:
                text += size
    return text, imgs, count


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: pages.py DIR")
    d = generate(sys.argv[1])
    text, imgs, count = sizes(d)
    print("typical: %d KB HTML/CSS/JS, %d images (%d KB)" % (text // 1024, count, imgs // 1024))
    for dirpath, _, names in sorted(os.walk(d)):
        for n in sorted(names):
            if not n.startswith("."):
                p = os.path.join(dirpath, n)
                print("%8d  %s" % (os.path.getsize(p), os.path.relpath(p, d)))
