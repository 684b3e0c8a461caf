#!/usr/bin/env bash
# Runs every test: the Swift unit and end-to-end tests, the JSON-RPC conformance vectors against
# the real binary, and the Python client's tests.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
swift build --build-tests
# Serial: the end-to-end tests spawn engines and time their answers; on a 2-core machine parallel
# suites that block threads would starve each other.
swift test --skip-build --no-parallel
python3 protocol/conformance/run.py -- .build/debug/stol-engine
python3 fuzz/stdio_fuzz.py --seconds 20 --seed 1
bash fuzz/run.sh 15 -seed=1
STOL_ENGINE="$PWD/.build/debug/stol-engine" python3 -m pytest -q clients/python-example
python3 bench/run.py --smoke --engine .build/debug/stol-engine
