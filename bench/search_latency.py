#!/usr/bin/env python3
"""Search latency over stdio: p50/p99 per query form, one request in flight at a time.

    python3 bench/search_latency.py [--engine PATH] [--database FILE] [--rounds N]

Spawns the engine (on its embedded database unless --database is given), warms it up, then sends
each query form N times round-robin and prints the median and 99th percentile round-trip times.
"""
import argparse, json, os, statistics, subprocess, sys, tempfile, time

FORMS = {
    "exact": ["lion", "Panthera leo", "house sparrow", "Homo sapiens", "Escherichia coli", "wolf"],
    "prefix": ["panth", "eleph", "sparr", "quer", "canis", "homo"],
    "multi-word": ["leo lion", "red fox", "blue whale", "great white shark", "honey bee", "snow leopard"],
    "phrase": ['"tree frog"', '"sea lion"', '"white shark"', '"red fox"', '"honey bee"', '"barn owl"'],
    "fuzzy": ["Pnathera leo", "lyon", "elefant", "girafe", "chimpanze", "platipus"],
    "autocomplete": ["pa", "sno", "lio", "quer", "ele", "hou"],
}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", default=os.path.join(os.path.dirname(__file__), "..", ".build", "release", "stol-engine"))
    ap.add_argument("--database")
    ap.add_argument("--rounds", type=int, default=200)
    ap.add_argument("--queries", help="JSON file mapping form -> list of queries (overrides the built-in ones)")
    args = ap.parse_args()
    forms = json.load(open(args.queries)) if args.queries else FORMS
    cmd = [args.engine, "--log-level", "error", "--data-dir", tempfile.mkdtemp(prefix="stol-bench-")]
    if args.database:
        cmd += ["--database", args.database]
    engine = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    next_id = 0

    def call(method, params):
        nonlocal next_id
        next_id += 1
        engine.stdin.write(json.dumps({"jsonrpc": "2.0", "id": next_id, "method": method, "params": params}) + "\n")
        engine.stdin.flush()
        response = json.loads(engine.stdout.readline())
        if "error" in response:
            sys.exit(f"{method} {params}: {response['error']}")
        return response["result"]

    def request(form, q):
        if form == "autocomplete":
            return call("search/autocomplete", {"prefix": q, "limit": 10})
        return call("search/query", {"query": q, "limit": 20})

    info = call("database/info", {})
    for form, queries in forms.items():  # warm-up
        for q in queries:
            request(form, q)
    print(f"database: {info['dataset'].get('name')} ({info['taxaCount']:,} taxa); {args.rounds} requests per form, one at a time")
    print(f"{'form':<14}{'p50 ms':>10}{'p99 ms':>10}{'results':>10}")
    for form, queries in forms.items():
        times, counts = [], []
        for i in range(args.rounds):
            q = queries[i % len(queries)]
            start = time.perf_counter()
            result = request(form, q)
            times.append((time.perf_counter() - start) * 1000)
            counts.append(len(result.get("results", result.get("suggestions", []))))
        times.sort()
        p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
        print(f"{form:<14}{statistics.median(times):>10.3f}{p99:>10.3f}{statistics.median(counts):>10.0f}")
    engine.stdin.close()
    engine.wait(timeout=10)


if __name__ == "__main__":
    main()
