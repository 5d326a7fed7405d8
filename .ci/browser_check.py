"""Judges what Chromium rendered (.ci/browser): the DOM it built and the
size of its screenshots. Exits non-zero with the reason on failure."""
import html
import json
import os
import struct
import sys
import zlib
from html.parser import HTMLParser

out = sys.argv[1]


def fail(why):
    print(f"browser check FAILED: {why}", file=sys.stderr)
    sys.exit(1)


class Counter(HTMLParser):
    """Counts the class tables' rows, the refused fields, and the text."""

    def __init__(self):
        super().__init__()
        self.in_classes = 0
        self.rows = 0
        self.refused = 0
        self.scripts = 0
        self.text = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        classes = (attrs.get("class") or "").split()
        if tag == "table" and "classes" in classes:
            self.in_classes += 1
        if tag == "tr" and self.in_classes and ({"clean", "failing"} & set(classes)):
            self.rows += 1
        if tag == "g" and "refused" in classes:
            self.refused += 1
        if tag == "script":
            self.scripts += 1

    def handle_endtag(self, tag):
        if tag == "table" and self.in_classes:
            self.in_classes -= 1

    def handle_data(self, data):
        self.text.append(data)


def parse(name):
    with open(os.path.join(out, name), encoding="utf-8") as f:
        dom = f.read()
    if "chrome-error" in dom or "ERR_FILE_NOT_FOUND" in dom:
        fail(f"{name}: the browser showed an error page")
    counter = Counter()
    counter.feed(dom)
    return counter


def screenshot(name, least):
    size = os.path.getsize(os.path.join(out, name))
    # A blank page compresses to a few kilobytes.
    if size < least:
        fail(f"{name} is {size} bytes: blank?")
    return size


def pixels(name):
    """The RGB pixels of a PNG screenshot (8-bit RGB or RGBA, not
    interlaced, as Chromium writes them), row by row."""
    with open(os.path.join(out, name), "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail(f"{name} is not a PNG")
    at, idat = 8, b""
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at : at + 8])
        body = data[at + 8 : at + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        at += 12 + length
    if depth != 8 or colour not in (2, 6) or interlace:
        fail(f"{name}: a PNG this check cannot read (depth {depth}, colour {colour})")
    step = 3 if colour == 2 else 4
    raw, stride = zlib.decompress(idat), width * step
    rows, previous = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        for x in range(stride):
            left = line[x - step] if x >= step else 0
            up, corner = previous[x], previous[x - step] if x >= step else 0
            if kind == 1:
                line[x] = (line[x] + left) & 0xFF
            elif kind == 2:
                line[x] = (line[x] + up) & 0xFF
            elif kind == 3:
                line[x] = (line[x] + (left + up) // 2) & 0xFF
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                guess = left if pa <= pb and pa <= pc else up if pb <= pc else corner
                line[x] = (line[x] + guess) & 0xFF
        rows.append(bytes(line))
        previous = line
    return [[row[i : i + 3] for i in range(0, stride, step)] for row in rows]


page = parse("campaign.dom.html")
with open(os.path.join(out, "campaign.json"), encoding="utf-8") as f:
    report = json.load(f)
expected = len(report["rows"])
if page.rows != expected:
    fail(f"the page's tables have {page.rows} rows, the JSON report {expected}")
if page.scripts:
    fail("the page has a script")
if "FAILURES" not in "".join(page.text):
    fail("the page does not show the failing campaign's verdict")
campaign_bytes = screenshot("campaign.png", 40_000)
# The chart's failure bars are pure red, a colour nothing else on the page
# uses: a failing campaign must show some, whatever its counts.
red = sum(1 for row in pixels("campaign.png") for p in row if p[0] >= 250 and p[1] <= 10 and p[2] <= 10)
if red < 500:
    fail(f"the failing campaign's chart shows {red} red pixels: its failures are not drawn")

# Each row's label, as Chromium laid it out, has its centre within the
# middle half of its own bar's row (a label half a row off sits on the edge
# between two bars): the rows of the chart are in the JSON report's order.
with open(os.path.join(out, "geometry.dom.html"), encoding="utf-8") as f:
    dom = f.read()
start = dom.find('<pre id="geometry">')
if start < 0:
    fail("the chart's geometry was not measured")
geometry = json.loads(html.unescape(dom[start + len('<pre id="geometry">') : dom.find("</pre>", start)]))
labels = {label["text"]: label for label in geometry["labels"]}
bars = geometry["bars"]
if len(bars) != expected:
    fail(f"the chart has {len(bars)} bars, the JSON report {expected} rows")
for row, bar in zip(report["rows"], bars):
    name = f'{row["target"]} / {row["class"]}'
    label = labels.get(name)
    if label is None:
        fail(f"the chart has no label {name!r}")
    centre = (label["top"] + label["bottom"]) / 2
    middle, height = (bar["top"] + bar["bottom"]) / 2, bar["bottom"] - bar["top"]
    if abs(centre - middle) > height / 4:
        fail(f"label {name!r} is centred at {centre:.1f}, off the middle half of its bar ({bar['top']:.1f} to {bar['bottom']:.1f})")

picture = parse("packet.dom.html")
if picture.refused != 1:
    fail(f"the picture has {picture.refused} refused fields, not 1")
if "out-of-range" not in "".join(picture.text):
    fail("the picture does not write the refusal")
packet_bytes = screenshot("packet.png", 8_000)

print(
    f"browser check: campaign page {page.rows} rows as in the JSON, each chart label within its bar, "
    f"{red} red pixels of failures, "
    f"screenshots {campaign_bytes} and {packet_bytes} bytes"
)
