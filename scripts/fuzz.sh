#!/usr/bin/env bash
# Builds the libFuzzer targets under Fuzz/ and runs each one for a while.
#
#   scripts/fuzz.sh [seconds-per-target] [--update-corpus] [--no-asan] [Target ...]
#
# - The fuzz targets are in Package.swift only when BOTHAM_FUZZ=1, which this script sets (plain `swift build` and
#   `swift test` never build them).
# - Builds with `-sanitize=fuzzer,address` (libFuzzer plus AddressSanitizer; `--no-asan` for fuzzer only) into
#   .build/fuzz, in release, linked with lld (gold fails on these links), so plain `swift build` is not disturbed.
# - Each target starts from its committed corpus, Fuzz/Corpus/<Target>/, copied to a temporary folder; new inputs
#   stay there unless --update-corpus is given (they are then merged back, minimised, with `-merge=1`).
# - Prints the executions per target (libFuzzer's `stat::number_of_executed_units`).
# - Exits non-zero when any target crashes, fails a property, leaks or times out; the input is kept in
#   .build/fuzz-artifacts/<Target>/ (replay it with `BOTHAM_FUZZ=1 swift run <Target> <file>` or the fuzz binary
#   itself).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

seconds=30
update_corpus=0
sanitizers="fuzzer,address"
selected=()
for argument in "$@"; do
    case "$argument" in
        --update-corpus) update_corpus=1 ;;
        --no-asan) sanitizers="fuzzer" ;;
        -h | --help) sed -n '2,16p' "$0"; exit 0 ;;
        [0-9]*) seconds="$argument" ;;
        *) selected+=("$argument") ;;
    esac
done

targets=(FuzzQueryEncoding FuzzHeaderValidation FuzzRequestParser FuzzResponseDecoding FuzzWWWAuthenticate
    FuzzResponseParser FuzzServerSentEvents FuzzContentDisposition FuzzContentRange FuzzRetryAfter FuzzBodyRedaction
    FuzzHPACKDecoder FuzzHTTP2FrameDecoder FuzzHTTP2Connection FuzzWebSocketFrames)
if [ "${#selected[@]}" -gt 0 ]; then targets=("${selected[@]}"); fi

if [ "$(uname -s)" != "Linux" ]; then
    echo "fuzz.sh: libFuzzer targets are built on Linux only (the toolchain ships libFuzzer there)" >&2
    exit 0
fi

export BOTHAM_FUZZ=1
scratch=.build/fuzz
artifacts=.build/fuzz-artifacts
build_flags=(-c release --scratch-path "$scratch" -Xswiftc "-sanitize=$sanitizers" -Xswiftc -DBOTHAM_LIBFUZZER
    -Xswiftc -use-ld=lld)

for target in "${targets[@]}"; do
    printf '==> building %s (%s)\n' "$target" "$sanitizers"
    swift build "${build_flags[@]}" --product "$target" 2>&1 | grep -E "error|warning:|Compiling|Build of" || true
    [ -x "$scratch/release/$target" ] || die "$target did not build"
done

work=$(mktemp -d "${TMPDIR:-/tmp}/botham-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT

failed=()
summary=()
for target in "${targets[@]}"; do
    corpus="Fuzz/Corpus/$target"
    mkdir -p "$corpus" "$artifacts/$target" "$work/$target"
    cp -R "$corpus/." "$work/$target/"
    log="$work/$target.log"
    printf '==> fuzzing %s for %ss\n' "$target" "$seconds"
    status=0
    # -timeout: an input taking over 10 s is a hang; -rss_limit_mb keeps a runaway allocation a reported bug.
    # SWIFT_BACKTRACE=enable=no: the Swift runtime's crash handler reads memory in a way AddressSanitizer reports
    # as a crash of its own, hiding the real report.
    SWIFT_BACKTRACE=enable=no "$scratch/release/$target" "$work/$target" \
        -max_total_time="$seconds" -print_final_stats=1 -timeout=10 -rss_limit_mb=2048 -max_len=8192 \
        -artifact_prefix="$artifacts/$target/" >"$log" 2>&1 || status=$?
    executions=$(grep -E '^stat::number_of_executed_units:' "$log" | awk '{print $2}' | tail -1)
    new_units=$(grep -E '^stat::new_units_added:' "$log" | awk '{print $2}' | tail -1)
    line="$target: ${executions:-?} executions, ${new_units:-?} new inputs, exit $status"
    summary+=("$line")
    echo "$line"
    if [ "$status" -ne 0 ]; then
        failed+=("$target")
        grep -E "ERROR|SUMMARY|fuzz property failed|Fatal error|Test unit written|artifact_prefix" "$log" | head -20 || true
        tail -40 "$log"
        cp "$log" "$artifacts/$target/last-run.log"
    elif [ "$update_corpus" -eq 1 ]; then
        "$scratch/release/$target" -merge=1 "$corpus" "$work/$target" >"$work/$target.merge.log" 2>&1
        echo "    corpus now $(ls "$corpus" | wc -l) inputs"
    fi
done

printf '\n==> fuzz summary (%ss per target)\n' "$seconds"
printf '%s\n' "${summary[@]}"
if [ "${#failed[@]}" -gt 0 ]; then
    die "failures in ${failed[*]}; inputs kept in $artifacts/"
fi
