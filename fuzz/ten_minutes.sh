#!/usr/bin/env bash
# Runs every fuzz target of both packages for SECONDS (default 600), two at
# a time (one per core of a 2-core machine), each from an empty corpus
# directory plus the committed seeds where it has them, with the codec's
# dictionary (the raw readers with AddressSanitizer, the structure-aware
# targets without it, as .ci/fuzz builds them), then prints the table docs/FUZZING.md keeps:
# executions, executions per second, libFuzzer's final cov (edges) and ft
# (features), the corpus it ended with and crashes.
#
#   bash fuzz/ten_minutes.sh                 # every target, 600 s each
#   SECONDS_EACH=60 bash fuzz/ten_minutes.sh read_packets mutate_protocols
#
# The corpora stay in <package>/fuzz/corpus/<target> (ignored by git) for
# fuzz/coverage.sh. Needs nightly and cargo-fuzz.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${SECONDS_EACH:-600}
game=adversarial/examples/game
structured=(-s none --no-trace-compares --target-dir fuzz/target/structured)

# target:package:seeds:kind (seeds relative to the package; kind is raw or
# structured, see .ci/fuzz).
all=(
    read_packets:.:corpus/packets:raw
    read_scenes:.:corpus/scenes:raw
    read_scenes_entropy:.:corpus/scenes-entropy:raw
    read_scenes_golomb:.:corpus/scenes-golomb:raw
    read_save:.:corpus/save:raw
    read_kinds:.:corpus/kinds:raw
    read_stream_program:.:corpus/stream:raw
    roundtrip_stream_program:.:-:raw
    roundtrip_protocols:.:-:structured
    mutate_protocols:.:-:structured
    read_game:$game:corpus/game:raw
    read_profile:$game:corpus/profile:raw
    roundtrip_game:$game:-:structured
    mutate_game:$game:-:structured
)
wanted=("$@")

run() {
    local target=$1 package=$2 seeds=$3 kind=$4
    local flags=()
    [ "$kind" = structured ] && flags=("${structured[@]}")
    (
        cd "$package"
        rm -rf "fuzz/corpus/$target"
        mkdir -p "fuzz/corpus/$target"
        local dirs=("fuzz/corpus/$target")
        [ "$seeds" != "-" ] && dirs+=("$seeds")
        cargo +nightly fuzz run "${flags[@]}" "$target" "${dirs[@]}" -- \
            -max_total_time="$secs" -dict="$OLDPWD/fuzz/codec.dict" \
            -print_final_stats=1 >"fuzz/corpus/$target.log" 2>&1 || true
    )
}

# Build first, so that the timed runs only fuzz.
cargo +nightly fuzz build
cargo +nightly fuzz build "${structured[@]}"
(cd "$game" && cargo +nightly fuzz build && cargo +nightly fuzz build "${structured[@]}")

selected=()
for entry in "${all[@]}"; do
    name=${entry%%:*}
    if [ ${#wanted[@]} -eq 0 ] || printf '%s\n' "${wanted[@]}" | grep -qx "$name"; then
        selected+=("$entry")
    fi
done
# Two at a time.
i=0
while [ $i -lt ${#selected[@]} ]; do
    IFS=: read -r t p s k <<<"${selected[$i]}"
    run "$t" "$p" "$s" "$k" &
    if [ $((i + 1)) -lt ${#selected[@]} ]; then
        IFS=: read -r t p s k <<<"${selected[$((i + 1))]}"
        run "$t" "$p" "$s" "$k" &
    fi
    wait
    i=$((i + 2))
done

echo "| target | seeds | executions | exec/s | coverage | features | final corpus | crashes |"
echo "|---|---|---|---|---|---|---|---|"
for entry in "${selected[@]}"; do
    IFS=: read -r t p s k <<<"$entry"
    log="$p/fuzz/corpus/$t.log"
    done_line=$(grep -E '^#[0-9]+.*DONE' "$log" | tail -1 || true)
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
    cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$done_line")
    ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$done_line")
    corp=$(sed -n 's/.* corp: \([^ ]*\).*/\1/p' <<<"$done_line")
    crashes=$(grep -c 'SUMMARY: libFuzzer\|panicked at' "$log" || true)
    [ "$s" = - ] && s=none
    echo "| \`$t\` | $s | $execs | $rate | $cov | $ft | $corp | $crashes |"
done
