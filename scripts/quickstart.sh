#!/usr/bin/env bash
# Installs what is missing, builds the engine, and asks it about a lion on the embedded database.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
swift build -c release --product stol-engine
engine=.build/release/stol-engine
printf '%s\n' \
  '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"clientInfo":{"name":"quickstart"}}}' \
  '{"jsonrpc":"2.0","id":2,"method":"database/info"}' \
  '{"jsonrpc":"2.0","id":3,"method":"taxon/roots"}' \
  '{"jsonrpc":"2.0","id":4,"method":"search/query","params":{"query":"lion","limit":1,"lang":"es"}}' \
  | "$engine" --log-level warning --data-dir "${TMPDIR:-/tmp}/stol-quickstart"
echo "engine: $engine (try: echo '{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}' | $engine)" >&2
