#!/usr/bin/env bash
# Coverage of the codec by the fuzz corpora: `cargo fuzz coverage` replays
# each target's corpus (<package>/fuzz/corpus/<target>, as fuzz/ten_minutes.sh
# leaves it, plus the committed seeds) in a coverage build, then llvm-cov
# summarizes the codec's lines and regions reached, per target and merged
# over all targets, and lists every line of the read path (bits, stream
# and its ops, packet, protocols) that no target reaches.
#
#   bash fuzz/coverage.sh            # every target
#   bash fuzz/coverage.sh read_save  # some
#
# Writes fuzz/coverage-report/ (ignored by git): summary.md and
# unreached.txt. Needs nightly, cargo-fuzz and llvm-tools (added with
# rustup when missing).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
sysroot=$(rustc +nightly --print sysroot)
llvm=$sysroot/lib/rustlib/x86_64-unknown-linux-gnu/bin
[ -x "$llvm/llvm-cov" ] || rustup component add llvm-tools --toolchain nightly
report=fuzz/coverage-report
rm -rf "$report"
mkdir -p "$report"
game=adversarial/examples/game

all=(
    read_packets:.:corpus/packets
    read_scenes:.:corpus/scenes
    read_scenes_entropy:.:corpus/scenes-entropy
    read_scenes_golomb:.:corpus/scenes-golomb
    read_save:.:corpus/save
    read_kinds:.:corpus/kinds
    read_stream_program:.:corpus/stream
    roundtrip_stream_program:.:-
    roundtrip_protocols:.:-
    mutate_protocols:.:-
    read_game:$game:corpus/game
    read_profile:$game:corpus/profile
    roundtrip_game:$game:-
    mutate_game:$game:-
)
wanted=("$@")
objects=()
profiles=()
for entry in "${all[@]}"; do
    IFS=: read -r target package seeds <<<"$entry"
    if [ ${#wanted[@]} -gt 0 ] && ! printf '%s\n' "${wanted[@]}" | grep -qx "$target"; then
        continue
    fi
    (
        cd "$package"
        dirs=()
        [ -d "fuzz/corpus/$target" ] && dirs+=("fuzz/corpus/$target")
        [ "$seeds" != "-" ] && dirs+=("$seeds")
        [ ${#dirs[@]} -gt 0 ] || { echo "$target: no corpus; run fuzz/ten_minutes.sh first" >&2; exit 1; }
        echo "== coverage: $target over ${dirs[*]}"
        cargo +nightly fuzz coverage "$target" "${dirs[@]}" >"$root/$report/$target.build.log" 2>&1
    )
    # Where cargo fuzz coverage put the instrumented binary: under the
    # package's target directory (cargo-fuzz 0.13) or the fuzz package's.
    object=""
    for dir in "$package/target" "$package/fuzz/target"; do
        candidate="$dir/x86_64-unknown-linux-gnu/coverage/x86_64-unknown-linux-gnu/release/$target"
        [ -f "$candidate" ] && object=$candidate && break
    done
    [ -n "$object" ] || { echo "$target: no coverage binary found" >&2; exit 1; }
    objects+=("$object")
    profiles+=("$package/fuzz/coverage/$target/coverage.profdata")
done

"$llvm/llvm-profdata" merge -sparse "${profiles[@]}" -o "$report/merged.profdata"
object_args=("${objects[0]}")
for object in "${objects[@]:1}"; do object_args+=(-object "$object"); done
"$llvm/llvm-cov" export -summary-only -instr-profile="$report/merged.profdata" \
    "${object_args[@]}" >"$report/merged.json"
"$llvm/llvm-cov" export -format=lcov -instr-profile="$report/merged.profdata" \
    "${object_args[@]}" >"$report/merged.lcov"
for i in "${!objects[@]}"; do
    name=$(basename "${objects[$i]}")
    "$llvm/llvm-cov" export -summary-only -instr-profile="${profiles[$i]}" \
        "${objects[$i]}" >"$report/$name.json"
done
python3 fuzz/coverage_summary.py "$root" "$report"
