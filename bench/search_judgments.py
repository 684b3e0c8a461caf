#!/usr/bin/env python3
"""Search relevance on judgment sets: each query names the taxon or group a person means.

    python3 bench/search_judgments.py bench/judgments/embedded.tsv
    python3 bench/search_judgments.py bench/judgments/ncbi.tsv --database /tmp/ncbi.sqlite
    python3 bench/search_judgments.py bench/judgments/embedded.tsv --show-misses
    bench/.venv/bin/python bench/search_judgments.py bench/judgments/ncbi.tsv --database ncbi.sqlite --rapidfuzz

A judgment set is a TSV file (header `lang query expected kind source`): `expected` holds one
or more scientific names separated by `|`, any of which is a right answer (every taxon of the
database with one of those names counts); a name written `>Quercus` stands for that taxon and
every taxon below it, for a group the database gives no common name (`oak`: any oak). For each query the engine is asked `search/query`
with the judgment's `lang` and `limit` 10, and the rank of the first right answer is noted:
top-1 and top-3 are the shares of queries with one at rank 1 or within the first 3, MRR the
mean of 1/rank (0 when none is in the first 10). A query none of whose expected taxa the
database holds is *pending* (counted apart, not scored): the set may name organisms a later
dataset adds. With `--rapidfuzz` (bench/.venv), the same judgments are also scored for
rapidfuzz's `process.extract(…, scorer=WRatio)` over every name of the database (each taxon at
its best name's place, as the engine ranks taxa), which knows no language. Prints one JSON
object: overall, per language and per kind, and the peer's.
"""
import argparse, collections, csv, json, os, sqlite3, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from engine_client import EMBEDDED_DB, Engine, default_engine  # noqa: E402

LIMIT = 10


def load(path):
    with open(path, encoding="utf-8") as f:
        return [row for row in csv.DictReader(f, delimiter="\t")]


def resolve(database, judgments):
    names = {n for j in judgments for n in j["expected"].split("|")}
    ids = collections.defaultdict(set)
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
        for name in names:
            if name.startswith(">"):
                sql = """WITH RECURSIVE below(id) AS (SELECT id FROM taxa WHERE scientific_name = ?
                         UNION SELECT t.id FROM taxa t JOIN below ON t.parent_id = below.id) SELECT id FROM below"""
                rows = db.execute(sql, (name[1:],))
            else:
                rows = db.execute("SELECT id FROM taxa WHERE scientific_name = ?", (name,))
            for (taxon,) in rows:
                ids[name].add(taxon)
    return ids


def summary(ranks):
    n = len(ranks)
    if n == 0:
        return {"n": 0}
    return {
        "n": n,
        "top1": round(sum(r == 1 for r in ranks) / n, 3),
        "top3": round(sum(0 < r <= 3 for r in ranks) / n, 3),
        "mrr": round(sum(1 / r for r in ranks if r) / n, 3),
        "empty": None,
    }


def run(engine_path, database, judgments, show_misses=False):
    ids = resolve(database or EMBEDDED_DB, judgments)
    ranks, by_lang, by_kind = [], collections.defaultdict(list), collections.defaultdict(list)
    pending, empty = [], 0
    with Engine(engine_path, database) as engine:
        for j in judgments:
            right = set().union(*(ids.get(n, set()) for n in j["expected"].split("|")))
            if not right:
                pending.append(j["query"])
                continue
            result = engine.call("search/query", {"query": j["query"], "lang": j["lang"], "limit": LIMIT})
            found = [r["id"] for r in result["results"]]
            empty += not found
            rank = next((i + 1 for i, taxon in enumerate(found) if taxon in right), 0)
            ranks.append(rank)
            by_lang[j["lang"]].append(rank)
            by_kind[j["kind"]].append(rank)
            if show_misses and rank != 1:
                top = ", ".join(f"{r['scientificName']} ({r['matchedName']}, {r['matchTier']})" for r in result["results"][:3])
                print(f"{j['lang']} {j['kind']:12} {j['query']!r} → {j['expected']} at {rank or '-'}: {top}", file=sys.stderr)
    overall = summary(ranks)
    overall["empty"] = empty
    return {
        "overall": overall,
        "pending": len(pending),
        "by_lang": {k: summary(v) for k, v in sorted(by_lang.items())},
        "by_kind": {k: summary(v) for k, v in sorted(by_kind.items())},
    }


def run_rapidfuzz(database, judgments):
    from rapidfuzz import fuzz, process
    ids = resolve(database or EMBEDDED_DB, judgments)
    with sqlite3.connect(f"file:{database or EMBEDDED_DB}?mode=ro", uri=True) as db:
        names = db.execute("SELECT taxon_id, name FROM search_names").fetchall()
    choices, owners = [n for _, n in names], [t for t, _ in names]
    ranks, by_lang = [], collections.defaultdict(list)
    for j in judgments:
        right = set().union(*(ids.get(n, set()) for n in j["expected"].split("|")))
        if not right:
            continue
        ranked = []
        for _, _, index in process.extract(j["query"], choices, scorer=fuzz.WRatio, limit=60):
            if owners[index] not in ranked:
                ranked.append(owners[index])
        rank = next((i + 1 for i, taxon in enumerate(ranked[:LIMIT]) if taxon in right), 0)
        ranks.append(rank)
        by_lang[j["lang"]].append(rank)
    return {"overall": summary(ranks), "by_lang": {k: summary(v) for k, v in sorted(by_lang.items())}}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("judgments")
    ap.add_argument("--engine", default=default_engine())
    ap.add_argument("--database", help="the database to search (default: the embedded one)")
    ap.add_argument("--show-misses", action="store_true", help="print queries whose right answer is not first to stderr")
    ap.add_argument("--rapidfuzz", action="store_true", help="also score rapidfuzz WRatio over every name (bench/.venv)")
    args = ap.parse_args()
    judgments = load(args.judgments)
    out = run(args.engine, args.database, judgments, args.show_misses)
    if args.rapidfuzz:
        out["rapidfuzz"] = run_rapidfuzz(args.database, judgments)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
