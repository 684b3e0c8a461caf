#!/usr/bin/env python3
"""Every benchmark of the engine, each next to its peer or floor, measured in the same run.

    python3 bench/run.py                 # everything (takes many minutes; builds missing databases)
    python3 bench/run.py --only search   # one section (the others keep their last figures)
    python3 bench/run.py --smoke         # tiny sizes, embedded database only, no venv: for CI

Sections: startup, throughput, client, search, searchquality, relevance, lineage, ete3, compare, import,
memory, builddb, and scale (run only with `--only scale` or at smoke size: checklists of 8 M and 5 M usages).
Prints a table and (except with --smoke) writes BENCHMARKS.md from the figures of every section,
kept in bench/.cache/results.json so that `--only` refreshes one section without losing the rest.
Large inputs live in bench/.cache/ (gitignored): mammals-birds.sqlite, opentree.sqlite (reused
from /tmp/opentree.sqlite when present, else built from ../shared/data: ~5 min, 2.6 GB), taxdump
files for taxopy, packed .stol files. Peers that need PyPI (taxopy) run from bench/.venv, created
on demand (`python3 -m venv bench/.venv && bench/.venv/bin/pip install taxopy==0.14.0`; the ete3
section adds ete3==3.1.3, six and numpy).
"""
import argparse, datetime, json, os, platform, random, re, shutil, sqlite3, statistics, subprocess, sys, tempfile, time, unicodedata

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from engine_client import EMBEDDED_DB, ROOT, Engine, default_engine, log, proc_status, summary  # noqa: E402
import compare_stdio  # noqa: E402
import search_latency  # noqa: E402

BENCH = os.path.join(ROOT, "bench")
CACHE = os.path.join(BENCH, ".cache")
VENV_PY = os.path.join(BENCH, ".venv", "bin", "python")
SHARED = os.path.normpath(os.path.join(ROOT, "..", "shared", "data"))
MDD = os.path.join(SHARED, "mdd", "MDD_v2.1_6801species.csv.gz")
AVILIST = os.path.join(SHARED, "avilist", "AviList-v2025-extended.csv.gz")
OPENTREE_TABLE = os.path.join(SHARED, "opentree", "nodes.tsv.gz")
NCBI_DIR = os.path.join(SHARED, "ncbi")
SECTIONS = ["startup", "throughput", "client", "search", "searchquality", "relevance", "lineage", "ete3", "compare", "import", "memory", "builddb", "scale"]
# Run only when asked (`--only scale`, about 20 minutes) or at smoke size with --smoke.
ON_REQUEST = {"scale"}

ARGS = None
ENGINE = None


# ---------------------------------------------------------------- helpers

def sh(argv, **kw):
    """Runs argv; returns (seconds, stdout text)."""
    start = time.perf_counter()
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)
    out, err = p.communicate()
    elapsed = time.perf_counter() - start
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} failed ({p.returncode}): {err[-2000:]}")
    return elapsed, out


# Runs a command as the child of a small fresh process and reports its peak RSS: ru_maxrss of a
# child forked straight from this (large) Python process would inherit our high-water mark.
RSS_WRAPPER = r"""
import os, sys, time
start = time.perf_counter()
pid = os.fork()
if pid == 0:
    os.execvp(sys.argv[2], sys.argv[2:])
_, status, usage = os.wait4(pid, 0)
open(sys.argv[1], "w").write(f"{time.perf_counter() - start} {usage.ru_maxrss * 1024} {os.waitstatus_to_exitcode(status)} {usage.ru_utime + usage.ru_stime}")
sys.exit(os.waitstatus_to_exitcode(status))
"""


def run_rss(argv, stdin=None):
    """Runs argv, returns (seconds, peak RSS bytes, stdout bytes)."""
    seconds, rss, _, out, _ = run_usage(argv, stdin)
    return seconds, rss, out


def run_usage(argv, stdin=None):
    """Runs argv, returns (wall seconds, peak RSS bytes, CPU seconds (user + system), stdout bytes,
    stderr text)."""
    out_file = tempfile.TemporaryFile()
    fd, stats = tempfile.mkstemp(prefix="stol-bench-rss-")
    os.close(fd)
    p = subprocess.run([sys.executable, "-c", RSS_WRAPPER, stats, *argv], stdout=out_file, stderr=subprocess.PIPE, stdin=stdin)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} failed ({p.returncode}): {p.stderr.decode(errors='replace')[-2000:]}")
    elapsed, rss, _, cpu = open(stats).read().split()
    os.remove(stats)
    out_file.seek(0)
    return float(elapsed), int(rss), float(cpu), out_file.read(), p.stderr.decode(errors="replace")


def fmt_ms(s):
    return f"{s['median']:.3f} ms (p99 {s['p99']:.3f}, min {s['min']:.3f}, max {s['max']:.3f}, n={s['n']})"


def ratio(a, b):
    return f"{a / b:.2f}×" if b else "–"


def mb(n):
    return f"{n / 1e6:.1f} MB"


def fold(text):
    text = unicodedata.normalize("NFKD", text.lower())
    return "".join(c for c in text if not unicodedata.combining(c))


def fts_expression(query):
    """The engine's FTS5 expression (SearchQuery.ftsExpression): quoted words as prefixes, quoted
    phrases as phrases, ANDed."""
    terms = []
    for m in re.finditer(r'"([^"]*)"|([^"\s]+)', query):
        if m.group(1) is not None:
            words = re.findall(r"\w+", fold(m.group(1)))
            if words:
                terms.append('"' + " ".join(words) + '"')
        else:
            for w in re.findall(r"\w+", fold(m.group(2))):
                terms.append(f'"{w}"*')
    return " ".join(terms)


def word_trigram_expression(query):
    """An OR of the trigrams of each query word of four letters or more, padded with a space at
    both ends as `fts_words` stores them (the vocabulary the engine's typo stage reads)."""
    grams = []
    for word in re.findall(r"\w+", fold(query)):
        if len(word) < 4:
            continue
        padded = " " + word + " "
        for i in range(len(padded) - 2):
            g = padded[i:i + 3]
            if g not in grams:
                grams.append(g)
    return " OR ".join('"' + g.replace('"', '""').replace("'", "''") + '"' for g in grams)


