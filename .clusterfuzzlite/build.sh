#!/bin/bash -eu
# Builds every fuzz target of the repository into $OUT, each with what
# ClusterFuzzLite and OSS-Fuzz look for beside it:
#   $OUT/<target>                  the libFuzzer binary (cargo fuzz build -O -a)
#   $OUT/<target>_seed_corpus.zip  its seeds
#   $OUT/<target>.dict             the codec's dictionary (fuzz/codec.dict)
#   $OUT/<target>.options          libFuzzer options: the dictionary, max_len
# Runs in the builder image ($SRC, $OUT, $WORK set, nightly cargo fuzz on
# PATH), and outside it with those three pointing at folders of your own:
# .ci/cflite does so to check this script on every CI run.

set -eu
project=${PROJECT_DIR:-$SRC/game-codec}
cd "$project"

# The structure-aware targets (their input is choices read through
# arbitrary, not packet bytes) are built without comparison tracing, which
# costs them half their time and helps only matching input bytes against
# constants; they get a target directory of their own.
structured=(--no-trace-compares --target-dir fuzz/target/structured)

# <package dir> <target> <max_len> <seed dirs...>: one target into $OUT,
# from <package>/fuzz/target, or fuzz/target/structured when $BUILT says.
install_target() {
    local package=$1 target=$2 max_len=$3
    shift 3
    cp "$package/fuzz/target/${BUILT:-}x86_64-unknown-linux-gnu/release/$target" "$OUT/$target"
    cp fuzz/codec.dict "$OUT/$target.dict"
    printf '[libfuzzer]\ndict = %s.dict\nmax_len = %s\n' "$target" "$max_len" >"$OUT/$target.options"
    local seeds="$WORK/seeds-$target"
    rm -rf "$seeds"
    mkdir -p "$seeds"
    local dir
    for dir in "$@"; do
        [ -d "$dir" ] || continue
        # Every packet of the seed folders, flat, named after its path so
        # that two folders' seed-000.bin stay two seeds; the golden files
        # are not inputs and live elsewhere.
        local file
        while IFS= read -r file; do
            cp "$file" "$seeds/$(tr / _ <<<"$file")"
        done < <(find "$dir" -type f -name '*.bin')
    done
    rm -f "$OUT/${target}_seed_corpus.zip"
    (cd "$seeds" && zip -q -r "$OUT/${target}_seed_corpus.zip" .)
}

# This repository's protocols. (mutate_broken_scene_d is left out: it
# attacks a reader with a planted bug, to show the harness has teeth, and
# crashes on purpose.)
cargo fuzz build -O -a
cargo fuzz build -O -a "${structured[@]}" roundtrip_protocols
cargo fuzz build -O -a "${structured[@]}" mutate_protocols
cargo fuzz build -O -a "${structured[@]}" link_conversation
cargo fuzz build -O -a "${structured[@]}" mutate_serde_game
install_target . read_packets 1024 corpus/packets corpus/crashes/packets
install_target . read_scenes 65507 corpus/scenes corpus/crashes/scenes
install_target . read_scenes_entropy 65507 corpus/scenes-entropy corpus/crashes/scenes-entropy
install_target . read_scenes_golomb 65507 corpus/scenes-golomb corpus/crashes/scenes-golomb
install_target . read_save 4096 corpus/save corpus/crashes/save
install_target . read_kinds 1200 corpus/kinds corpus/crashes/kinds
install_target . read_stream_program 1024 corpus/stream corpus/crashes/stream
install_target . read_link 4096 corpus/stream
# The structure-aware targets read their input as choices, so any bytes
# seed them: the committed packets are as good as any.
install_target . roundtrip_stream_program 16384 corpus/stream
BUILT=structured/ install_target . roundtrip_protocols 16384 corpus
BUILT=structured/ install_target . mutate_protocols 16384 corpus
BUILT=structured/ install_target . link_conversation 16384 corpus
BUILT=structured/ install_target . mutate_serde_game 16384 corpus

# The worked example: a user's own protocol, fuzzed the same way.
game=adversarial/examples/game
(
    cd "$game"
    cargo fuzz build -O -a
    cargo fuzz build -O -a "${structured[@]}" roundtrip_game
    cargo fuzz build -O -a "${structured[@]}" mutate_game
    cargo fuzz build -O -a "${structured[@]}" endpoint_game
)
install_target "$game" read_game 1200 "$game/corpus/game"
install_target "$game" read_profile 4096 "$game/corpus/profile"
BUILT=structured/ install_target "$game" roundtrip_game 16384 "$game/corpus"
BUILT=structured/ install_target "$game" mutate_game 16384 "$game/corpus"
BUILT=structured/ install_target "$game" endpoint_game 16384 "$game/corpus"
