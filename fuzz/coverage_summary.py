"""Summarizes fuzz/coverage.sh's llvm-cov exports: the codec's lines and
regions reached per target and merged, and the read path's unreached lines.

Usage: coverage_summary.py ROOT REPORT_DIR (REPORT_DIR holds <target>.json,
merged.json and merged.lcov). Writes REPORT_DIR/summary.md,
REPORT_DIR/unreached.txt (every unreached read-path line with its text) and
REPORT_DIR/unreached.md (the same lines by file and enclosing item, each
with its reason from fuzz/unreached_reasons.txt), and prints the summary
and any unreached item that has no reason.
"""

import json
import os
import re
import sys

# The read path: what turns untrusted bytes into values.
READ_PATH = ("bits/", "stream/", "packet.rs", "protocols/")


def codec_relative(root, path):
    """`path` relative to codec/src, or None outside the codec's sources."""
    prefix = os.path.join(root, "codec", "src") + os.sep
    return path[len(prefix):] if path.startswith(prefix) else None


def totals(root, export, only_read_path=False):
    """(lines covered, lines, regions covered, regions) over the codec."""
    sums = [0, 0, 0, 0]
    seen = set()
    for data in export["data"]:
        for entry in data["files"]:
            rel = codec_relative(root, entry["filename"])
            if rel is None or rel in seen:
                continue
            if only_read_path and not rel.startswith(READ_PATH):
                continue
            seen.add(rel)
            summary = entry["summary"]
            sums[0] += summary["lines"]["covered"]
            sums[1] += summary["lines"]["count"]
            sums[2] += summary["regions"]["covered"]
            sums[3] += summary["regions"]["count"]
    return sums


def percent(covered, count):
    return f"{100.0 * covered / count:.1f} %" if count else "n/a"


def row(name, sums, read):
    return (
        f"| {name} | {sums[0]}/{sums[1]} ({percent(sums[0], sums[1])}) "
        f"| {sums[2]}/{sums[3]} ({percent(sums[2], sums[3])}) "
        f"| {read[0]}/{read[1]} ({percent(read[0], read[1])}) |"
    )


def unreached(root, lcov_path):
    """Read-path lines with a zero count, by file."""
    missing = {}
    current = None
    with open(lcov_path) as lcov:
        for line in lcov:
            line = line.strip()
            if line.startswith("SF:"):
                rel = codec_relative(root, line[3:])
                current = rel if rel and rel.startswith(READ_PATH) else None
            elif line.startswith("DA:") and current:
                number, count = line[3:].split(",")[:2]
                if int(count) == 0:
                    missing.setdefault(current, set()).add(int(number))
    return missing


# The item a line belongs to: the nearest fn, const or impl header above it.
ITEM = re.compile(r"^\s*(?:pub(?:\([^)]*\))? )?(?:const )?(?:fn (\w+)|const (\w+)|(impl\b.*?))\s*(?:[<({=:]|$)")


def item_of(text, number):
    """The name of the item holding line `number` (1-based) of `text`."""
    for index in range(number - 1, -1, -1):
        match = ITEM.match(text[index])
        if match:
            name = match.group(1) or match.group(2) or match.group(3)
            return " ".join(name.split())
    return "(top)"


def reasons(root):
    """fuzz/unreached_reasons.txt: `<file> <item>: reason` lines, # comments."""
    found = {}
    with open(os.path.join(root, "fuzz", "unreached_reasons.txt")) as f:
        for line in f:
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            key, _, why = line.partition(": ")
            found[key.strip()] = why.strip()
    return found


def ranges(numbers):
    """Sorted line numbers as "a-b" runs."""
    out, start, last = [], None, None
    for n in sorted(numbers):
        if start is None:
            start = last = n
        elif n == last + 1:
            last = n
        else:
            out.append(f"{start}-{last}" if last > start else f"{start}")
            start = last = n
    if start is not None:
        out.append(f"{start}-{last}" if last > start else f"{start}")
    return ", ".join(out)


def main():
    root, report = sys.argv[1], sys.argv[2]
    lines = [
        "| target | codec lines | codec regions | read-path lines |",
        "|---|---|---|---|",
    ]
    names = sorted(
        f[: -len(".json")]
        for f in os.listdir(report)
        if f.endswith(".json") and f != "merged.json"
    )
    for name in names:
        with open(os.path.join(report, name + ".json")) as f:
            export = json.load(f)
        lines.append(row(f"`{name}`", totals(root, export), totals(root, export, True)))
    with open(os.path.join(report, "merged.json")) as f:
        merged = json.load(f)
    lines.append(row("**all, merged**", totals(root, merged), totals(root, merged, True)))
    summary = "\n".join(lines) + "\n"
    with open(os.path.join(report, "summary.md"), "w") as f:
        f.write(summary)
    print(summary)

    missing = unreached(root, os.path.join(report, "merged.lcov"))
    known = reasons(root)
    out = []
    table = ["| file | item | lines | why no fuzz target reaches them |", "|---|---|---|---|"]
    unexplained = []
    for rel in sorted(missing):
        path = os.path.join(root, "codec", "src", rel)
        with open(path) as source:
            text = source.read().splitlines()
        by_item = {}
        for number in sorted(missing[rel]):
            code = text[number - 1].strip() if number <= len(text) else ""
            out.append(f"codec/src/{rel}:{number}: {code}")
            by_item.setdefault(item_of(text, number), []).append(number)
        for item, numbers in by_item.items():
            key = f"{rel} {item}"
            why = known.get(key)
            if why is None:
                unexplained.append(key)
                why = "**no reason given**"
            table.append(f"| `{rel}` | `{item}` | {ranges(numbers)} | {why} |")
    with open(os.path.join(report, "unreached.txt"), "w") as f:
        f.write("\n".join(out) + "\n")
    with open(os.path.join(report, "unreached.md"), "w") as f:
        f.write("\n".join(table) + "\n")
    print(f"{len(out)} read-path lines unreached: {os.path.join(report, 'unreached.md')}")
    for key in unexplained:
        print(f"no reason in fuzz/unreached_reasons.txt for: {key}")


if __name__ == "__main__":
    main()