class SQLiteCLI:
    """The sqlite3 command-line tool on pipes, one statement in flight at a time (the same way the
    engine is driven), so its round trips are the storage floor of a search."""

    def __init__(self, path):
        self.proc = subprocess.Popen(["sqlite3", "-batch", f"file:{path}?immutable=1"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)

    def query(self, sql):
        start = time.perf_counter()
        self.proc.stdin.write(sql.rstrip(";") + ";\nSELECT '@@end';\n")
        self.proc.stdin.flush()
        rows = 0
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("sqlite3 exited: " + self.proc.stderr.read())
            if line.strip() == "@@end":
                break
            rows += 1
        return (time.perf_counter() - start) * 1000, rows

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


def random_ids(path, count, species=False, seed=1):
    taxa, sp = compare_stdio.sample_ids(path, 0 if species else count, count if species else 0, seed)
    return sp if species else taxa


# ---------------------------------------------------------------- databases

def cached(name):
    return os.path.join(CACHE, name)


BUILT = {}


def build_db(args_, out):
    """build-db into `out`: (wall seconds, peak RSS bytes)."""
    seconds, rss, _, _, _ = build_db_measured(args_, out)
    return seconds, rss


def build_db_measured(args_, out):
    """build-db into `out`, written beside it and renamed when done: run_usage's (wall seconds,
    peak RSS bytes, CPU seconds, stdout bytes, stderr text)."""
    tmp = out + ".tmp"
    if os.path.exists(tmp):
        os.remove(tmp)
    measured = run_usage([ENGINE, "build-db", *args_, "--out", tmp])
    os.replace(tmp, out)
    return measured


def schema_of(path):
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        return db.execute("SELECT type, name, sql FROM sqlite_master ORDER BY type, name").fetchall()


def is_current(path):
    """A cached database is reused only if its schema is the one build-db writes today (the embedded
    database is rebuilt with every schema change, and a test keeps it so)."""
    return os.path.exists(path) and schema_of(path) == schema_of(EMBEDDED_DB)


def mammals_birds():
    path = cached("mammals-birds.sqlite")
    if not is_current(path):
        log("building mammals+birds database …")
        BUILT["mammals+birds"] = build_db(["--mdd", MDD, "--avilist", AVILIST], path)
    return path


def opentree():
    path = cached("opentree.sqlite")
    if is_current(path):
        return path
    if is_current("/tmp/opentree.sqlite"):
        return "/tmp/opentree.sqlite"
    log("building the Open Tree database (about 5 minutes, 2.6 GB) …")
    BUILT["opentree"] = build_db(["--table", OPENTREE_TABLE], path)
    return path


def ncbi():
    """NCBI Taxonomy (real ranks and English common names), built once into bench/.cache/."""
    path = cached("ncbi.sqlite")
    if not is_current(path):
        log("building the NCBI Taxonomy database (5–7 minutes) …")
        BUILT["ncbi"] = build_db(["--ncbi", NCBI_DIR], path)
    return path


def databases(smoke):
    """(label, engine --database or None, file) for the sections that run on several databases."""
    dbs = [("embedded", None, EMBEDDED_DB)]
    if not smoke:
        mb_path = mammals_birds()
        dbs.append(("mammals+birds", mb_path, mb_path))
        ot = opentree()
        dbs.append(("Open Tree", ot, ot))
    return dbs


# ---------------------------------------------------------------- sections
# Each returns {"rows": [[what, engine, peer-or-floor name, peer figure, ratio], ...], "notes": [...]}

def section_startup(smoke):
    rounds = 3 if smoke else 10
    dbs = [("embedded", None, EMBEDDED_DB)] + ([] if smoke else [("Open Tree", opentree(), opentree())])
    rows = []
    for label, db_arg, path in dbs:
        detail_id = random_ids(path, 1, species=True, seed=7)[0]
        ping, detail, floor, cli = [], [], [], []
        # One data directory per database, as a user has: a `--database` file's content check runs
        # on its first start there (the warm-up round, reported on its own) and is recorded.
        data_dir = tempfile.mkdtemp(prefix="stol-bench-startup-")
        for r in range(rounds + 1):  # the first round warms the page cache and is dropped
            with Engine(ENGINE, db_arg, data_dir=data_dir) as e:
                e.call("ping")
                t_ping = (time.perf_counter() - e.started) * 1000
            if r == 0 and db_arg:
                rows.append([f"{label}: spawn → first `ping` answered, first start on a new data directory (the file's content check, once)",
                             f"{t_ping:.0f} ms (n=1)", "the same, later starts (below)", "–", "–"])
            with Engine(ENGINE, db_arg, data_dir=data_dir) as e:
                e.call("taxon/detail", {"id": detail_id})
                t_detail = (time.perf_counter() - e.started) * 1000
            with Engine(argv=[ENGINE, "benchmark", "floor"]) as e:
                e.call("ping")
                t_floor = (time.perf_counter() - e.started) * 1000
            start = time.perf_counter()
            sh(["sqlite3", f"file:{path}?immutable=1", f"SELECT * FROM taxa WHERE id = {detail_id}"])
            t_cli = (time.perf_counter() - start) * 1000
            if r:
                ping.append(t_ping); detail.append(t_detail); floor.append(t_floor); cli.append(t_cli)
        shutil.rmtree(data_dir, ignore_errors=True)
        p, d, f, c = summary(ping), summary(detail), summary(floor), summary(cli)
        rows.append([f"{label}: spawn → first `ping` answered", fmt_ms(p), "floor: same binary, `benchmark floor`, spawn → `ping`", fmt_ms(f), ratio(p["median"], f["median"])])
        rows.append([f"{label}: spawn → first `taxon/detail` answered", fmt_ms(d), "peer: `sqlite3` CLI spawn → one row by id", fmt_ms(c), ratio(d["median"], c["median"])])
    # The first search a child waits for (issue 38: ≤ 50 ms embedded, ≤ 100 ms NCBI and Open Tree):
    # a plain word, two words, and a typo (which reads the word vocabulary).
    searches = [("embedded", None, EMBEDDED_DB)] + ([] if smoke or ARGS.skip_ncbi else [("NCBI", ncbi(), ncbi())]) + dbs[1:]
    for label, db_arg, path in searches:
        data_dir = tempfile.mkdtemp(prefix="stol-bench-startup-")
        for query in ["lion", "honey bee", "elefnt"]:
            first, floor = [], []
            for r in range(rounds + 1):
                with Engine(ENGINE, db_arg, data_dir=data_dir) as e:
                    e.call("search/query", {"query": query, "limit": 20})
                    t_first = (time.perf_counter() - e.started) * 1000
                with Engine(ENGINE, db_arg, data_dir=data_dir) as e:
                    e.call("ping")
                    t_ping = (time.perf_counter() - e.started) * 1000
                if r:
                    first.append(t_first); floor.append(t_ping)
            q, p = summary(first), summary(floor)
            rows.append([f"{label}: spawn → first `search/query` answered (`{query}`)", fmt_ms(q),
                         "floor: the same engine, spawn → first `ping`", fmt_ms(p), ratio(q["median"], p["median"])])
        shutil.rmtree(data_dir, ignore_errors=True)
    return {"rows": rows, "notes": [f"{rounds} spawns each (after one warm-up spawn), alternating engine, floor and sqlite3; "
                                    "first searches alternate with first pings of the same database. Each database keeps one data directory "
                                    "across its spawns, as a user's does: a `--database` file is checked (values, tree, full-text indexes) on its "
                                    "first start there, reported on its own row; an imported reference database is checked once, at import."]}


def taxon_get_lines(ids, n):
    return [json.dumps({"jsonrpc": "2.0", "id": i, "method": "taxon/get", "params": {"id": ids[i % len(ids)]}},
                       separators=(",", ":")).encode() + b"\n" for i in range(n)]


def pipelined_rate(engine, lines):
    """Requests per second of one spawned `engine` (an `Engine`), given `lines` at once."""
    with engine as e:
        e.call("ping")
        seconds, out = e.pipelined(lines, len(lines))
        assert b'"result"' in out[-1], out[-1][:300]
    return len(lines) / seconds


def pipelined_rates(database, lines, runs, taxon_file):
    """Requests per second of the engine on `database` and of the floor, each given `lines` at
    once, alternating, `runs` times."""
    engine_rates, floor_rates = [], []
    for _ in range(runs):
        engine_rates.append(pipelined_rate(Engine(ENGINE, database), lines))
        floor_rates.append(pipelined_rate(Engine(argv=[ENGINE, "benchmark", "floor", "--taxon", taxon_file]), lines))
    return summary(engine_rates), summary(floor_rates)


def section_throughput(smoke):
    n = 2000 if smoke else 50000
    runs = 1 if smoke else 3
    ids = random_ids(EMBEDDED_DB, 1000)
    with Engine(ENGINE) as e:
        sample = e.call("taxon/get", {"id": ids[0]})
    taxon_file = os.path.join(tempfile.mkdtemp(prefix="stol-bench-"), "taxon.json")
    with open(taxon_file, "w") as f:
        json.dump(sample, f)
    fmt = lambda s: f"{s['median']:,.0f} req/s (min {s['min']:,.0f}, max {s['max']:,.0f}, runs={s['n']})"
    floor_what = "floor: `benchmark floor` (same reader, parser, classifier, writer; fixed taxon JSON)"
    es, fs = pipelined_rates(None, taxon_get_lines(ids, n), runs, taxon_file)
    rows = [[f"pipelined `taxon/get`, embedded database, {n:,} requests over {len(ids):,} ids (answers after the first of each id come from the taxon cache)",
             fmt(es), floor_what, fmt(fs), f"engine ÷ floor = {es['median'] / fs['median']:.2f}"]]
    if not smoke:
        # The same where no answer can come from the engine's taxon cache: every id asked once,
        # on mammals+birds (22 k taxa), so each request reads SQLite.
        mb = mammals_birds()
        cold_ids = random_ids(mb, 20000)
        cs, cfs = pipelined_rates(mb, taxon_get_lines(cold_ids, len(cold_ids)), runs, taxon_file)
        rows.append([f"pipelined `taxon/get`, mammals+birds, {len(cold_ids):,} requests, each id once (every answer read from SQLite)",
                     fmt(cs), floor_what, fmt(cfs), f"engine ÷ floor = {cs['median'] / cfs['median']:.2f}"])
    shutil.rmtree(os.path.dirname(taxon_file), ignore_errors=True)
    return {"rows": rows,
            "notes": [f"{len(sample and json.dumps(sample))} bytes of taxon JSON per answer; requests written by a thread while the answers are read.",
                      "`taxon/get` is answered on the engine's intake thread when nothing needs waiting for (ARCHITECTURE.md, step 5); "
                      "the engine and its floor alternate, runs apart."]}


def section_client(smoke):
    """STOLClient (the Swift client library) beside a hand-written line loop on the same spawned
    engine, and with the engine in process; `stol-client-bench` measures all three in one run."""
    bench = os.path.join(os.path.dirname(ENGINE), "stol-client-bench")
    if not os.path.exists(bench):
        raise RuntimeError(f"no {bench}: swift build -c release --product stol-client-bench --scratch-path .build-rel")
    ids = random_ids(EMBEDDED_DB, 1000)
    work = tempfile.mkdtemp(prefix="stol-bench-client-")
    id_file = os.path.join(work, "ids.txt")
    with open(id_file, "w") as f:
        f.write("\n".join(map(str, ids)))
    round_trips, pipelined, runs = (200, 2000, 1) if smoke else (2000, 50000, 3)
    _, out = sh([bench, "--engine", ENGINE, "--ids", id_file, "--round-trips", str(round_trips),
                 "--pipelined", str(pipelined), "--runs", str(runs)])
    shutil.rmtree(work, ignore_errors=True)
    r = json.loads(out)
    trips = {k: summary(v) for k, v in r["roundTripMs"].items()}
    rates = {k: summary(v) for k, v in r["pipelinedPerSecond"].items()}
    fmt = lambda s: f"{s['median']:,.0f} req/s (min {s['min']:,.0f}, max {s['max']:,.0f}, runs={s['n']})"
    floor = "floor: hand-written line loop on the same spawned engine (one `write` per request, answers counted, not parsed)"
    rows = []
    for key, what in (("client", "STOLClient, spawned engine"), ("inProcess", "STOLClient, engine in process (`InProcessTransport`)")):
        rows.append([f"{what}: `taxon/get` round trip, one call at a time", fmt_ms(trips[key]), floor, fmt_ms(trips["raw"]),
                     ratio(trips[key]["median"], trips["raw"]["median"])])
        rows.append([f"{what}: pipelined `taxon/get`, {pipelined:,} calls, {r['window']:,} in flight", fmt(rates[key]), floor, fmt(rates["raw"]),
                     f"client ÷ floor = {rates[key]['median'] / rates['raw']['median']:.2f}"])
    return {"rows": rows,
            "notes": [f"`stol-client-bench` (a bench-only executable target): {round_trips:,} round trips after 200 warm-up calls and "
                      f"{pipelined:,} pipelined calls, over {len(ids):,} ids of the embedded database, {runs} runs alternating the floor, "
                      "the spawned client and the in-process client. The client encodes each request, decodes each answer into `Taxon`, "
                      "and resumes the calling task from its reader thread; the floor does none of it. The in-process engine shares "
                      "the bench's own process and cores."]}


SCIENTIFIC_FORMS = {
    "exact (scientific)": ["Panthera leo", "Homo sapiens", "Quercus robur", "Canis lupus", "Escherichia coli", "Passer domesticus"],
    "prefix (scientific)": ["panthe", "quercu", "escheri", "passeri", "drosoph", "arabidop"],
    "phrase (scientific)": ['"panthera leo"', '"homo sapiens"', '"quercus robur"', '"canis lupus"', '"escherichia coli"', '"passer domesticus"'],
    "fuzzy (scientific)": ["Panthera loe", "Homo sapeins", "Quercus robor", "Canis lupsu", "Escherichia colli", "Passer domesticsu"],
}


def search_rows(label, db_arg, path, forms, rounds):
    """One row per query form: the engine's round trips on a warm engine beside the sqlite3 CLI's
    floor for the same form."""
    rows = []
    with Engine(ENGINE, db_arg) as e:
        compare_stdio.wait_ready(e)  # warm: not while the background LCA build takes a core
        results = search_latency.measure(e, forms, rounds)
    cli = SQLiteCLI(path)
    for form, queries in forms.items():
        if form.startswith("fuzzy"):
            sqls = [f"SELECT rowid FROM fts_words WHERE fts_words MATCH '{word_trigram_expression(q)}' LIMIT 20" for q in queries]
        elif form == "autocomplete":
            sqls = [f"SELECT name FROM search_names WHERE folded >= '{fold(q)}' AND folded < '{fold(q)}' || char(1114111) LIMIT 10" for q in queries]
        else:
            sqls = [f"SELECT rowid FROM fts_taxa WHERE fts_taxa MATCH '{fts_expression(q)}' LIMIT 20" for q in queries]
        for s in sqls:
            cli.query(s)  # warm-up
        floor = summary([cli.query(sqls[i % len(sqls)])[0] for i in range(rounds)])
        s = results[form]
        what = ("floor: sqlite3 CLI, the first 10 folded names starting with the prefix" if form == "autocomplete" else
                "floor: sqlite3 CLI, the first 20 vocabulary words (`fts_words`) holding a trigram of a query word" if form.startswith("fuzzy") else
                "floor: sqlite3 CLI, same FTS5 MATCH … LIMIT 20")
        rows.append([f"{label}: {form} (e.g. `{queries[0]}`)", fmt_ms(s), what, fmt_ms(floor), ratio(s["median"], floor["median"])])
    cli.close()
    return rows


def section_search(smoke):
    rounds = 20 if smoke else 200
    forms = dict(search_latency.FORMS)
    rows = []
    dbs = [("embedded", None, EMBEDDED_DB)]
    if not smoke:
        dbs.append(("mammals+birds", mammals_birds(), mammals_birds()))
        if not ARGS.skip_opentree:
            dbs.append(("Open Tree", opentree(), opentree()))
    if not smoke and not ARGS.skip_ncbi:
        path = ncbi()
        dbs.append(("NCBI", path, path))
    for label, db_arg, path in dbs:
        db_forms = dict(forms)
        if label == "Open Tree":  # scientific names only: the common-name queries fall through to fuzzy
            db_forms.update(SCIENTIFIC_FORMS)
        rows += search_rows(label, db_arg, path, db_forms, rounds)
    return {"rows": rows, "notes": [f"{rounds} queries per form round-robin over 6 queries, one in flight, `limit` 20, once the engine's background "
                                    "LCA build is done (`compare/stats`); sqlite3 driven over pipes the same way. "
                                    "The floor for fuzzy is the first 20 words of `fts_words` (the vocabulary of distinct words the engine's typo stage reads) "
                                    "holding any trigram of a query word of four letters or more, padded as stored; for the other forms one FTS5 `MATCH` "
                                    "of the query's words as prefixes (for plurals, the plural as typed: the floor does not look for the singular).",
                                    "A search runs its tiers in order (exact, whole words, inflected forms, prefixes, word-internal, typos) and stops "
                                    "once the page is full of hits no later tier can outrank; each tier reads at most 500–2,000 taxa or names. "
                                    "Word-internal matches and typos look up the vocabulary of distinct words (`fts_words`) first, then the taxa "
                                    "holding the words found."]}


def ensure_in_venv(module, requirement):
    """bench/.venv (created if missing) with `module` importable, installing `requirement` if not."""
    if not os.path.exists(VENV_PY):
        log("creating bench/.venv …")
        subprocess.run([sys.executable, "-m", "venv", os.path.join(BENCH, ".venv")], check=True)
    if subprocess.run([VENV_PY, "-c", f"import {module}"], capture_output=True).returncode != 0:
        log(f"installing {requirement} into bench/.venv …")
        subprocess.run([VENV_PY, "-m", "pip", "install", "-q", requirement], check=True)


def ensure_rapidfuzz():
    ensure_in_venv("rapidfuzz", "rapidfuzz==3.14.6")


def section_searchquality(smoke):
    """Queries made from real mammal and bird names, engine beside rapidfuzz (bench/search_quality.py)."""
    if smoke:
        return {"rows": [], "notes": ["not run with --smoke"]}
    ensure_rapidfuzz()
    n = 300
    out = subprocess.run([VENV_PY, os.path.join(BENCH, "search_quality.py"), "--engine", ENGINE, "--database", mammals_birds(), "--n", str(n)],
                         check=True, capture_output=True, text=True).stdout
    r = json.loads(out)
    version = subprocess.run([VENV_PY, "-c", "import rapidfuzz; print(rapidfuzz.__version__)"], capture_output=True, text=True).stdout.strip()
    rows = []
    for form, e in r["engine"].items():
        p = r["rapidfuzz"][form]
        rows.append([f"mammals+birds: {form}: found first / in the first 3",
                     f"{e['top1']:.1%} / {e['top3']:.1%} (p50 {e['p50']:.3f} ms, p99 {e['p99']:.3f} ms)",
                     f"peer: rapidfuzz {version} `process.extract(…, scorer=WRatio)` over the same {r['names']:,} names, in-process",
                     f"{p['top1']:.1%} / {p['top3']:.1%} (p50 {p['p50']:.3f} ms, p99 {p['p99']:.3f} ms)",
                     f"first 3: {100 * (e['top3'] - p['top3']):+.1f} points"])
    return {"rows": rows, "notes": [
        f"{r['n']} species drawn at random (seed 15) from those with an English common name; one query per species and form "
        "(`python3 bench/search_quality.py --database …`). A typo is one random substitution, deletion, insertion or "
        "transposition of a letter; plurals follow English rules (mouse → mice, -y → -ies, …). The engine's latency is a "
        "`search/query` round trip over stdio (`limit` 3); rapidfuzz's is one in-process `process.extract` call."]}


def section_relevance(smoke):
    """Judgment sets (bench/judgments: each query names the taxon or group meant) on the embedded
    database and NCBI, and other checklists' names of NCBI species; the engine beside rapidfuzz."""
    if smoke:
        return {"rows": [], "notes": ["not run with --smoke"]}
    ensure_rapidfuzz()
    version = subprocess.run([VENV_PY, "-c", "import rapidfuzz; print(rapidfuzz.__version__)"], capture_output=True, text=True).stdout.strip()
    peer = f"peer: rapidfuzz {version} `process.extract(…, scorer=WRatio)` over every name, no language"
    fmt = lambda s: f"top-1 {s['top1']:.1%}, top-3 {s['top3']:.1%}, MRR {s['mrr']:.3f} (n={s['n']})"
    rows, notes = [], []
    sets = [("embedded", os.path.join(BENCH, "judgments", "embedded.tsv"), [])]
    if not ARGS.skip_ncbi:
        sets.append(("NCBI", os.path.join(BENCH, "judgments", "ncbi.tsv"), ["--database", ncbi()]))
    for label, path, extra in sets:
        r = json.loads(subprocess.run([VENV_PY, os.path.join(BENCH, "search_judgments.py"), path, "--engine", ENGINE, "--rapidfuzz"] + extra,
                                      check=True, capture_output=True, text=True).stdout)
        e, p = r["overall"], r["rapidfuzz"]["overall"]
        rows.append([f"{label}: judgment set, all ({e['empty']} empty answers, {r['pending']} pending)", fmt(e), peer, fmt(p),
                     f"top-3: {100 * (e['top3'] - p['top3']):+.1f} points"])
        if len(r["by_lang"]) > 1:
            for lang, s in r["by_lang"].items():
                q = r["rapidfuzz"]["by_lang"][lang]
                rows.append([f"{label}: judgment set, `{lang}`", fmt(s), peer, fmt(q), f"top-3: {100 * (s['top3'] - q['top3']):+.1f} points"])
        notes.append(f"{label} by kind: " + "; ".join(f"{k} {s['top1']:.0%}/{s['top3']:.0%} (n={s['n']})" for k, s in r["by_kind"].items())
                     + " (top-1/top-3).")
    if not ARGS.skip_ncbi:
        v = json.loads(subprocess.run([VENV_PY, os.path.join(BENCH, "search_quality.py"), "--engine", ENGINE, "--database", ncbi(), "--variants", "--n", "300"],
                                      check=True, capture_output=True, text=True).stdout)
        for form, e in v["engine"].items():
            p = v["rapidfuzz"][form]
            rows.append([f"NCBI: {form} (n={e['n']}): found first / in the first 3, empty answers",
                         f"{e['top1']:.1%} / {e['top3']:.1%}, {e['empty']:.0%} empty", peer.replace("every name", f"all {v['names']:,} names"),
                         f"{p['top1']:.1%} / {p['top3']:.1%}", f"first 3: {100 * (e['top3'] - p['top3']):+.1f} points"])
    notes += ["A judgment set is a TSV of queries, each naming the taxon or group a person means (`bench/judgments/README.md`); "
              "`python3 bench/search_judgments.py FILE [--database DB] [--rapidfuzz]` scores one. Top-1 and top-3: the share of queries "
              "with a right answer first or in the first three; MRR: the mean of 1/rank (0 beyond rank 10). Pending: queries whose "
              "taxa the database lacks. The NCBI database is `build-db --ncbi` without descriptions.",
              "Other checklists' names: names of the Mammal Diversity Database and AviList for NCBI species of the same scientific "
              "name that share a word with one of the taxon's names but are none of them, nor another taxon's (NCBI gives some "
              "to subspecies: \"mountain bongo\") (`bench/search_quality.py --variants`), "
              "300 drawn at random (seed 15), classed by how they differ."]
    return {"rows": rows, "notes": notes}


def write_taxdump(path, out_dir):
    """NCBI-style nodes.dmp/names.dmp of a database's tree, for taxopy."""
    nodes, names = os.path.join(out_dir, "nodes.dmp"), os.path.join(out_dir, "names.dmp")
    if os.path.exists(names):
        return nodes, names
    os.makedirs(out_dir, exist_ok=True)
    db = sqlite3.connect(f"file:{path}?immutable=1", uri=True)
    with open(nodes + ".tmp", "w") as fn, open(names + ".tmp", "w") as fa:
        for tid, parent, rank, name in db.execute("SELECT id, parent_id, rank, scientific_name FROM taxa"):
            fn.write(f"{tid}\t|\t{parent if parent is not None else tid}\t|\t{rank or 'no rank'}\t|\n")
            fa.write(f"{tid}\t|\t{name}\t|\t\t|\tscientific name\t|\n")
    db.close()
    os.replace(nodes + ".tmp", nodes)
    os.replace(names + ".tmp", names)
    return nodes, names


TAXOPY_SCRIPT = r"""
import json, random, resource, sys, time
import taxopy
nodes, names, ids_file, n_lineage, pairs_file = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
ids = json.load(open(ids_file))
pairs = json.load(open(pairs_file))
t = time.perf_counter()
db = taxopy.TaxDb(nodes_dmp=nodes, names_dmp=names, keep_files=True)
load = time.perf_counter() - t
t = time.perf_counter()
for i in range(n_lineage):
    taxopy.Taxon(ids[i % len(ids)], db).taxid_lineage
lineage = time.perf_counter() - t
taxa = {i: taxopy.Taxon(i, db) for i in ids}
first = []
t = time.perf_counter()
for a, b in pairs:
    found = taxopy.find_lca([taxa[a], taxa[b]], db)
    if len(first) < 1000:
        first.append(found.taxid)
lca = time.perf_counter() - t
print(json.dumps({"load": load, "lineage_rate": n_lineage / lineage, "lca_rate": len(pairs) / lca, "first_lcas": first,
                  "rss": int(next(l for l in open("/proc/self/status") if l.startswith("VmHWM")).split()[1]) * 1024}))
"""


def ensure_venv():
    """bench/.venv with taxopy: a venv made by another section may lack it."""
    ensure_in_venv("taxopy", "taxopy==0.14.0")


def batched_lines(method, params_list, batch):
    lines, rid = [], 0
    for start in range(0, len(params_list), batch):
        entries = []
        for p in params_list[start:start + batch]:
            rid += 1
            entries.append({"jsonrpc": "2.0", "id": rid, "method": method, "params": p})
        lines.append(json.dumps(entries, separators=(",", ":")).encode() + b"\n")
    return lines


# The query `taxon/ancestors` runs (TaxonomyStore.ancestors with the stored child count), for the
# storage floor of a lineage: the same rows through Python's sqlite3, without JSON or a pipe.
LINEAGE_SQL = """
WITH RECURSIVE up(id, level) AS (
    SELECT parent_id, 1 FROM taxa WHERE id = :id AND parent_id IS NOT NULL
    UNION ALL
    SELECT t.parent_id, up.level + 1 FROM taxa t JOIN up ON t.id = up.id WHERE t.parent_id IS NOT NULL AND up.level < 10000)
SELECT t.id, t.parent_id, t.rank, t.scientific_name, t.author, t.year, t.status, t.conservation,
    (SELECT n.name FROM names n WHERE n.taxon_id = t.id AND n.name_type IN ('common', 'vernacular') AND n.lang IN ('en', 'en', 'en')
     ORDER BY n.lang = 'en' DESC, n.lang = 'en' DESC, n.is_preferred DESC, n.id LIMIT 1) AS common_name, t.child_count
FROM taxa t JOIN up ON up.id = t.id ORDER BY up.level DESC
"""


def lineage_floor(path, ids, n):
    """Lineages per second and mean depth for the engine's lineage query run in-process."""
    db = sqlite3.connect(f"file:{path}?immutable=1", uri=True)
    db.execute(LINEAGE_SQL, {"id": ids[0]}).fetchall()
    rows, start = 0, time.perf_counter()
    for i in range(n):
        rows += len(db.execute(LINEAGE_SQL, {"id": ids[i % len(ids)]}).fetchall())
    return n / (time.perf_counter() - start), rows / n


def section_lineage(smoke):
    if smoke:
        label, db_arg, path = "embedded", None, EMBEDDED_DB
        n_lineage, n_lca_stdio, pairs, runs = 2000, 1000, 100000, 1
    else:
        label, db_arg, path = "Open Tree", opentree(), opentree()
        n_lineage, n_lca_stdio, pairs, runs = 100000, 20000, 1000000, 3
    ids = random_ids(path, 20000, seed=5)
    rng = random.Random(9)
    # One list of random pairs for the engine over stdio (compare/lca) and for taxopy.
    pair_list = [[rng.choice(ids), rng.choice(ids)] for _ in range(pairs)]
    rows, notes = [], []
    lineage_runs, lca_bulk_runs, bulk_lineage_runs = [], [], []
    with Engine(ENGINE, db_arg) as e:
        compare_stdio.wait_ready(e)
        anc = [{"id": ids[i % len(ids)]} for i in range(n_lineage)]
        lineage_lines = batched_lines("taxon/ancestors", anc, 100)
        bulk_lines = [json.dumps({"jsonrpc": "2.0", "id": i + 1, "method": "compare/lca", "params": {"pairs": pair_list[s:s + 100000]}},
                                 separators=(",", ":")).encode() + b"\n" for i, s in enumerate(range(0, pairs, 100000))]
        lineage_ids = [ids[i % len(ids)] for i in range(n_lineage)]
        bulk_lineage_lines = [json.dumps({"jsonrpc": "2.0", "id": i + 1, "method": "taxon/lineages", "params": {"ids": lineage_ids[s:s + 100000]}},
                                         separators=(",", ":")).encode() + b"\n" for i, s in enumerate(range(0, n_lineage, 100000))]
        for _ in range(runs):
            seconds, _ = e.pipelined(lineage_lines, len(lineage_lines))
            lineage_runs.append(n_lineage / seconds)
            seconds, _ = e.pipelined(bulk_lineage_lines, len(bulk_lineage_lines))
            bulk_lineage_runs.append(n_lineage / seconds)
            seconds, out = e.pipelined(bulk_lines, len(bulk_lines))
            lca_bulk_runs.append(pairs / seconds)
        engine_lcas = []
        for line in sorted((json.loads(l) for l in out), key=lambda r: r["id"]):
            engine_lcas += line["result"]["lcas"]
        pairs_params = [{"a": a, "b": b} for a, b in pair_list[:n_lca_stdio]]
        lines = batched_lines("compare/taxa", pairs_params, 100)
        seconds, out = e.pipelined(lines, len(lines))
        lca_stdio_rate = n_lca_stdio / seconds
    lineage_rate, lca_bulk_rate = statistics.median(lineage_runs), statistics.median(lca_bulk_runs)
    bulk_lineage_rate = statistics.median(bulk_lineage_runs)
    floor_rate, depth = lineage_floor(path, ids, min(n_lineage, 20000))
    spread = lambda runs_: (f", runs {min(runs_):,.0f}–{max(runs_):,.0f}" if len(runs_) > 1 else "")
    _, _, text = run_rss([ENGINE, "benchmark", "lca", "--database", path, "--pairs", str(pairs), "--runs", "3", "--source", "tour"])
    text = text.decode()
    m = re.search(r"lca: ([\d.]+) M queries/s", text)
    inproc = float(m.group(1)) * 1e6 if m else 0
    build = re.search(r"build from tour \((\w+)\): ([\d.]+) s, (\d+) nodes, ([\d.]+) MB", text)
    notes.append("in-process: " + " | ".join(l for l in text.splitlines() if l.startswith(("build", "lca", "distance"))))
    taxopy = None
    if not smoke:
        ensure_venv()
        dump_dir = cached("taxdump-" + os.path.basename(path).replace(".sqlite", ""))
        t0 = time.perf_counter()
        reused = os.path.exists(os.path.join(dump_dir, "names.dmp"))
        nodes, names = write_taxdump(path, dump_dir)
        notes.append(f"NCBI-style nodes.dmp/names.dmp for taxopy {'reused from' if reused else f'written in {time.perf_counter() - t0:.1f} s to'} {os.path.relpath(dump_dir, ROOT)}")
        work = tempfile.mkdtemp(prefix="stol-bench-")
        ids_file, pairs_file = os.path.join(work, "ids.json"), os.path.join(work, "pairs.json")
        json.dump(ids, open(ids_file, "w"))
        json.dump(pair_list, open(pairs_file, "w"))
        _, _, out = run_rss([VENV_PY, "-c", TAXOPY_SCRIPT, nodes, names, ids_file, str(n_lineage), pairs_file])
        shutil.rmtree(work, ignore_errors=True)
        taxopy = json.loads(out.decode().strip().splitlines()[-1])
        checked = taxopy.pop("first_lcas")
        agree = sum(1 for x, y in zip(checked, engine_lcas) if x == y)
        notes.append(f"taxopy 0.14.0: TaxDb loaded in {taxopy['load']:.1f} s, peak RSS {mb(taxopy['rss'])}; `find_lca` on the same {pairs:,} random pairs "
                     f"as `compare/lca`; the two agree on {agree:,} of the first {len(checked):,} pairs' LCAs.")
        notes.append("ete3, loaded with the same whole tree: section 4b (`--only ete3`).")
    peer = lambda key: (f"{taxopy[key]:,.0f} /s" + (f" (1 M pairs: {1e6 / taxopy[key]:.1f} s)" if key == "lca_rate" else f" ({n_lineage / taxopy[key]:.2f} s)")) if taxopy else "not measured (smoke)"
    peer_ratio = lambda v, key: (f"engine ÷ taxopy = {v / taxopy[key]:.3g}" if taxopy else "–")
    rows.append([f"{label}: {n_lineage:,} random lineages, `taxon/ancestors` over stdio (batches of 100, median of {runs})",
                 f"{lineage_rate:,.0f} /s ({n_lineage / lineage_rate:.2f} s{spread(lineage_runs)})", "peer: taxopy `Taxon(id).taxid_lineage` in-process", peer("lineage_rate"), peer_ratio(lineage_rate, "lineage_rate")])
    rows.append([f"{label}: the same {n_lineage:,} lineages, ids only, `taxon/lineages` over stdio ({len(bulk_lineage_lines)} request(s) of ≤ 100,000 ids, median of {runs})",
                 f"{bulk_lineage_rate:,.0f} /s ({n_lineage / bulk_lineage_rate:.2f} s{spread(bulk_lineage_runs)})", "peer: taxopy `Taxon(id).taxid_lineage` in-process", peer("lineage_rate"), peer_ratio(bulk_lineage_rate, "lineage_rate")])
    rows.append([f"{label}: the same lineages, the engine's SQL through Python's sqlite3 (no JSON, no pipe; {min(n_lineage, 20000):,} lineages, mean {depth:.1f} ancestors)",
                 f"{lineage_rate:,.0f} /s (engine, above)", "floor: SQLite", f"{floor_rate:,.0f} /s", f"engine ÷ floor = {lineage_rate / floor_rate:.2f}"])
    rows.append([f"{label}: LCA of {pairs:,} random pairs, `compare/lca` over stdio ({len(bulk_lines)} requests of ≤ 100,000 pairs, median of {runs})",
                 f"{lca_bulk_rate:,.0f} /s ({pairs / lca_bulk_rate:.2f} s{spread(lca_bulk_runs)})", "peer: taxopy `find_lca` in-process, same pairs", peer("lca_rate"), peer_ratio(lca_bulk_rate, "lca_rate")])
    rows.append([f"{label}: LCA with both paths as full taxa, `compare/taxa` over stdio (batches of 100, first {n_lca_stdio:,} of the pairs)",
                 f"{lca_stdio_rate:,.0f} /s", "peer: taxopy `find_lca` in-process", peer("lca_rate"), peer_ratio(lca_stdio_rate, "lca_rate")])
    rows.append([f"{label}: LCA in-process (`benchmark lca`, {pairs:,} random pairs, median of 3)",
                 f"{inproc / 1e6:,.1f} M /s", "peer: taxopy `find_lca`", peer("lca_rate"), peer_ratio(inproc, "lca_rate")])
    if build:
        rows.append([f"{label}: LCA index build (from {build.group(1)})", f"{build.group(2)} s, {int(build.group(3)):,} nodes, {build.group(4)} MB",
                     "peer: taxopy TaxDb load (dicts, no LCA index)", f"{taxopy['load']:.1f} s" if taxopy else "–",
                     (f"{float(build.group(2)) / taxopy['load']:.2f}×" if taxopy else "–")])
    return {"rows": rows, "notes": notes, "taxopy": taxopy}


ETE3_SCRIPT = r"""
import json, random, sqlite3, sys, time
import ete3
path, clade, n_lineage, n_lca = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
db = sqlite3.connect(f"file:{path}?immutable=1", uri=True)
rows = db.execute("WITH RECURSIVE sub(id, parent) AS (SELECT id, NULL FROM taxa WHERE scientific_name = ? "
                  "UNION ALL SELECT t.id, t.parent_id FROM taxa t JOIN sub ON t.parent_id = sub.id) SELECT id, parent FROM sub", (clade,)).fetchall()
t = time.perf_counter()
nodes = {}
root = None
for tid, parent in rows:
    node = ete3.TreeNode(name=str(tid))
    nodes[tid] = node
    if parent is None:
        root = node
    else:
        nodes[parent].add_child(node)
build = time.perf_counter() - t
rng = random.Random(4)
ids = list(nodes)
t = time.perf_counter()
for _ in range(n_lineage):
    nodes[rng.choice(ids)].get_ancestors()
lineage = time.perf_counter() - t
t = time.perf_counter()
for _ in range(n_lca):
    root.get_common_ancestor(nodes[rng.choice(ids)], nodes[rng.choice(ids)])
lca = time.perf_counter() - t
print(json.dumps({"nodes": len(rows), "build": build, "lineage_rate": n_lineage / lineage, "lca_rate": n_lca / lca,
                  "rss": int(next(l for l in open("/proc/self/status") if l.startswith("VmHWM")).split()[1]) * 1024}))
"""


def section_ete3(smoke):
    """ete3 (one Python TreeNode per node) loaded with the whole Open Tree tree, next to the engine."""
    if smoke:
        return {"rows": [["ete3", "not run with --smoke", "–", "–", "–"]], "notes": []}
    ensure_venv()
    subprocess.run([VENV_PY, "-m", "pip", "install", "-q", "ete3==3.1.3", "six", "numpy"], check=True)
    path = opentree()
    clade = sqlite3.connect(f"file:{path}?immutable=1", uri=True).execute(
        "SELECT scientific_name FROM taxa WHERE parent_id IS NULL LIMIT 1").fetchone()[0]
    _, _, out = run_rss([VENV_PY, "-c", ETE3_SCRIPT, path, clade, "20000", "2000"])
    r = json.loads(out.decode().strip().splitlines()[-1])
    lin = load_results().get("lineage", {})
    taxopy = lin.get("taxopy")
    rows_4 = lin.get("rows", [])
    find = lambda key: next((row for row in rows_4 if key in row[0]), None)
    rate = lambda text: float(re.match(r"([\d,.]+) (M )?/s", text).group(1).replace(",", "")) * (1e6 if " M /s" in text else 1)
    lineage, inproc, stdio, bulk = find("lineages"), find("in-process"), find("compare/taxa"), find("compare/lca")
    rows = [[f"Open Tree ({r['nodes']:,} nodes): load the tree", inproc and find("index build")[1] or "–",
             "peer: ete3 3.1.3, TreeNode per node (after reading the rows)", f"{r['build']:.1f} s, peak RSS {mb(r['rss'])}",
             (f"{float(inproc and find('index build')[1].split(' s')[0]) / r['build']:.2f}×" if inproc and find("index build") else "–")]]
    if lineage:
        rows.append(["Open Tree: random lineages, `taxon/ancestors` over stdio (section 4)", lineage[1],
                     "peer: ete3 `node.get_ancestors()` (20,000 random nodes)", f"{r['lineage_rate']:,.0f} /s",
                     f"engine ÷ ete3 = {rate(lineage[1]) / r['lineage_rate']:.3g}"])
    if inproc:
        rows.append(["Open Tree: LCA in-process (section 4)", inproc[1], "peer: ete3 `get_common_ancestor` (2,000 random pairs)",
                     f"{r['lca_rate']:,.0f} /s (1 M pairs ≈ {1e6 / r['lca_rate']:.0f} s)", f"engine ÷ ete3 = {rate(inproc[1]) / r['lca_rate']:.3g}"])
    if bulk:
        rows.append(["Open Tree: LCA of 1,000,000 pairs, `compare/lca` over stdio (section 4)", bulk[1], "peer: ete3 `get_common_ancestor`",
                     f"{r['lca_rate']:,.0f} /s", f"engine ÷ ete3 = {rate(bulk[1]) / r['lca_rate']:.3g}"])
    if stdio:
        rows.append(["Open Tree: LCA, `compare/taxa` over stdio (section 4)", stdio[1], "peer: ete3 `get_common_ancestor`",
                     f"{r['lca_rate']:,.0f} /s", f"engine ÷ ete3 = {rate(stdio[1]) / r['lca_rate']:.3g}"])
    return {"rows": rows, "notes": ["Engine figures are those of section 4 (same database, same code); ete3 is measured in this section. "
                                    "The first row's engine figure is the in-memory LCA index build."]}


def compare_rows(label, db_arg, path, rounds):
    """compare/taxa and compare/relatives round trips on random taxa of the database, beside `ping`."""
    rows = []
    taxa, species = compare_stdio.sample_ids(path, 4 * rounds, 2 * rounds)
    with Engine(ENGINE, db_arg) as e:
        results, stats = compare_stdio.measure(e, taxa, species, rounds)
        for _ in range(20):
            e.call("ping")
        ping = summary([e.timed("ping")[0] for _ in range(rounds)])
    for what, s in results.items():
        rows.append([f"{label}: {what}", fmt_ms(s), "floor: `ping` round trip, same engine", fmt_ms(ping), ratio(s["median"], ping["median"])])
    return rows


def section_compare(smoke):
    rounds = 30 if smoke else 500
    rows = []
    for label, db_arg, path in databases(smoke):
        rows += compare_rows(label, db_arg, path, rounds)
    return {"rows": rows, "notes": [f"{rounds} requests per method, one in flight; random taxa/species sampled from the database file."]}


def import_row(label, path, runs, work, key, pub, extra=()):
    """Packs the database, imports it `runs` times into fresh engines with progress, beside the floor of
    decompressing and hashing the payload; returns (row, note of the stages)."""
    stol = os.path.join(work, os.path.basename(path) + ".stol")
    pack_s, _ = sh([ENGINE, "pack", "--db", path, "--key", key, "--out", stol])
    size = os.path.getsize(stol)
    engine_times, floor_times, stages_all = [], [], []
    for _ in range(runs):
        with Engine(ENGINE, extra=["--trusted-key", pub, *extra]) as e:
            e.call("ping")
            marks = []
            e.on_notification = lambda m: marks.append((time.perf_counter(), m["params"]["value"].get("message"))) if m.get("method") == "$/progress" else None
            start = time.perf_counter()
            e.call("database/import", {"path": stol, "_meta": {"progressToken": "imp"}})
            end = time.perf_counter()
        engine_times.append(end - start)
        stages, last = {}, None
        for t, msg in marks:
            if last and last[1] != msg:
                stages[last[1]] = stages.get(last[1], 0) + t - last[0]
                last = (t, msg)
            elif not last:
                last = (t, msg)
        stages_all.append(stages)
        start = time.perf_counter()
        subprocess.run(f"tail -c +109 '{stol}' | gzip -dc | sha256sum", shell=True, check=True, stdout=subprocess.DEVNULL)
        floor_times.append(time.perf_counter() - start)
    es, fs = summary(engine_times), summary(floor_times)
    row = [f"{label}: `database/import` end to end ({mb(size)} .stol, {mb(os.path.getsize(path))} database)",
           f"{es['median']:.2f} s = {size / es['median'] / 1e6:.1f} MB/s (min {es['min']:.2f}, max {es['max']:.2f}, runs={es['n']})",
           "floor: `gzip -dc FILE | sha256sum` (payload)", f"{fs['median']:.2f} s = {size / fs['median'] / 1e6:.1f} MB/s",
           ratio(es["median"], fs["median"])]
    stages = stages_all[len(stages_all) // 2]
    note = (f"{label} stages (median run, seconds): " + ", ".join(f"{k} {v:.2f}" for k, v in stages.items() if v >= 0.005)
            + f"; packing took {pack_s:.1f} s.")
    return row, note


def section_import(smoke):
    sources = [("embedded", EMBEDDED_DB)] if smoke else [("mammals+birds", mammals_birds())]
    if ARGS.import_opentree and not smoke:
        sources.append(("Open Tree", opentree()))
    rows, notes = [], []
    work = tempfile.mkdtemp(prefix="stol-bench-import-")
    key = os.path.join(work, "key")
    _, pub = sh([ENGINE, "keygen", "--out", key])
    pub = pub.strip().split()[-1]
    for label, path in sources:
        row, note = import_row(label, path, 1 if smoke or label == "Open Tree" else 3, work, key, pub)
        rows.append(row)
        notes.append(note)
    shutil.rmtree(work, ignore_errors=True)
    if not ARGS.import_opentree and not smoke:
        notes.append("Open Tree import not run (pass --import-opentree; ~1.3 GB database).")
    return {"rows": rows, "notes": notes}


def section_memory(smoke):
    rows, notes = [], []
    with Engine(ENGINE) as e:
        e.call("ping")
        e.call("search/query", {"query": "lion"})
        time.sleep(0.3)
        idle = e.status("VmHWM")
    with Engine(argv=[ENGINE, "benchmark", "floor"]) as e:
        e.call("ping")
        floor = e.status("VmHWM")
    rows.append(["embedded database, idle after `ping` + one search: peak RSS (VmHWM)", mb(idle), "floor: `benchmark floor` (same binary, no database)", mb(floor), ratio(idle, floor)])
    if not smoke:
        ot = opentree()
        with Engine(ENGINE, ot) as e:
            stats = compare_stdio.wait_ready(e)
            e.call("search/query", {"query": "Panthera leo"})
            ids = random_ids(ot, 10, seed=2)
            e.call("compare/taxa", {"a": ids[0], "b": ids[1]}, allowed=("noCommonAncestor",))
            peak, rss = e.status("VmHWM"), e.status("VmRSS")
        cached_results = load_results().get("lineage", {})
        taxopy = cached_results.get("taxopy")
        rows.append([f"Open Tree active, LCA index ready ({stats['nodes']:,} nodes, {mb(stats['bytes'])}): peak RSS",
                     f"{mb(peak)} (now {mb(rss)})", "peer: taxopy TaxDb of the same tree",
                     mb(taxopy["rss"]) if taxopy else "run `--only lineage` first", ratio(peak, taxopy["rss"]) if taxopy else "–"])
    return {"rows": rows, "notes": notes}


def section_builddb(smoke):
    rows, notes = [], []
    work = tempfile.mkdtemp(prefix="stol-bench-build-")
    s, rss = build_db(["--taxa", os.path.join(ROOT, "dataset", "default")], os.path.join(work, "default.sqlite"))
    rows.append(["`dataset/default` (embedded)", f"{s:.1f} s, peak {mb(rss)}", "README figure", "1.0 s, 41 MB", "–"])
    if not smoke:
        for label, args_ in [("MDD alone", ["--mdd", MDD]), ("AviList alone", ["--avilist", AVILIST])]:
            s, rss = build_db(args_, os.path.join(work, "one.sqlite"))
            rows.append([label, f"{s:.1f} s, peak {mb(rss)}", "README figure", "–", "–"])
        s, rss = build_db(["--mdd", MDD, "--avilist", AVILIST], os.path.join(work, "mb.sqlite"))
        rows.append(["MDD + AviList (mammals+birds)", f"{s:.1f} s, peak {mb(rss)}", "README figure", "5.7 s, 138 MB", "–"])
        if ARGS.build_opentree and "opentree" not in BUILT:
            log("building the Open Tree database (about 5 minutes, 2.6 GB) …")
            BUILT["opentree"] = build_db(["--table", OPENTREE_TABLE], cached("opentree.sqlite"))
        if "opentree" in BUILT:
            s, rss = BUILT["opentree"]
            rows.append(["Open Tree (`--table`)", f"{s:.0f} s, peak {mb(rss)} (this run)", "README figure", "5 min 5 s, 2.6 GB", "–"])
        else:
            # Keep the last measured Open Tree build (5+ minutes) rather than drop it.
            before = load_results().get("builddb", {})
            kept = next((r for r in before.get("rows", []) if r[0].startswith("Open Tree") and "run" in r[1]), None)
            if kept:
                figure = kept[1].replace("(this run)", f"(earlier run, {before.get('date', '?')})")
                rows.append([kept[0], figure] + kept[2:])
            else:
                rows.append(["Open Tree (`--table`)", "not re-measured (cited)", "README figure", "5 min 5 s, 2.6 GB", "–"])
    shutil.rmtree(work, ignore_errors=True)
    notes.append("Peak memory is the child's ru_maxrss (wait4). There is no peer tool building the same schema; the floor "
                 "for the Open Tree build is reading the table (`gzip -dc nodes.tsv.gz`), see README stages.")
    return {"rows": rows, "notes": notes}


def scale_checklist(kind, usages, directory):
    """The checklist bench/make_checklist.py writes (`dwca`: a zip, `coldp`: a folder), made once into
    `directory` (the same seed writes the same bytes)."""
    out = os.path.join(directory, ("gbif-like-%d.zip" if kind == "dwca" else "col-like-%d") % usages)
    if not os.path.exists(out):
        log(f"writing a {usages:,}-usage {kind} checklist into {directory} …")
        partial = out + ".part"
        shutil.rmtree(partial, ignore_errors=True) if os.path.isdir(partial) else None
        sh([sys.executable, os.path.join(BENCH, "make_checklist.py"), kind, "--usages", str(usages), "--out", partial])
        os.replace(partial, out)
    return out


def build_stages(log_text):
    """build-db's own stage times from what it prints: 'reading' (stderr) and each stage of the summary
    after 'built' (stdout)."""
    stages = {}
    reading = re.search(r"^read \d+ taxa in ([\d.]+) seconds", log_text, re.M)
    if reading:
        stages["reading"] = float(reading.group(1))
    summary_text = log_text.split("\nbuilt ", 1)[-1]
    for name, seconds in re.findall(r"^  ([a-z][a-z ]*?) +([\d.]+) s$", summary_text, re.M):
        stages[name] = float(seconds)
    return stages


def scale_build(args_, out):
    """build-db into `out`: (wall s, CPU s, peak RSS bytes, taxa kept, names, database bytes, stages)."""
    wall, rss, cpu, out_text, err = build_db_measured(args_, out)
    with sqlite3.connect(f"file:{out}?immutable=1", uri=True) as db:
        taxa = db.execute("SELECT count(*) FROM taxa").fetchone()[0]
        names = db.execute("SELECT count(*) FROM names").fetchone()[0]
    return wall, cpu, rss, taxa, names, os.path.getsize(out), build_stages(err + "\n" + out_text.decode(errors="replace"))


def scale_queries(path, count=6, seed=5):
    """Search forms made from the database's own names (the generated names are syllables, so the
    usual queries would find nothing): species' scientific names, a genus's first letters, a typo in
    an epithet, English vernacular names and three-letter prefixes."""
    rng = random.Random(seed)
    with sqlite3.connect(f"file:{path}?immutable=1", uri=True) as db:
        low, high = db.execute("SELECT min(id), max(id) FROM taxa").fetchone()
        species = []
        while len(species) < count:
            row = db.execute("SELECT scientific_name FROM taxa WHERE id >= ? AND rank = 'species' ORDER BY id LIMIT 1",
                             (rng.randint(low, high),)).fetchone()
            if row and " " in row[0] and row[0] not in species:
                species.append(row[0])
        low, high = db.execute("SELECT min(id), max(id) FROM names").fetchone()
        common = []
        for _ in range(200 * count):
            row = db.execute("SELECT name FROM names WHERE id >= ? AND lang = 'en' AND name_type != 'synonym' ORDER BY id LIMIT 1",
                             (rng.randint(low, high),)).fetchone()
            if row and row[0] not in common:
                common.append(row[0])
            if len(common) == count:
                break

    def typo(name):
        genus, epithet = name.split(" ", 1)
        i = rng.randint(1, max(1, len(epithet) - 3))
        return f"{genus} {epithet[:i]}{epithet[i + 1]}{epithet[i]}{epithet[i + 2:]}"
    forms = {"exact (scientific)": species,
             "prefix (scientific)": [n.split()[0][:5].lower() for n in species],
             "fuzzy (scientific)": [typo(n) for n in species],
             "autocomplete": [n[:3].lower() for n in species]}
    if common:
        forms["exact (common name)"] = common
    return forms


def scale_builds(sizes, dwca, coldp, served, peer_label, peer_args, work, smoke):
    """The peer's build, then each checklist's, one after another: (rows, notes). The DwC-A's
    database stays at `served`."""
    rows, notes = [], []
    builds = [("GBIF-like DwC-A", sizes["dwca"], ["--dwca", dwca], served),
              ("CoL-like ColDP", sizes["coldp"], ["--coldp", coldp], os.path.join(work, "col-like.sqlite"))]
    log(f"building {peer_label} (the peer) …")
    # Open Tree's build stays in bench/.cache/ for the sections that serve it.
    peer_out = os.path.join(work, "peer.sqlite") if smoke else cached("opentree.sqlite")
    pw, pc, pr, ptaxa, _, psize, pstages = scale_build(peer_args, peer_out)
    if smoke:
        os.remove(peer_out)
    peer_figure = (f"{pw:.1f} s wall, {pc:.1f} s CPU, peak {mb(pr)}, {mb(psize)} database; "
                   f"{pw / ptaxa * 1e6:.1f} µs a taxon wall, {pc / ptaxa * 1e6:.1f} µs CPU ({ptaxa:,} taxa, one source row each)")
    notes.append(f"{peer_label} stages (seconds): " + ", ".join(f"{k} {v:.1f}" for k, v in pstages.items()))
    for label, usages, args_, out in builds:
        log(f"building the {label} ({usages:,} usages) …")
        wall, cpu, rss, taxa, names, size, stages = scale_build(args_, out)
        notes.append(f"{label} stages (seconds, as build-db reports them): " + ", ".join(f"{k} {v:.1f}" for k, v in stages.items()))
        notes.append(f"{label} database by table (MB): " + table_sizes(out))
        rows.append([f"build-db, {label}: {usages:,} name usages → {taxa:,} taxa, {names:,} names",
                     f"{wall:.1f} s wall, {cpu:.1f} s CPU, peak {mb(rss)}, {mb(size)} database; "
                     f"{wall / usages * 1e6:.1f} µs a usage wall, {cpu / usages * 1e6:.1f} µs CPU",
                     f"peer: build-db of {peer_label}, same binary, same run", peer_figure,
                     f"per source row {ratio(wall / usages, pw / ptaxa)} wall, {ratio(cpu / usages, pc / ptaxa)} CPU; peak {ratio(rss, pr)}"])
        if out != served:
            os.remove(out)
    return rows, notes


def table_sizes(path, most=8):
    """The largest tables and indexes of a database (SQLite's dbstat), as 'name size' pairs."""
    with sqlite3.connect(f"file:{path}?immutable=1", uri=True) as db:
        try:
            sizes = db.execute("SELECT name, sum(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC LIMIT ?", (most,)).fetchall()
        except sqlite3.OperationalError:  # a SQLite built without dbstat
            return "–"
    return ", ".join(f"{name} {size / 1e6:,.0f}" for name, size in sizes)


def lca_row(label, path, runs, pairs=100_000):
    """`compare/lca` of `pairs` random pairs in one request, on a warm engine whose LCA index is
    ready: pairs a second (median of `runs`), beside `ping`."""
    taxa, _ = compare_stdio.sample_ids(path, 2 * pairs, 0, seed=11)
    pair_list = [[taxa[2 * i], taxa[2 * i + 1]] for i in range(pairs)]
    times = []
    with Engine(ENGINE, path) as e:
        compare_stdio.wait_ready(e)
        e.call("compare/lca", {"pairs": pair_list[:1000]})  # warm-up
        for _ in range(runs):
            times.append(e.timed("compare/lca", {"pairs": pair_list})[0])
        ping = summary([e.timed("ping")[0] for _ in range(200)])
    t = summary(times)
    return [f"{label}: `compare/lca` of {pairs:,} random pairs in one request (median of {runs})",
            f"{pairs / t['median'] * 1000:,.0f} pairs/s ({t['median']:.0f} ms)", "floor: `ping` round trip, same engine",
            fmt_ms(ping), f"{t['median'] / pairs * 1000:.2f} µs a pair"]


def section_scale(smoke):
    """build-db on checklists the size of GBIF's backbone (8 M usages, DwC-A) and Catalogue of Life
    (5 M, ColDP), beside Open Tree's build in the same run; then the 8 M database served."""
    sizes = {"dwca": 20_000, "coldp": 10_000} if smoke else {"dwca": 8_000_000, "coldp": 5_000_000}
    directory = tempfile.mkdtemp(prefix="stol-bench-scale-") if smoke else cached("scale")
    os.makedirs(directory, exist_ok=True)
    dwca, coldp = scale_checklist("dwca", sizes["dwca"], directory), scale_checklist("coldp", sizes["coldp"], directory)
    work = tempfile.mkdtemp(prefix="stol-bench-scale-work-", dir=CACHE)
    peer_label, peer_args = (("`dataset/default`", ["--taxa", os.path.join(ROOT, "dataset", "default")]) if smoke else
                             ("Open Tree (`--table`)", ["--table", OPENTREE_TABLE]))
    served = os.path.join(directory, f"gbif-like-{sizes['dwca']}.sqlite")
    # The builds (half an hour at full size) are kept with the binary that made them, so that a
    # failure while serving does not cost them: a later run of the same binary serves what they
    # built (delete builds.json to build again).
    stamp_file = os.path.join(directory, "builds.json")
    identity = [ENGINE, os.path.getsize(ENGINE), os.path.getmtime(ENGINE)]
    try:
        kept = json.load(open(stamp_file))
    except (OSError, ValueError):
        kept = None
    if kept and kept.get("engine") == identity and os.path.exists(served) and not smoke:
        rows, notes = kept["rows"], kept["notes"] + [f"The builds above were measured at {kept['date']} by this binary; what follows in a later run."]
    else:
        rows, notes = scale_builds(sizes, dwca, coldp, served, peer_label, peer_args, work, smoke)
        if not smoke:
            json.dump({"engine": identity, "rows": rows, "notes": notes,
                       "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")}, open(stamp_file, "w"))
    label = f"GBIF-like, {sizes['dwca']:,} usages"
    rounds = 3 if smoke else 10
    first_search = scale_queries(served, 1)["exact (scientific)"][0]
    ping, search, floor = [], [], []
    data_dir = tempfile.mkdtemp(prefix="stol-bench-scale-start-", dir=work)  # one, as a user has (see startup)
    for r in range(rounds + 1):  # the first round warms the page cache and is dropped
        with Engine(ENGINE, served, data_dir=data_dir) as e:
            e.call("ping")
            t_ping = (time.perf_counter() - e.started) * 1000
        if r == 0:
            rows.append([f"{label}: spawn → first `ping` answered, first start on a new data directory (the file's content check, once)",
                         f"{t_ping / 1000:.1f} s (n=1)", "the same, later starts (below)", "–", "–"])
        with Engine(ENGINE, served, data_dir=data_dir) as e:
            e.call("search/query", {"query": first_search, "limit": 20})
            t_search = (time.perf_counter() - e.started) * 1000
        with Engine(argv=[ENGINE, "benchmark", "floor"]) as e:
            e.call("ping")
            t_floor = (time.perf_counter() - e.started) * 1000
        if r:
            ping.append(t_ping); search.append(t_search); floor.append(t_floor)
    p, q, f = summary(ping), summary(search), summary(floor)
    rows.append([f"{label}: spawn → first `ping` answered", fmt_ms(p), "floor: same binary, `benchmark floor`, spawn → `ping`", fmt_ms(f), ratio(p["median"], f["median"])])
    rows.append([f"{label}: spawn → first `search/query` answered (`{first_search}`)", fmt_ms(q), "floor: same binary, `benchmark floor`, spawn → `ping`", fmt_ms(f), ratio(q["median"], f["median"])])
    rows += search_rows(label, served, served, scale_queries(served), 20 if smoke else 200)
    rows += compare_rows(label, served, served, 30 if smoke else 300)
    rows.append(lca_row(label, served, 2 if smoke else 5))
    with Engine(ENGINE, served, data_dir=data_dir) as e:  # checked already: the peak of serving alone
        stats = compare_stdio.wait_ready(e)
        e.call("search/query", {"query": first_search})
        peak = e.status("VmHWM")
    with Engine(argv=[ENGINE, "benchmark", "floor"]) as e:
        e.call("ping")
        floor_rss = e.status("VmHWM")
    rows.append([f"{label}: peak RSS (VmHWM) once the LCA index is ready ({stats['nodes']:,} nodes, {mb(stats['bytes'])}) and after a search",
                 mb(peak), "floor: `benchmark floor` (same binary, no database)", mb(floor_rss), ratio(peak, floor_rss)])
    key = os.path.join(work, "key")
    _, pub = sh([ENGINE, "keygen", "--out", key])
    # A database over the default import limits (a 2 GiB file, 4 GiB decompressed) is imported
    # the way a user would: with --max-import-bytes raised to its size.
    limit = max(os.path.getsize(served) + (1 << 20), 4 << 30)
    row, note = import_row(label, served, 1, work, key, pub.strip().split()[-1], extra=["--max-import-bytes", str(limit)])
    rows.append(row)
    notes.append(note)
    shutil.rmtree(work, ignore_errors=True)
    if smoke:
        shutil.rmtree(directory, ignore_errors=True)
    notes.append(f"Checklists written by `bench/make_checklist.py` (seeded; kept in {'a temporary folder' if smoke else 'bench/.cache/scale/'}): "
                 "the shape of GBIF's backbone and of Catalogue of Life, described in the script. Builds one after another; "
                 "peak memory is the child's ru_maxrss, CPU its user + system time (wait4). "
                 "Search forms are made from the built database's own names; compare on random taxa of it.")
    return {"rows": rows, "notes": notes}


HEADLINES = [
    ("startup", "embedded: spawn → first `ping`"), ("startup", "Open Tree: spawn → first `ping`"),
    ("startup", "embedded: spawn → first `search/query` answered (`honey bee`)"), ("startup", "NCBI: spawn → first `search/query` answered (`honey bee`)"),
    ("startup", "Open Tree: spawn → first `taxon/detail`"), ("throughput", "pipelined"),
    ("search", "embedded: exact"), ("search", "Open Tree: exact (scientific)"), ("search", "Open Tree: prefix (scientific) (e.g."),
    ("search", "Open Tree: fuzzy (scientific)"), ("lineage", "Open Tree: 100,000"), ("lineage", "Open Tree: LCA in-process"),
    ("lineage", "Open Tree: LCA of 1,000,000"), ("lineage", "Open Tree: LCA with both paths"), ("ete3", "Open Tree: LCA in-process"), ("compare", "Open Tree: compare/taxa"), ("import", "Open Tree"),
    ("import", "mammals+birds"), ("memory", "embedded"), ("memory", "Open Tree"), ("builddb", "MDD + AviList"), ("builddb", "Open Tree"), ("builddb", "NCBI (`--ncbi`"),
    ("scale", "build-db, GBIF-like"), ("scale", "build-db, CoL-like"),
]

TITLES = {
    "startup": "1. Start-up", "throughput": "2. Protocol throughput", "client": "2b. Swift client (STOLClient)", "search": "3. Search latency",
    "searchquality": "3b. Search quality", "relevance": "3c. Search relevance", "lineage": "4. Lineage and LCA", "ete3": "4b. Lineage and LCA next to ete3", "compare": "5. compare/taxa and compare/relatives", "import": "6. Import",
    "memory": "7. Memory", "builddb": "8. build-db", "scale": "9. Scale: checklists the size of GBIF and Catalogue of Life",
}


# ---------------------------------------------------------------- report

def machine():
    cpu = open("/proc/cpuinfo").read()
    model = re.search(r"model name\s*:\s*(.*)", cpu)
    cores = len(re.findall(r"^processor\s*:", cpu, re.M))
    mem = re.search(r"MemTotal:\s*(\d+)", open("/proc/meminfo").read())
    return (f"{model.group(1) if model else platform.processor()}, {cores} logical CPUs, "
            f"{int(mem.group(1)) / 1024 / 1024:.1f} GiB RAM, {platform.system()} {platform.release()}, "
            f"sqlite3 CLI {subprocess.run(['sqlite3', '--version'], capture_output=True, text=True).stdout.split()[0]}")


def load_results():
    """The stored figures of every section; a section missing from results.json (a fresh cache) is
    read back from BENCHMARKS.md, so that `--only` never drops the sections it did not run."""
    try:
        results = json.load(open(cached("results.json")))
    except (OSError, ValueError):
        results = {}
    for name, section in sections_from_markdown(os.path.join(ROOT, "BENCHMARKS.md")).items():
        results.setdefault(name, section)
    return results


def sections_from_markdown(path):
    """Parses the sections `write_markdown` wrote back into result records."""
    try:
        text = open(path).read()
    except OSError:
        return {}
    by_title = {title: name for name, title in TITLES.items()}
    found = {}
    for block in re.split(r"^## ", text, flags=re.M)[1:]:
        lines = block.split("\n")
        name = by_title.get(lines[0].strip())
        measured = re.search(r"^Measured (.*?) on (.*)\.$", block, re.M)
        command = re.search(r"^Command: `(.*)`$", block, re.M)
        if not (name and measured and command):
            continue
        rows = [[c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
                for line in lines if line.startswith("| ") and not line.startswith("| what |")]
        notes = [line[2:] for line in lines if line.startswith("- ")]
        found[name] = {"rows": [r for r in rows if len(r) == 5], "notes": notes,
                       "date": measured.group(1), "machine": measured.group(2), "command": command.group(1)}
    return found


def print_table(results):
    for name in SECTIONS:
        if name not in results:
            continue
        print(f"\n== {TITLES[name]}")
        for row in results[name]["rows"]:
            print(f"  {row[0]}\n      engine: {row[1]}\n      {row[2]}: {row[3]}\n      ratio: {row[4]}")


def write_markdown(results, path):
    analysis = open(os.path.join(BENCH, "ANALYSIS.md")).read() if os.path.exists(os.path.join(BENCH, "ANALYSIS.md")) else ""
    out = ["# Benchmarks", "",
           "Generated by `python3 bench/run.py` (one section: `--only NAME`); do not edit the tables by hand. "
           "Every figure sits next to its peer or floor, measured in the same run on the same machine and data. "
           "Latencies are medians with p99 and min–max; rates are medians over runs with min–max.", "",
           "Engine: the release build (`swift build -c release --product stol-engine --scratch-path .build-rel`). "
           "Databases: embedded (`Sources/STOLEngine/Resources/default.sqlite`, 3,535 taxa); mammals+birds "
           "(`build-db --mdd … --avilist …`, 22,162 taxa); Open Tree (`build-db --table ../shared/data/opentree/nodes.tsv.gz`, "
           "2,388,400 taxa, 1.3 GB). Peers: sqlite3 CLI, taxopy 0.14.0 and ete3 3.1.3 (bench/.venv), gzip/sha256sum. "
           "How to run: bench/README.md. Species-page completeness (descriptions, pictures, traits by language, names merged "
           "from other sources) is in [PAGES.md](PAGES.md), generated by `bench/page_completeness.py`.", "",
           "**The machine is a shared 2-core VM.** The figures below were taken with nothing else running on it, but its speed "
           "still varied by up to 1.8× between runs of the same command (see the analysis at the end); read the ratios "
           "(engine and peer measured side by side), not absolute figures from different sections.", ""]
    missing = [n for n in SECTIONS if n not in results]
    short = lambda text: re.split(r" \((?:p99|min)", str(text))[0]
    heads = []
    for name, prefix in HEADLINES:
        rows = results.get(name, {}).get("rows", [])
        row = next((r for r in rows if r[0] == prefix), None) or next((r for r in rows if r[0].startswith(prefix)), None)
        if row:
            peer = re.sub(r" \([^)]*\)", "", row[2])
            cells = [row[0], short(row[1]), f"{peer}: {short(row[3])}", row[4]]
            heads.append("| " + " | ".join(str(c).replace("|", "\\|") for c in cells) + " |")
    if heads:
        out += ["## Headlines", "", "Medians; spreads, commands and every other figure are in the sections below.", "",
                "| what | engine | peer / floor | ratio |", "|---|---|---|---|"] + heads + [""]
    for name in SECTIONS:
        if name not in results:
            continue
        r = results[name]
        out += [f"## {TITLES[name]}", "", f"Measured {r['date']} on {r['machine']}.", "",
                f"Command: `{r['command']}`", "",
                "| what | engine | peer / floor | peer / floor figure | ratio |", "|---|---|---|---|---|"]
        out += ["| " + " | ".join(str(c).replace("|", "\\|") for c in row) + " |" for row in r["rows"]]
        out += [""] + [f"- {n}" for n in r.get("notes", [])] + [""]
    todo = [f"{TITLES[n]} (`python3 bench/run.py --only {n}`)" for n in missing]
    if "import" in results and not any(r[0].startswith("Open Tree") for r in results["import"]["rows"]):
        todo.append("Import of the packed Open Tree database (`python3 bench/run.py --only import --import-opentree`); only mammals+birds was imported.")
    if "builddb" in results and not any("this run" in r[1] for r in results["builddb"]["rows"]):
        todo.append("build-db of Open Tree re-measured (the README figure is cited; `python3 bench/run.py --only builddb --build-opentree` re-measures it).")
    todo += ["`search/autocomplete` next to a floor (only in `bench/search_latency.py`, without a floor)."] if "autocomplete" not in str(results.get("search", "")) else []
    if todo:
        out += ["## Not measured yet", ""] + [f"- {t}" for t in todo] + [""]
    if analysis:
        out += [analysis.strip(), ""]
    open(path, "w").write("\n".join(out))


def main():
    global ARGS, ENGINE
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", default=default_engine())
    ap.add_argument("--smoke", action="store_true", help="tiny sizes, embedded database only, no venv (CI)")
    ap.add_argument("--only", action="append", choices=SECTIONS, help="run only this section (repeatable)")
    ap.add_argument("--import-opentree", action="store_true", help="also pack and import the Open Tree database")
    ap.add_argument("--build-opentree", action="store_true", help="builddb: also (re)build Open Tree into bench/.cache/ and time it (~5 min)")
    ap.add_argument("--skip-opentree", action="store_true", help="search: leave out Open Tree (built once into bench/.cache/, about 5 min)")
    ap.add_argument("--skip-ncbi", action="store_true", help="search: leave out NCBI Taxonomy (built once into bench/.cache/, 5–7 min)")
    ap.add_argument("--report-only", action="store_true", help="run nothing: rewrite BENCHMARKS.md from the stored figures")
    ap.add_argument("--out", help="markdown file to write (default BENCHMARKS.md; with --smoke nothing unless given)")
    ARGS = ap.parse_args()
    ENGINE = os.path.abspath(ARGS.engine)
    if not os.path.exists(ENGINE):
        sys.exit(f"no engine at {ENGINE}: swift build -c release --product stol-engine --scratch-path .build-rel")
    os.makedirs(CACHE, exist_ok=True)
    results = {} if ARGS.smoke else load_results()
    facts = machine()
    started = time.perf_counter()
    everything = SECTIONS if ARGS.smoke else [n for n in SECTIONS if n not in ON_REQUEST]
    for name in [] if ARGS.report_only else ARGS.only or everything:
        log(f"[{time.perf_counter() - started:6.1f} s] {name} …")
        try:
            r = globals()[f"section_{name}"](ARGS.smoke)
        except Exception:
            if ARGS.smoke:
                raise
            import traceback
            log(f"section {name} failed:\n{traceback.format_exc()}")
            continue
        r.update(date=datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"), machine=facts,
                 command="python3 bench/run.py" + (" --smoke" if ARGS.smoke else "") + ("" if not ARGS.only else f" --only {name}")
                 + (" --import-opentree" if name == "import" and ARGS.import_opentree else "")
                 + (" --build-opentree" if name == "builddb" and ARGS.build_opentree else ""))
        results[name] = r
        if not ARGS.smoke:
            json.dump(results, open(cached("results.json") + ".tmp", "w"), indent=1)
            os.replace(cached("results.json") + ".tmp", cached("results.json"))
    print_table(results)
    out = ARGS.out or (None if ARGS.smoke else os.path.join(ROOT, "BENCHMARKS.md"))
    if out:
        write_markdown(results, out)
        log(f"wrote {out}")
    log(f"done in {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
