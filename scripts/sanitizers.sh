#!/usr/bin/env bash
# Runs the Swift unit suites (STOLJSON, STOLRPC, STOLEngine, STOLPipeline, STOLMCP, STOLClient:
# including the in-process server over pipes and the client's concurrent calls)
# under ThreadSanitizer and AddressSanitizer, each in its own build folder. Fails on any report.
#   bash scripts/sanitizers.sh [thread|address]...   (default: both)
set -euo pipefail
cd "$(dirname "$0")/.."
kinds=("$@")
[ ${#kinds[@]} -gt 0 ] || kinds=(thread address)
# Only the toolchain's own leaks are suppressed; every leak in the project's code still fails.
export LSAN_OPTIONS="suppressions=$PWD/scripts/lsan.supp:print_suppressions=0"
for kind in "${kinds[@]}"; do
    log=$(mktemp)
    echo "== $kind sanitizer" >&2
    swift build --build-tests --sanitize="$kind" --scratch-path ".build-$kind"
    set +e
    swift test --skip-build --no-parallel --sanitize="$kind" --scratch-path ".build-$kind" \
        --filter "STOLJSONTests|STOLRPCTests|STOLEngineTests|STOLPipelineTests|STOLMCPTests|STOLClientTests" 2>&1 | tee "$log"
    status=${PIPESTATUS[0]}
    set -e
    if grep -qE "WARNING: ThreadSanitizer|ERROR: AddressSanitizer|ERROR: LeakSanitizer" "$log"; then
        echo "$kind sanitizer reported problems" >&2
        exit 1
    fi
    [ "$status" -eq 0 ] || exit "$status"
done
