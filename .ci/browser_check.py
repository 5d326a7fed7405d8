"""Judges what Chromium rendered (.ci/browser): the DOM it built and the
size of its screenshots. Exits non-zero with the reason on failure."""
import json
import os
import sys
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

picture = parse("packet.dom.html")
if picture.refused != 1:
    fail(f"the picture has {picture.refused} refused fields, not 1")
if "out-of-range" not in "".join(picture.text):
    fail("the picture does not write the refusal")
packet_bytes = screenshot("packet.png", 8_000)

print(
    f"browser check: campaign page {page.rows} rows as in the JSON, "
    f"screenshots {campaign_bytes} and {packet_bytes} bytes"
)
