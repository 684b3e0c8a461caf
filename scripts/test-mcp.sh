#!/usr/bin/env bash
# Runs the MCP tests (protocol/mcp-tests): the official MCP Python SDK as a real client of
# `stol-engine mcp`, in a test-only virtual environment (protocol/mcp-tests/.venv) made and
# filled from PyPI on first use. Non-interactive and idempotent.
# Usage: scripts/test-mcp.sh ENGINE [pytest args...]
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)/protocol/mcp-tests"
engine="${1:?usage: $0 ENGINE [pytest args...]}"
shift
engine="$(cd "$(dirname "$engine")" && pwd)/$(basename "$engine")"
venv="$here/.venv"
stamp="$venv/.requirements"
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
if ! cmp -s "$here/requirements.txt" "$stamp"; then
    "$venv/bin/python" -m pip install -q --disable-pip-version-check -r "$here/requirements.txt" </dev/null
    cp "$here/requirements.txt" "$stamp"
fi
cd "$here"
STOL_ENGINE="$engine" "$venv/bin/python" -m pytest -q -p no:cacheprovider . "$@"
