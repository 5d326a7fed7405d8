#!/usr/bin/env python3
"""Ours beside the C++ reference and serialize.rs, in one run on one machine.

    python3 codec/benches/reference/versus.py --cpp PATH --rs PATH [--rounds N] [--cpu N]
    python3 codec/benches/reference/versus.py --cpp PATH --instructions

PATH for --cpp is a checkout of the C++ reference library
(git clone https://github.com/mas-bandwidth/serialize; its bench.cpp is
built here with g++ at -O2 and at -O3, -DNDEBUG -ffp-contract=off, as its
CMake release build does); PATH for --rs is a checkout of its safe-Rust
port (git clone https://github.com/mas-bandwidth/serialize.rs; its
`benches/throughput.rs` is built with `cargo bench --no-run`). Either may
be left out: the table then says so in its columns, and without both it
runs ours alone.

Each round runs every side once, in turn, all pinned to one core (the
last this process may use, or --cpu): our reference bench timed as the
references time theirs (its `--trials`: the best of five trials of 4096
bitpacker passes or a million packets), bench.cpp at -O2, bench.cpp at
-O3, serialize.rs. The table gives each side's median over the rounds,
and each ratio (ours over theirs, in throughput: above 1 is ours faster)
as its median with the lowest and highest over the rounds. serialize.rs
times the bitpacker and the stream packet only. Every read
gets its packet's length as a constant, as the references' reads do; the
`read-any-length` rows are ours alone, the same reads with a length known
only at run time, and so are the mixed packet derived and written by hand
without `#[inline]` or `MAX_BITS`.

With --instructions it counts instead of timing (valgrind; a figure that
repeats to the digit, for a machine too noisy to time on): ours from the
reference bench's `--instructions`, and the C++ reference from a copy of
its bench.cpp in a scratch directory, built as above with one trial of
fewer passes and packets, and with callgrind's client requests zeroing
the count before each timed loop and dumping it after. The table gives
instructions per bitpacker pass and per packet, and ours over -O3 (below
1, ours executes fewer); serialize.rs is not counted.

Under the table, the conclusions: for each reference, the rows of its
workloads where ours is ahead in every round, level (the median at 1.00 or
above, a round below), or behind; then the hand-written mixed packet over
the derived one, per round.
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

WORKLOADS = [
    ("bitpacker", "write"),
    ("bitpacker", "read"),
    ("stream", "write"),
    ("stream", "read"),
    ("int-packet", "write"),
    ("int-packet", "read"),
    ("bits-packet", "write"),
    ("bits-packet", "read"),
    ("mixed-packet", "write"),
    ("mixed-packet", "read"),
    # Ours alone: the reads above with a length the compiler does not know.
    ("stream", "read-any-length"),
    ("int-packet", "read-any-length"),
    ("bits-packet", "read-any-length"),
    ("mixed-packet", "read-any-length"),
    # Ours alone: the mixed packet derived, and written by hand without
    # `#[inline]` or `MAX_BITS` (as a user may forget them).
    ("derived-mixed-packet", "write"),
    ("derived-mixed-packet", "read"),
    ("plain-mixed-packet", "write"),
    ("plain-mixed-packet", "read"),
]

# The reference benchmarks' MB are MiB; the bitpacker rows are in GB/s
# (10^9 bytes a second), the others in millions of packets a second.
MIB_TO_GB = 1024.0 * 1024.0 / 1e9

REFERENCE_SHAPES = {
    "int packet": "int-packet",
    "bits packet": "bits-packet",
    "mixed packet": "mixed-packet",
}


def run(command, cwd=None):
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed:\n{done.stderr}")
    return done.stdout


def cargo_bench_binary(cwd, args):
    """Builds a bench with cargo and returns its executable."""
    out = run(["cargo", "bench", "--no-run", "--message-format=json", *args], cwd=cwd)
    for line in out.splitlines():
        message = json.loads(line)
        if message.get("reason") == "compiler-artifact" and message.get("executable"):
            if "bench" in message["target"]["kind"]:
                return message["executable"]
    sys.exit(f"cargo built no bench executable in {cwd or '.'}")


def parse_ours(text):
    figures = {}
    for line in text.splitlines():
        m = re.match(r"\| (\S+) (write|read|read-any-length) \| ([0-9.]+) (GB/s|M packets/s) \|", line)
        if m:
            figures[(m.group(1), m.group(2))] = float(m.group(3))
    return figures


def parse_reference(text):
    """bench.cpp's and throughput.rs's lines, in our units."""
    figures = {}
    for line in text.splitlines():
        m = re.match(r"bitpacker (write|read):\s+([0-9.]+) MB/s", line)
        if m:
            figures[("bitpacker", m.group(1))] = float(m.group(2)) * MIB_TO_GB
        m = re.match(r"stream (write|read):\s+[0-9.]+ MB/s\s+\(([0-9.]+) M packets/s\)", line)
        if m:
            figures[("stream", m.group(1))] = float(m.group(2))
        m = re.match(
            r"(int packet|bits packet|mixed packet)\s+\(runtime\):\s+write:\s+([0-9.]+) M packets/s\s+read:\s+([0-9.]+) M packets/s",
            line,
        )
        if m:
            shape = REFERENCE_SHAPES[m.group(1)]
            figures[(shape, "write")] = float(m.group(2))
            figures[(shape, "read")] = float(m.group(3))
    return figures


# The counted copy of bench.cpp: one trial of this many passes and packets.
COUNTED_PASSES = 16
COUNTED_PACKETS = 20000

# bench.cpp's timed loops in the order they run, each counted in one dump:
# the bitpacker's two, the stream packet's write, read and measure, then
# each packet shape's write and read, runtime form then compile-time form.
COUNTED_LOOPS = [
    ("bitpacker", "write"), ("bitpacker", "read"),
    ("stream", "write"), ("stream", "read"), None,
    ("int-packet", "write"), ("int-packet", "read"), None, None,
    ("bits-packet", "write"), ("bits-packet", "read"), None, None,
    ("mixed-packet", "write"), ("mixed-packet", "read"), None, None,
]


def counted_copy(source):
    """bench.cpp with its timed loops counted by callgrind, one trial each."""
    text = source
    for name, value in (("NumTrials", 1), ("BitpackerNumPasses", COUNTED_PASSES),
                        ("StreamNumPackets", COUNTED_PACKETS)):
        text, n = re.subn(rf"const int {name} = \d+;", f"const int {name} = {value};", text)
        if n != 1:
            sys.exit(f"bench.cpp has no single `const int {name}`: counting needs updating")
    text, starts = re.subn(r"^(\s*)((?:double )?start = time_now\(\);)",
                           r"\1CALLGRIND_ZERO_STATS; \2", text, flags=re.M)
    text, ends = re.subn(r"^(\s*)((?:double )?time = time_now\(\) - start;)",
                         r"\1CALLGRIND_DUMP_STATS; \2", text, flags=re.M)
    loops = 2 + 3 + 2  # bench_bitpacker, bench_stream, bench_packet_shape
    if starts != loops or ends != loops:
        sys.exit(f"bench.cpp has {starts} timed loops, not {loops}: counting needs updating")
    return "#include <valgrind/callgrind.h>\n" + text


def count_reference(exe):
    """Instructions per pass and per packet of each workload, by callgrind."""
    prefix = exe + ".callgrind"
    done = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={prefix}.%p", exe],
                          capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"callgrind failed:\n{done.stderr}")
    dumps = sorted((f for f in os.listdir(os.path.dirname(exe))
                    if re.fullmatch(re.escape(os.path.basename(prefix)) + r"\.\d+\.\d+", f)),
                   key=lambda f: int(f.rsplit(".", 1)[1]))
    if len(dumps) != len(COUNTED_LOOPS):
        sys.exit(f"callgrind wrote {len(dumps)} dumps, not {len(COUNTED_LOOPS)}")
    figures = {}
    for dump, workload in zip(dumps, COUNTED_LOOPS):
        text = open(os.path.join(os.path.dirname(exe), dump)).read()
        total = int(re.search(r"^(?:summary|totals): (\d+)", text, flags=re.M).group(1))
        if workload:
            per = COUNTED_PASSES if workload[0] == "bitpacker" else COUNTED_PACKETS
            figures[workload] = total / per
    return figures


def count_ours(exe):
    figures = {}
    for line in run([exe, "--instructions"]).splitlines():
        m = re.match(r"\| (\S+)-(write|read) \| (\d+) \|", line)
        if m:
            figures[(m.group(1), m.group(2))] = float(m.group(3))
    return figures


def print_counts(root, cpp, scratch):
    """The --instructions table."""
    if subprocess.run(["valgrind", "--version"], capture_output=True).returncode != 0:
        sys.exit("valgrind is not installed (apt-get install valgrind)")
    ours = count_ours(cargo_bench_binary(root, ["-p", "gamepacket-codec", "--bench", "reference"]))
    sides = {"ours": ours}
    if cpp:
        source = os.path.join(scratch, "bench_counted.cpp")
        with open(os.path.join(cpp, "bench.cpp")) as f, open(source, "w") as out:
            out.write(counted_copy(f.read()))
        for level in ("O2", "O3"):
            exe = os.path.join(scratch, f"counted-{level}")
            run(["g++", "-std=c++17", f"-{level}", "-DNDEBUG", "-ffp-contract=off",
                 "-I", cpp, source, "-o", exe])
            sides[f"C++ -{level}"] = count_reference(exe)
    names = list(sides)
    head = ["workload", "per", *names] + (["ours/C++ -O3"] if cpp else [])
    print("\n| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for workload in WORKLOADS:
        if workload not in ours:  # ours counts no read-any-length row
            continue
        per = "64 KiB pass" if workload[0] == "bitpacker" else "packet"
        row = [f"{workload[0]} {workload[1]}", per]
        row += [f"{sides[n][workload]:.0f}" if workload in sides[n] else "-" for n in names]
        if cpp:
            theirs = sides["C++ -O3"].get(workload)
            row.append(f"{ours[workload] / theirs:.2f}" if theirs and workload in ours else "-")
        print("| " + " | ".join(row) + " |")


def figure(x):
    if x is None:
        return "-"
    return f"{x:.0f}" if x >= 100 else f"{x:.1f}" if x >= 10 else f"{x:.2f}"


def ratio(ours, theirs):
    pairs = [o / t for o, t in zip(ours, theirs) if o and t]
    if not pairs:
        return "-"
    return f"{statistics.median(pairs):.2f} ({min(pairs):.2f}-{max(pairs):.2f})"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cpp", help="a checkout of mas-bandwidth/serialize")
    parser.add_argument("--rs", help="a checkout of mas-bandwidth/serialize.rs")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--cpu", type=int, help="the core every side runs on")
    parser.add_argument("--instructions", action="store_true",
                        help="count instructions under valgrind instead of timing")
    args = parser.parse_args()

    root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
    if args.instructions:
        print_counts(root, args.cpp, tempfile.mkdtemp(prefix="versus-"))
        return
    sides = {"ours": [cargo_bench_binary(root, ["-p", "gamepacket-codec", "--bench", "reference"]), "--trials"]}
    scratch = tempfile.mkdtemp(prefix="versus-")
    if args.cpp:
        for level in ("O2", "O3"):
            exe = os.path.join(scratch, f"bench-{level}")
            run(["g++", "-std=c++17", f"-{level}", "-DNDEBUG", "-ffp-contract=off",
                 "-I", args.cpp, os.path.join(args.cpp, "bench.cpp"), "-o", exe])
            sides[f"C++ -{level}"] = [exe]
    if args.rs:
        sides["serialize.rs"] = [cargo_bench_binary(args.rs, ["--bench", "throughput"])]
    if len(sides) == 1:
        print("no reference checkout given (--cpp, --rs): ours alone")

    # Pinned once everything is built; the children inherit the core.
    cpu = args.cpu if args.cpu is not None else max(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cpu})
    print(f"every side pinned to core {cpu}", file=sys.stderr)

    results = {name: [] for name in sides}
    for r in range(args.rounds):
        for name, command in sides.items():
            print(f"round {r + 1}/{args.rounds}: {name}", file=sys.stderr)
            text = run(command)
            results[name].append(parse_ours(text) if name == "ours" else parse_reference(text))

    names = list(sides)
    others = [n for n in names if n != "ours"]
    head = ["workload", "unit", *names, *[f"ours/{n}" for n in others]]
    print("\n| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for workload in WORKLOADS:
        unit = "GB/s" if workload[0] == "bitpacker" else "M packets/s"
        series = {n: [round_.get(workload) for round_ in results[n]] for n in names}
        medians = [
            figure(statistics.median([x for x in series[n] if x])) if any(series[n]) else "-"
            for n in names
        ]
        ratios = [ratio(series["ours"], series[n]) for n in others]
        print(f"| {workload[0]} {workload[1]} | {unit} | " + " | ".join(medians + ratios) + " |")

    print()
    for name in others:
        verdicts = {"ahead in every round": [], "level": [], "behind": []}
        for workload in WORKLOADS:
            pairs = [
                o / t
                for o, t in zip(
                    [r.get(workload) for r in results["ours"]],
                    [r.get(workload) for r in results[name]],
                )
                if o and t
            ]
            if not pairs:
                continue
            if min(pairs) >= 1.0:
                verdict = "ahead in every round"
            elif statistics.median(pairs) >= 1.0:
                verdict = "level"
            else:
                verdict = "behind"
            verdicts[verdict].append(f"{workload[0]} {workload[1]} {min(pairs):.2f}")
        print(f"against {name}: " + "; ".join(
            f"{len(rows)} {verdict}" + (f" ({', '.join(rows)})" if rows and verdict != "ahead in every round" else "")
            for verdict, rows in verdicts.items()
        ) + " (lowest round's ratio in brackets)")
    for direction in ("write", "read"):
        plain = [r.get(("plain-mixed-packet", direction)) for r in results["ours"]]
        derived = [r.get(("derived-mixed-packet", direction)) for r in results["ours"]]
        print(f"hand-written without #[inline] over derived, mixed packet {direction}: {ratio(plain, derived)}")


if __name__ == "__main__":
    main()
