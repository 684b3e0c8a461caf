#!/usr/bin/env bash
# Builds (if needed) and runs the libFuzzer harness for the framer and the JSON-RPC decoder.
#   fuzz/run.sh [SECONDS] [extra libFuzzer flags...]     (default 60 s)
# The corpus grows in fuzz/.build-fuzz/corpus (seeded from the conformance vectors); crashing
# inputs land in fuzz/.build-fuzz/artifacts/. Exit code non-zero when a crash was found.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
shift || true
scratch=fuzz/.build-fuzz
build=(swift build -c debug --package-path fuzz --scratch-path "$scratch"
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library)
mkdir -p "$scratch/corpus" "$scratch/artifacts"
# The ASan runtime makes ld.gold warn about every local symbol; keep the rest of the log.
if ! "${build[@]}" > "$scratch/build.log" 2>&1; then
    grep -v "Cannot export local symbol" "$scratch/build.log" >&2
    echo "fuzz/run.sh: build failed" >&2
    exit 2
fi
grep -E "error|warning: [^C]" "$scratch/build.log" >&2 || true
binary="$("${build[@]}" --show-bin-path)/RPCFuzzer"
python3 fuzz/make_corpus.py "$scratch/corpus" >&2
# -rss_limit_mb bounds memory; -timeout flags any input taking over 10 s (a hang).
"$binary" "$scratch/corpus" \
    -max_total_time="$seconds" -max_len=8192 -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="$scratch/artifacts/" -print_final_stats=1 "$@"
