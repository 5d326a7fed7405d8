#!/usr/bin/env bash
# Times link's workloads beside the reference C library's, in one run on
# one machine: builds reference/driver.c against a checkout of the library
# (git clone https://github.com/mas-bandwidth/reliable), then alternates
# the C driver and `cargo bench --bench link` for ROUNDS rounds and prints
# the median of each side and their ratio.
#
#   bash link/benches/reference/versus.sh PATH/TO/reliable [ROUNDS]
set -euo pipefail
reference=${1:?usage: versus.sh PATH/TO/reliable [ROUNDS]}
rounds=${2:-5}
reference=$(cd "$reference" && pwd)
cd "$(dirname "$0")/../../.."
out=target/link-versus
rm -rf "$out"
mkdir -p "$out"

echo "== building the reference at $(git -C "$reference" rev-parse --short HEAD 2>/dev/null || echo '?') with gcc -O2"
gcc -O2 -DNDEBUG -I"$reference" -o "$out/driver" \
    link/benches/reference/driver.c "$reference/reliable.c" -lm
cargo bench -q -p gamepacket-reliable --bench link --no-run 2>/dev/null

for round in $(seq "$rounds"); do
    echo "== round $round of $rounds"
    "$out/driver" >>"$out/reference.txt"
    cargo bench -q -p gamepacket-reliable --bench link -- \
        --warm-up-time 1 --measurement-time 3 --output-format bencher 2>/dev/null |
        grep '^test ' >>"$out/ours.txt"
done

python3 - "$out" <<'PY'
import re, statistics, sys
out = sys.argv[1]
per_iteration = {"header-write": 512, "header-read": 512}
ours, theirs = {}, {}
for line in open(f"{out}/ours.txt"):
    m = re.match(r"test link/(\S+) \.\.\. bench:\s+([\d,]+) ns/iter", line)
    if m:
        ns = int(m.group(2).replace(",", "")) / per_iteration.get(m.group(1), 1)
        ours.setdefault(m.group(1), []).append(ns)
for line in open(f"{out}/reference.txt"):
    _, name, ns = line.split()
    theirs.setdefault(name, []).append(float(ns))
print(f"{'workload':<20}{'ours ns/op':>12}{'reference ns/op':>17}{'reference/ours':>16}")
for name in ["header-write", "header-read", "small-packet", "fragmented-packet"]:
    a, b = statistics.median(ours[name]), statistics.median(theirs[name])
    print(f"{name:<20}{a:>12.2f}{b:>17.2f}{b / a:>16.2f}")
PY
