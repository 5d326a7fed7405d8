#!/usr/bin/env python3
"""Best-of-N wall time of the peers bench's rows, for builds side by side.

On a shared machine a criterion median moves with the neighbours; the
fastest of many short runs moves much less. Each repetition runs every
build's child run (`--run-one WORKLOAD CODEC DIRECTION ROUNDS`, the one
`-- --instructions` counts) in turn, pinned to one core, with ROUNDS and
with none; a row's time is the best run with rounds less the best without,
per packet.

    cargo bench -p gamepacket-adversarial --bench peers --no-run   # prints BIN
    python3 adversarial/benches/peers/best_of.py --row scene-10pct/decode/ours-E BIN_BEFORE BIN_AFTER
"""

import argparse
import subprocess
import time

# Packets per batch of a packet workload, as `workload.rs` builds them.
PACKETS = {"packet-A": 2048, "packet-B": 2048, "packet-C": 2048}


def packets(workload):
    """Packets per batch; a scene at any density (`scene-25pct`), as
    `workload::scenes` sizes its batch, so that densities the criterion
    rows leave out (the blocks' 12 to 47 %) can be timed too."""
    if workload in PACKETS:
        return PACKETS[workload]
    density = int(workload.removeprefix("scene-").removesuffix("pct"))
    objects = (1024 * density + 50) // 100
    return min(max(16384 // max(objects, 1), 1), 2048)


def run(binary, workload, codec, direction, rounds, core):
    start = time.perf_counter()
    subprocess.run(["taskset", "-c", str(core), binary, "--run-one", workload, codec,
                    direction, str(rounds)], check=True)
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("binaries", nargs="+", help="peers bench binaries to compare")
    parser.add_argument("--row", action="append", required=True,
                        help="WORKLOAD/DIRECTION/CODEC, as criterion names it; repeatable")
    parser.add_argument("--rounds", type=int, default=300,
                        help="batches per timed run: enough that the set-up run subtracted, about 9 ms, is small beside it")
    parser.add_argument("--reps", type=int, default=11, help="runs of each; the best counts")
    parser.add_argument("--core", type=int, default=1, help="the core to pin to")
    args = parser.parse_args()
    print("| row | " + " | ".join(args.binaries) + " |")
    print("|---|" + "---|" * len(args.binaries))
    for row in args.row:
        workload, direction, codec = row.split("/")
        best = {}
        for _ in range(args.reps):
            for binary in args.binaries:
                for rounds in (0, args.rounds):
                    took = run(binary, workload, codec, direction, rounds, args.core)
                    key = (binary, rounds)
                    best[key] = min(best.get(key, took), took)
        total = args.rounds * packets(workload)
        cells = [f"{(best[(b, args.rounds)] - best[(b, 0)]) * 1e9 / total:.0f} ns"
                 for b in args.binaries]
        print(f"| {row} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
