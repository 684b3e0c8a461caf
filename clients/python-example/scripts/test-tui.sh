#!/usr/bin/env bash
# Runs the terminal browser's tests (Textual's headless pilot against the real engine, and the
# layout snapshots) in a test-only virtual environment, clients/python-example/.venv-tui, made
# and filled from PyPI on first use (requirements-tui-test.txt). Non-interactive and idempotent.
# Usage: scripts/test-tui.sh [ENGINE] [pytest args...]   (ENGINE defaults to $STOL_ENGINE)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
engine="${1:-${STOL_ENGINE:-}}"
[ $# -gt 0 ] && shift
if [ -z "$engine" ]; then
    echo "usage: $0 ENGINE [pytest args...] (or set STOL_ENGINE)" >&2
    exit 2
fi
engine="$(cd "$(dirname "$engine")" && pwd)/$(basename "$engine")"  # before any cd
venv="$here/.venv-tui"
requirements="$here/requirements-tui-test.txt"
stamp="$venv/.requirements"
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
if ! cmp -s "$requirements" "$stamp"; then
    "$venv/bin/python" -m pip install -q --disable-pip-version-check -r "$requirements" </dev/null
    cp "$requirements" "$stamp"
fi
cd "$here"
STOL_ENGINE="$engine" "$venv/bin/python" -m pytest -q -p no:cacheprovider tests_tui "$@"
