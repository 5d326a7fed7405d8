#!/usr/bin/env python3
"""Mutation testing of the read path, around cargo-mutants.

    python3 .ci/mutants.py gate [--base REV]   the mutants in code changed since REV
    python3 .ci/mutants.py equivalents [--all] the mutants listed as equivalent

The read path's files, the build profile and the equivalent mutants are in
.cargo/mutants.toml; docs/HARNESS.md ("Proving it has teeth") explains them.

`gate` runs `cargo mutants --in-diff` over `git diff REV HEAD` and fails on
any mutant missed or timed out that is not listed as equivalent, and when
read-path mutants lie on the diff's added lines (counted here from
`cargo mutants --list --json`, apart from the tool's own matching) but not
one was tested: a diff whose paths the tool could not match would
otherwise pass while testing nothing. REV defaults to $MUTANTS_BASE, then
to the commit in .ci/mutants-gated (the last commit whose CI run, this
gate included, passed and landed), then to the commit in .ci/mutants-base
(the last full run). So every change is gated at the stop that lands it,
and a CI run tests only what changed since the last one landed, which
keeps it within its time limit.

`equivalents` checks the list: each entry names exactly one mutant and has a
reason on the line above it; the entries in files changed since the gate's
base (as `gate` finds it) must still be missed, and with `--all` every
entry must. An entry that a test now kills is reported, and fails: it
should leave the list. Unchanged files are left out by default because
each mutant costs a build and a test run, and an entry a new test kills
weakens nothing: the gate still tests that line's other mutants.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import tomllib
from fnmatch import fnmatch
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / ".cargo" / "mutants.toml"


def config():
    with open(CONFIG, "rb") as f:
        return tomllib.load(f)


def entries_with_reasons():
    """The exclude_re entries, each with the comment line above it (or None)."""
    lines = CONFIG.read_text().splitlines()
    inside, previous, found = False, None, []
    for line in lines:
        text = line.strip()
        if text.startswith("exclude_re"):
            inside = True
        elif inside and text == "]":
            break
        elif inside and text.startswith("'"):
            reason = previous[1:].strip() if previous and previous.startswith("#") else None
            found.append((text.rstrip(",").strip("'"), reason))
        if text:
            previous = text
    return found


def toml_string(value):
    # A TOML basic string: JSON's escapes are TOML's for these values.
    return json.dumps(value)


def write_config(path, settings):
    """Writes `settings` (strings, numbers, booleans, lists of strings) as TOML."""
    out = []
    for key, value in settings.items():
        if isinstance(value, bool):
            out.append(f"{key} = {'true' if value else 'false'}")
        elif isinstance(value, (int, float)):
            out.append(f"{key} = {value}")
        elif isinstance(value, str):
            out.append(f"{key} = {toml_string(value)}")
        else:
            out.append(f"{key} = [" + ", ".join(toml_string(v) for v in value) + "]")
    Path(path).write_text("\n".join(out) + "\n")


def cargo_mutants(args, check=False):
    # Two at once on CI's 2 cores: one mutant builds while another is tested.
    command = ["cargo", "mutants", "--jobs", "2", *args]
    print("$", " ".join(command), flush=True)
    return subprocess.run(command, cwd=ROOT, check=check)


def outcomes(out_dir):
    data = json.loads((Path(out_dir) / "mutants.out" / "outcomes.json").read_text())
    by_summary = {}
    for outcome in data["outcomes"]:
        scenario = outcome["scenario"]
        if isinstance(scenario, dict) and "Mutant" in scenario:
            name = scenario["Mutant"]["name"]
            by_summary.setdefault(outcome["summary"], []).append(name)
    return by_summary


def added_lines(diff):
    """The new-side line numbers each file's hunks add, from a unified diff."""
    added, current, line = {}, None, 0
    for text in diff.splitlines():
        if text.startswith("+++ "):
            current = text[4:].removeprefix("b/")
        elif text.startswith("@@"):
            line = int(re.match(r"@@ -\S+ \+(\d+)", text).group(1))
        elif current and text.startswith("+"):
            added.setdefault(current, set()).add(line)
            line += 1
        elif current and not text.startswith("-"):
            line += 1
    return added


def mutants_on(added):
    """The mutants of the read path (as configured) whose mutated code lies on
    an added line: what `--in-diff` must test, counted here without it."""
    listed = json.loads(
        subprocess.run(
            ["cargo", "mutants", "--list", "--json"], cwd=ROOT, check=True, capture_output=True, text=True
        ).stdout
    )
    found = []
    for mutant in listed:
        lines = added.get(mutant["file"], set())
        span = mutant["span"]
        if any(span["start"]["line"] <= n <= span["end"]["line"] for n in lines):
            found.append(mutant["name"])
    return found


def report(by_summary):
    for summary in ("CaughtMutant", "MissedMutant", "Timeout", "Unviable"):
        print(f"{summary}: {len(by_summary.get(summary, []))}")


def default_base():
    """The last landed gate's commit, else the last full run's."""
    for name in ("mutants-gated", "mutants-base"):
        path = ROOT / ".ci" / name
        if path.exists():
            return path.read_text().split()[0]
    raise SystemExit("no .ci/mutants-gated or .ci/mutants-base")


