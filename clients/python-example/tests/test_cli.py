"""`python -m stol_client` run as a subprocess against the real engine."""

import json
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from _engine_support import PACKAGE_ROOT, SRC, require_engine, requires_methods

CONFORMANCE = "--engine-arg=--conformance-methods"


def test_ping(run_cli):
    proc = run_cli("ping")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("pong from stol-engine"), proc.stdout


def test_ping_json(run_cli):
    proc = run_cli("--json", "ping")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {}
    proc = run_cli("ping", "--json")  # --json also accepted after the command
    assert json.loads(proc.stdout) == {}


def test_raw_prints_pretty_json(run_cli):
    proc = run_cli(CONFORMANCE, "raw", "subtract", '{"minuend": 42, "subtrahend": 23}')
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == 19
    proc = run_cli(CONFORMANCE, "raw", "get_data")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == ["hello", 5]
    assert proc.stdout == json.dumps(["hello", 5], indent=2) + "\n"


def test_raw_discover(run_cli):
    proc = run_cli("--timeout", "10", "raw", "rpc.discover")
    assert proc.returncode == 0, proc.stderr
    assert isinstance(json.loads(proc.stdout), dict)


def test_raw_errors(run_cli):
    proc = run_cli("raw", "no/suchMethod", "{}")
    assert proc.returncode == 1
    assert proc.stdout == ""
    assert proc.stderr.strip().startswith("error: ")
    assert proc.stderr.strip().endswith("(methodNotFound)"), proc.stderr

    proc = run_cli(CONFORMANCE, "raw", "subtract", '{"minuend": "x", "subtrahend": 1}')
    assert proc.returncode == 1
    assert proc.stderr.strip().endswith("(invalidParams)"), proc.stderr

    proc = run_cli(CONFORMANCE, "raw", "test/fail")
    assert proc.returncode == 1
    assert proc.stderr.strip().endswith("(internal)"), proc.stderr


def test_raw_rejects_bad_json(run_cli):
    proc = run_cli("raw", "ping", "{not json")
    assert proc.returncode == 2
    assert "not valid JSON" in proc.stderr
    proc = run_cli("raw", "ping", "42")
    assert proc.returncode == 2


def test_missing_engine(run_cli, tmp_path):
    proc = run_cli("ping", engine_path=str(tmp_path / "nope"))
    assert proc.returncode == 1
    assert proc.stderr.startswith("error: ") and "(engineNotFound)" in proc.stderr, proc.stderr


def test_raw_progress_bar(run_cli):
    proc = run_cli(CONFORMANCE, "raw", "--progress", "test/progress", '{"steps": 5, "delayMs": 10}')
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {"steps": 5}
    assert "100%" in proc.stderr, proc.stderr


