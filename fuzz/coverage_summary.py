"""Summarizes fuzz/coverage.sh's llvm-cov exports: the codec's lines and
regions reached per target and merged, and the read path's unreached lines.

Usage: coverage_summary.py ROOT REPORT_DIR (REPORT_DIR holds <target>.json,
merged.json and merged.lcov). Writes REPORT_DIR/summary.md and
REPORT_DIR/unreached.txt, and prints the summary.
"""

import json
import os
import sys

# The read path: what turns untrusted bytes into values.
READ_PATH = ("bits.rs", "stream/", "ops/", "packet.rs", "protocols/")


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
    out = []
    for rel in sorted(missing):
        path = os.path.join(root, "codec", "src", rel)
        with open(path) as source:
            text = source.read().splitlines()
        for number in sorted(missing[rel]):
            code = text[number - 1].strip() if number <= len(text) else ""
            out.append(f"codec/src/{rel}:{number}: {code}")
    with open(os.path.join(report, "unreached.txt"), "w") as f:
        f.write("\n".join(out) + "\n")
    print(f"{len(out)} read-path lines unreached: {os.path.join(report, 'unreached.txt')}")


if __name__ == "__main__":
    main()
