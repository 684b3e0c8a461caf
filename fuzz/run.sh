#!/usr/bin/env bash
# Builds (if needed) and runs the libFuzzer harnesses:
#   framer      RPCFuzzer: the line framer and the JSON-RPC decoder
#   dispatcher  DispatchFuzzer: a real RPCServer in process, every answer checked
#
#   fuzz/run.sh [SECONDS] [--target framer|dispatcher|both] [extra libFuzzer flags...]
#
# SECONDS (default 60) is the total: with both targets (the default) the framer gets a third and
# the dispatcher the rest, one after the other. Corpora grow in fuzz/.build-fuzz/corpus (framer)
# and fuzz/.build-fuzz/corpus-dispatcher, seeded from the conformance vectors; crashing inputs
# land in fuzz/.build-fuzz/artifacts/ (dispatcher ones prefixed `dispatcher-`). Exit code
# non-zero when either target found a crash.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
shift || true
target=both
if [ "${1:-}" = "--target" ]; then
    target="${2:?--target needs framer, dispatcher or both}"
    shift 2
fi
case "$target" in framer|dispatcher|both) ;; *) echo "fuzz/run.sh: unknown target $target" >&2; exit 2;; esac
scratch=fuzz/.build-fuzz
build=(swift build -c debug --package-path fuzz --scratch-path "$scratch"
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library)
mkdir -p "$scratch/corpus" "$scratch/corpus-dispatcher" "$scratch/artifacts"
# The ASan runtime makes ld.gold warn about every local symbol; keep the rest of the log.
if ! "${build[@]}" > "$scratch/build.log" 2>&1; then
    grep -v "Cannot export local symbol" "$scratch/build.log" >&2
    echo "fuzz/run.sh: build failed" >&2
    exit 2
fi
grep -E "error|warning: [^C]" "$scratch/build.log" >&2 || true
bin="$("${build[@]}" --show-bin-path)"

framer_seconds=$seconds
dispatcher_seconds=$seconds
if [ "$target" = both ]; then
    framer_seconds=$(( seconds / 3 > 0 ? seconds / 3 : 1 ))
    dispatcher_seconds=$(( seconds - framer_seconds > 0 ? seconds - framer_seconds : 1 ))
fi

status=0
# -rss_limit_mb bounds memory; -timeout flags any input taking over 10 s (a hang).
if [ "$target" != dispatcher ]; then
    echo "== framer (RPCFuzzer), ${framer_seconds} s" >&2
    python3 fuzz/make_corpus.py "$scratch/corpus" >&2
    "$bin/RPCFuzzer" "$scratch/corpus" \
        -max_total_time="$framer_seconds" -max_len=8192 -timeout=10 -rss_limit_mb=2048 \
        -artifact_prefix="$scratch/artifacts/" -print_final_stats=1 "$@" || status=$?
fi
if [ "$target" != framer ]; then
    echo "== dispatcher (DispatchFuzzer), ${dispatcher_seconds} s" >&2
    python3 fuzz/make_corpus.py "$scratch/corpus-dispatcher" --dispatcher >&2
    # -detect_leaks=0: every execution ends with more mallocs than frees (the Swift runtime's
    # per-thread and task caches), so LeakSanitizer would scan the whole heap after each one and
    # cut the rate about fourfold; the harness checks instead that each server is released.
    "$bin/DispatchFuzzer" "$scratch/corpus-dispatcher" \
        -max_total_time="$dispatcher_seconds" -max_len=8192 -timeout=10 -rss_limit_mb=2048 -detect_leaks=0 \
        -artifact_prefix="$scratch/artifacts/dispatcher-" -print_final_stats=1 "$@" || status=$?
fi
exit "$status"
