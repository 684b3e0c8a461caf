#!/usr/bin/env python3
"""Search latency over stdio: p50/p99 per query form, one request in flight at a time.

    python3 bench/search_latency.py [--engine PATH] [--database FILE] [--rounds N]

Spawns the engine (on its embedded database unless --database is given), warms it up, then sends
each query form N times round-robin and prints the median and 99th percentile round-trip times.
`bench/run.py --only search` runs the same measurement next to the sqlite3 FTS5 floor.
"""
import argparse, json, os, statistics, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from engine_client import Engine, default_engine, summary  # noqa: E402

FORMS = {
    "exact": ["lion", "Panthera leo", "house sparrow", "Homo sapiens", "Escherichia coli", "wolf"],
    "prefix": ["panth", "eleph", "sparr", "quer", "canis", "homo"],
    "multi-word": ["leo lion", "red fox", "blue whale", "great white shark", "honey bee", "snow leopard"],
    "phrase": ['"tree frog"', '"sea lion"', '"white shark"', '"red fox"', '"honey bee"', '"barn owl"'],
    "plural": ["lions", "wolves", "tigers", "house mice", "red foxes", "polar bears"],
    "fuzzy": ["Pnathera leo", "lyon", "elefant", "girafe", "chimpanze", "platipus"],
    "autocomplete": ["pa", "sno", "lio", "quer", "ele", "hou"],
}


def request(engine, form, q):
    if form == "autocomplete":
        return engine.timed("search/autocomplete", {"prefix": q, "limit": 10})
    return engine.timed("search/query", {"query": q, "limit": 20})


def measure(engine, forms=FORMS, rounds=200):
    """{form: summary of round-trip ms, plus 'results': median result count}; warms up first."""
    for form, queries in forms.items():
        for q in queries:
            request(engine, form, q)
    out = {}
    for form, queries in forms.items():
        times, counts = [], []
        for i in range(rounds):
            ms, result = request(engine, form, queries[i % len(queries)])
            times.append(ms)
            counts.append(len(result.get("results", result.get("suggestions", []))))
        out[form] = dict(summary(times), results=statistics.median(counts))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", default=default_engine())
    ap.add_argument("--database")
    ap.add_argument("--rounds", type=int, default=200)
    ap.add_argument("--queries", help="JSON file mapping form -> list of queries (overrides the built-in ones)")
    args = ap.parse_args()
    forms = json.load(open(args.queries)) if args.queries else FORMS
    with Engine(args.engine, args.database) as engine:
        info = engine.call("database/info", {})
        results = measure(engine, forms, args.rounds)
    print(f"database: {info['dataset'].get('name')} ({info['taxaCount']:,} taxa); {args.rounds} requests per form, one at a time")
    print(f"{'form':<14}{'p50 ms':>10}{'p99 ms':>10}{'results':>10}")
    for form, s in results.items():
        print(f"{form:<14}{s['median']:>10.3f}{s['p99']:>10.3f}{s['results']:>10.0f}")


if __name__ == "__main__":
    main()
