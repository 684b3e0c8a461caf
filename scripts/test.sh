#!/usr/bin/env bash
# Runs every test: the Swift unit and end-to-end tests, the unit tests under both sanitizers, the
# JSON-RPC conformance vectors and the documents' examples against the real binary, the
# specification-schema pipeline, the fuzzers for a short while, the Python client's tests (its
# terminal browser's too), the MCP SDK's checks of MCP mode and a benchmark smoke run.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
# The embedded dataset's own descriptions: names, languages, and numbers that agree with the traits.
python3 scripts/check-descriptions.py
swift build --build-tests
# Serial: the end-to-end tests spawn engines and time their answers; on a 2-core machine parallel
# suites that block threads would starve each other.
swift test --skip-build --no-parallel
# The unit suites again under ThreadSanitizer and AddressSanitizer (each in its own build folder;
# about 2.5 min to build from scratch and 2 min to run, each, on 2 cores).
bash scripts/sanitizers.sh thread address
python3 protocol/conformance/run.py -- .build/debug/stol-engine
# Every request and response example of README.md, protocol/README.md and protocol/MCP.md, run
# against the binary; answers must match the documents but for their `…` elisions (about 5 s).
python3 protocol/doc-examples/run.py --engine .build/debug/stol-engine
# A third-party pipeline that follows only DataLoading.md: the specification's SQL, MDD mammals, its
# own .stol writer; imported and served read-only through the real binary (about 2 s).
python3 protocol/spec-pipeline/run.py --engine .build/debug/stol-engine
python3 fuzz/stdio_fuzz.py --seconds 20 --seed 1
python3 fuzz/stdio_fuzz.py --mode mcp --seconds 15 --seed 1 --no-big
bash fuzz/run.sh 15 -seed=1
STOL_ENGINE="$PWD/.build/debug/stol-engine" python3 -m pytest -q clients/python-example
# The terminal browser (Textual's pilot and layout snapshots), in its own test-only venv.
bash clients/python-example/scripts/test-tui.sh .build/debug/stol-engine
# MCP mode, driven by the official MCP Python SDK, in its own test-only venv.
bash scripts/test-mcp.sh .build/debug/stol-engine
python3 bench/run.py --smoke --engine .build/debug/stol-engine