def gate(base):
    base = base or os.environ.get("MUTANTS_BASE") or default_base()
    # Rust sources only: mutants live there, and a corpus file's bytes
    # would otherwise be diffed as text that is not UTF-8.
    diff = subprocess.run(
        ["git", "diff", base, "HEAD", "--", "*.rs"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    owed = mutants_on(added_lines(diff))
    print(f"== {len(owed)} read-path mutants on lines added since {base}")
    with tempfile.TemporaryDirectory() as tmp:
        patch = Path(tmp) / "change.diff"
        patch.write_text(diff)
        run = cargo_mutants(["--in-diff", str(patch), "--output", tmp, "--no-shuffle"])
        ran = (Path(tmp) / "mutants.out" / "outcomes.json").exists()
        by_summary = outcomes(tmp) if ran else {}
    report(by_summary)
    tested = sum(len(by_summary.get(s, [])) for s in ("CaughtMutant", "MissedMutant", "Timeout", "Unviable"))
    if owed and tested == 0:
        # The pitfall of a gate that passes while testing nothing (a diff
        # whose paths the tool did not match, say): counted here, apart.
        print(f"FAIL: {len(owed)} read-path mutants lie on changed lines and none was tested")
        return 1
    if tested != len(owed):
        print(f"note: {len(owed)} mutants on added lines, cargo-mutants tested {tested}")
    failures = by_summary.get("MissedMutant", []) + by_summary.get("Timeout", [])
    for name in failures:
        print("NOT KILLED:", name)
    if failures:
        print("FAIL: mutants survived in read-path code; kill each with a test, or list it as")
        print("equivalent in .cargo/mutants.toml with its reason")
        return 1
    if run.returncode != 0:
        print(f"FAIL: cargo mutants exited {run.returncode}")
        return run.returncode
    print(f"ok: {tested} mutants tested, every one killed or unviable")
    return 0


def entry_file(pattern):
    """The source file an entry's pattern names, as git spells it."""
    return pattern.lstrip("^").split(":", 1)[0].replace("\\.", ".")


def changed_files(base):
    return set(
        subprocess.run(
            ["git", "diff", "--name-only", base, "HEAD", "--", "*.rs"],
            cwd=ROOT, check=True, capture_output=True, text=True,
        ).stdout.split()
    )


def equivalents(everything):
    settings = config()
    entries = entries_with_reasons()
    failed = False
    for pattern, reason in entries:
        if not reason:
            print("NO REASON:", pattern)
            failed = True
    listed = subprocess.run(
        ["cargo", "mutants", "--list", "--no-config", *sum((["-f", g] for g in settings["examine_globs"]), [])],
        cwd=ROOT, check=True, capture_output=True, text=True,
    ).stdout.splitlines()
    for pattern, _ in entries:
        matches = [name for name in listed if re.search(pattern, name)]
        if len(matches) != 1:
            print(f"MATCHES {len(matches)} MUTANTS, NOT ONE: {pattern}")
            for name in matches:
                print("   ", name)
            failed = True
    if failed:
        return 1
    if not everything:
        base = os.environ.get("MUTANTS_BASE") or default_base()
        changed = changed_files(base)
        left = len(entries)
        entries = [(p, r) for p, r in entries if entry_file(p) in changed]
        print(f"== {len(entries)} of {left} listed mutants lie in files changed since {base} (--all checks every one)")
        if not entries:
            print("ok: no listed mutant's file changed")
            return 0
    with tempfile.TemporaryDirectory() as tmp:
        settings = {k: v for k, v in settings.items() if k != "exclude_re"}
        settings["examine_re"] = [pattern for pattern, _ in entries]
        write_config(Path(tmp) / "equivalents.toml", settings)
        cargo_mutants(["--config", str(Path(tmp) / "equivalents.toml"), "--output", tmp])
        # Only the listed mutants count: the tool's examine_re lets some
        # kinds of mutant (struct field deletions) through whatever it says.
        patterns = [pattern for pattern, _ in entries]
        by_summary = {
            summary: [name for name in names if any(re.search(p, name) for p in patterns)]
            for summary, names in outcomes(tmp).items()
        }
    report(by_summary)
    for name in by_summary.get("CaughtMutant", []):
        print("KILLED, SO NOT EQUIVALENT:", name)
        failed = True
    for name in by_summary.get("Timeout", []):
        print("TIMED OUT, SO NOT EQUIVALENT:", name)
        failed = True
    for name in by_summary.get("Unviable", []):
        print("DOES NOT BUILD, SO NEVER TESTED; TAKE IT OFF THE LIST:", name)
        failed = True
    missed = len(by_summary.get("MissedMutant", []))
    if missed != len(entries) and not failed:
        print(f"FAIL: {len(entries)} listed, {missed} missed")
        failed = True
    if failed:
        return 1
    print(f"ok: each of the {len(entries)} listed mutants is still missed")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    g = sub.add_parser("gate", help="the mutants in code changed since a commit")
    g.add_argument("--base", help="the commit to diff against (default: $MUTANTS_BASE, then .ci/mutants-gated, then .ci/mutants-base)")
    e = sub.add_parser("equivalents", help="check the list of equivalent mutants")
    e.add_argument("--all", action="store_true", help="run every listed mutant, not only those in files changed since the gate's base")
    args = parser.parse_args()
    sys.exit(gate(args.base) if args.command == "gate" else equivalents(args.all))


if __name__ == "__main__":
    main()