def _spawn_cli(engine, data_dir, *args):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SRC), env.get("PYTHONPATH")]))
    return subprocess.Popen(
        [sys.executable, "-m", "stol_client", "-v", "--engine", engine, "--data-dir",
         str(data_dir), *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
        cwd=str(PACKAGE_ROOT))


def _wait_for_line(stream, needle, timeout):
    """Read lines from ``stream`` until one contains ``needle``; returns all lines read."""
    lines = []
    found = threading.Event()

    def reader():
        for line in stream:
            lines.append(line)
            if needle in line:
                found.set()
                return

    threading.Thread(target=reader, daemon=True).start()
    assert found.wait(timeout), f"never saw {needle!r} on stderr: {''.join(lines)}"
    return lines


def test_ctrl_c_cancels_a_long_request(engine, data_dir):
    """The machinery `import` uses: SIGINT sends $/cancelRequest, waits for the engine's -32800,
    closes the engine cleanly (exit code 0) and exits with status 130."""
    require_engine()
    proc = _spawn_cli(engine, data_dir, CONFORMANCE, "raw", "--progress", "test/sleep",
                      '{"ms": 30000}')
    try:
        first = _wait_for_line(proc.stderr, "Ctrl-C to cancel", timeout=30)
        time.sleep(0.3)
        t0 = time.monotonic()
        proc.send_signal(signal.SIGINT)
        stdout, rest = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
    stderr = "".join(first) + rest
    assert time.monotonic() - t0 < 10
    assert proc.returncode == 130, stderr
    assert stdout == ""
    assert "cancelling test/sleep" in stderr
    assert "test/sleep cancelled" in stderr
    assert "engine exited with code 0" in stderr, stderr
    assert "Traceback" not in stderr


# ---- commands whose engine methods are still being built: they run once rpc.discover lists them


def _search_json(run_cli, query):
    proc = run_cli("--json", "search", query)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


@requires_methods("search/query")
def test_search(run_cli):
    result = _search_json(run_cli, "Panthera leo")
    assert "Panthera leo" in json.dumps(result)
    proc = run_cli("search", "Panthera leo")
    assert proc.returncode == 0, proc.stderr
    assert "Panthera leo" in proc.stdout


@requires_methods("taxon/roots", "taxon/detail")
def test_detail(run_cli):
    proc = run_cli("raw", "taxon/roots")
    assert proc.returncode == 0, proc.stderr
    root = json.loads(proc.stdout)["roots"][0]
    proc = run_cli("--json", "detail", str(root["id"]))
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["taxon"]["id"] == root["id"]
    proc = run_cli("detail", str(root["id"]))
    assert proc.returncode == 0, proc.stderr
    headline = proc.stdout.splitlines()[0]
    assert headline.split()[:2] == [str(root["id"]), root["rank"]], headline
    assert root["scientificName"] in headline


@requires_methods("search/query", "taxon/detail")
def test_detail_by_name(run_cli):
    proc = run_cli("detail", "Panthera leo")
    assert proc.returncode == 0, proc.stderr
    assert "Panthera leo" in proc.stdout


@requires_methods("taxon/detail")
def test_detail_unknown_id(run_cli):
    proc = run_cli("detail", "987654321")
    assert proc.returncode == 1
    assert proc.stderr.startswith("error: ") and "(taxonNotFound)" in proc.stderr, proc.stderr


@requires_methods("search/query", "compare/taxa")
def test_compare(run_cli):
    proc = run_cli("--json", "compare", "Panthera leo", "Panthera tigris")
    assert proc.returncode == 0, proc.stderr
    assert isinstance(json.loads(proc.stdout), dict)
    proc = run_cli("compare", "Panthera leo", "Panthera tigris", "--lang", "de")
    assert proc.returncode == 0, proc.stderr
    # Drawn as the browser draws it, from the shared formatting, names in the asked language.
    lines = proc.stdout.splitlines()
    assert lines[:5] == [
        "genus Panthera — Großkatzen  ← common ancestor",
        "├─ species Panthera leo — Löwe  A",
        "└─ species Panthera tigris — Tiger  B",
        "",
        "Distance: 2 steps through the tree",
    ], proc.stdout
    assert lines[5].startswith("Shared clade: Both are in genus Panthera"), proc.stdout
    assert lines[6].startswith("Traits: ") and lines[6].endswith("% of their traits are shared")


@requires_methods("search/query", "compare/relatives")
def test_relatives(run_cli):
    proc = run_cli("--json", "relatives", "Panthera leo")
    assert proc.returncode == 0, proc.stderr
    json.loads(proc.stdout)
    proc = run_cli("relatives", "Panthera leo")
    assert proc.returncode == 0, proc.stderr


@requires_methods("search/query", "favorites/add", "favorites/remove", "favorites/list",
                  "favorites/export")
def test_favourites(run_cli):
    from stol_client.format import listed, taxon_id

    tid = taxon_id(listed(_search_json(run_cli, "Panthera leo"))[0])
    proc = run_cli("favourites", "add", str(tid))
    assert proc.returncode == 0, proc.stderr
    proc = run_cli("--json", "favourites", "list")
    assert proc.returncode == 0, proc.stderr
    assert tid in [taxon_id(i) for i in listed(json.loads(proc.stdout))]
    proc = run_cli("favourites", "list")
    assert proc.returncode == 0 and str(tid) in proc.stdout, proc.stderr
    proc = run_cli("favourites", "export")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip()
    proc = run_cli("favourites", "remove", str(tid))
    assert proc.returncode == 0, proc.stderr
    proc = run_cli("--json", "favourites", "list")
    assert tid not in [taxon_id(i) for i in listed(json.loads(proc.stdout)) or []]


@requires_methods("database/import")
def test_import_missing_file_is_an_error(run_cli, tmp_path):
    proc = run_cli("import", str(tmp_path / "missing.stol"))
    assert proc.returncode == 1
    assert proc.stderr.rstrip().splitlines()[-1].startswith("error: "), proc.stderr
    assert proc.stderr.rstrip().endswith(")"), proc.stderr
    assert "(fileUnreadable)" in proc.stderr, proc.stderr
    # The engine ends the progress with "failed: fileUnreadable": the bar stays short of 100 %.
    assert "failed: fileUnreadable" in proc.stderr, proc.stderr
    assert "100%" not in proc.stderr, proc.stderr


def test_a_failed_end_leaves_the_bar_where_it_stopped():
    import io

    from stol_client.cli import ProgressBar
    from stol_client.client import Progress

    for end, shown in (("failed: checksumMismatch", " 30%"), ("cancelled", " 30%"), ("imported", "100%")):
        out = io.StringIO()
        bar = ProgressBar(out, "importing")
        bar.update(Progress(token="t", kind="begin", title="Importing", message=None, fraction=0.0))
        bar.update(Progress(token="t", kind="report", title=None, message="verifying", fraction=0.3))
        bar.update(Progress(token="t", kind="end", title=None, message=end, fraction=None))
        assert out.getvalue().splitlines()[-1].startswith(f"Importing {shown}"), (end, out.getvalue())


@requires_methods("database/import")
def test_import_resolves_a_relative_path_for_the_engine(run_cli, tmp_path):
    """The engine refuses relative paths; the CLI resolves them against its own directory."""
    proc = run_cli("import", "no-such-file.stol")
    assert proc.returncode == 1
    assert "(fileUnreadable)" in proc.stderr, proc.stderr
    assert "absolute" not in proc.stderr, proc.stderr


@requires_methods("search/query")
def test_search_by_rank_and_status_in_a_language(run_cli):
    proc = run_cli("--json", "search", "--rank", "species", "--conservation", "CR", "--limit", "50")
    assert proc.returncode == 0, proc.stderr
    results = json.loads(proc.stdout)["results"]
    assert results and all(r["rank"] == "species" and r["conservationStatus"] == "CR" for r in results)
    proc = run_cli("search", "Panthera leo", "--lang", "es")
    assert proc.returncode == 0, proc.stderr
    assert "Panthera leo — León" in proc.stdout, proc.stdout
    proc = run_cli("--lang", "de", "search", "Panthera leo", "--rank", "species")
    assert "Panthera leo — Löwe" in proc.stdout, proc.stdout
    proc = run_cli("search")
    assert proc.returncode == 1 and "(usage)" in proc.stderr, proc.stderr


@requires_methods("search/query", "taxon/detail")
def test_a_name_that_fell_back_to_english_is_tagged(run_cli):
    proc = run_cli("detail", "Cyclopes didactylus", "--lang", "fr")
    assert proc.returncode == 0, proc.stderr
    assert "Silky anteater [en]" in proc.stdout.splitlines()[0], proc.stdout
    proc = run_cli("detail", "Panthera leo", "--lang", "es")
    assert proc.stdout.splitlines()[0].endswith("Panthera leo — León"), proc.stdout


@requires_methods("search/query", "compare/relatives")
def test_relatives_of_a_genus_says_what_to_do(run_cli):
    proc = run_cli("relatives", "Panthera")
    assert proc.returncode == 1
    assert "Panthera is a genus, and relatives works on a species" in proc.stderr, proc.stderr
    assert 'e.g. relatives "Panthera ' in proc.stderr, proc.stderr
    assert proc.stderr.rstrip().endswith("(notASpecies)"), proc.stderr


@requires_methods("search/query", "favorites/add", "favorites/remove", "favorites/export")
def test_favourites_say_what_the_engine_did(run_cli):
    proc = run_cli("favourites", "add", "Panthera leo")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("added "), proc.stdout
    proc = run_cli("favourites", "add", "Panthera leo")
    assert proc.stdout.endswith("is already a favourite\n"), proc.stdout
    proc = run_cli("favourites", "add", "424242")
    assert "the active database has no such taxon" in proc.stdout, proc.stdout
    proc = run_cli("favourites", "list", "--sort", "scientific", "--lang", "fr")
    assert proc.stdout.splitlines()[-1].split() == ["424242", "(not", "in", "the", "active", "database)"], proc.stdout
    assert "Panthera leo — Lion" in proc.stdout.splitlines()[0], proc.stdout
    proc = run_cli("favourites", "export", "--lang", "fr")
    assert proc.stdout.startswith("Mes espèces favorites — Species: Tree of Life\n\n1. Panthera leo (Lion)"), proc.stdout
    proc = run_cli("favourites", "remove", "424242")
    assert proc.stdout == "removed 424242 from favourites\n", proc.stdout
    proc = run_cli("favourites", "remove", "424242")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "424242 was not a favourite\n", proc.stdout


def test_browse_without_textual_says_how_to_install_it(run_cli, tmp_path):
    """`browse` needs the [tui] extra; without Textual it says so instead of a traceback. A
    `textual` package that fails to import stands in for a missing one."""
    fake = tmp_path / "no-textual" / "textual"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("raise ImportError('No module named textual')\n")
    proc = run_cli("browse", extra_env={"PYTHONPATH": os.pathsep.join(
        [str(fake.parent), str(SRC)])})
    assert proc.returncode == 1
    assert "[tui] extra" in proc.stderr and "(missingExtra)" in proc.stderr
    assert "Traceback" not in proc.stderr
