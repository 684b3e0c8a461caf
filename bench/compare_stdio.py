#!/usr/bin/env python3
"""compare/taxa and compare/relatives latency over stdio: p50/p99, one request in flight at a time.

    python3 bench/compare_stdio.py [--engine PATH] [--database FILE] [--rounds N]

Spawns the engine (on its embedded database unless --database is given) and picks random taxa and
species from the database file. Requests sent while the in-memory tree is still building are
answered from SQL and reported on their own line; then it waits for the tree and measures each
method N times.
"""
import argparse, json, os, random, sqlite3, statistics, subprocess, sys, tempfile, time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", default=os.path.join(ROOT, ".build", "release", "stol-engine"))
    ap.add_argument("--database")
    ap.add_argument("--rounds", type=int, default=500)
    ap.add_argument("--n", type=int, default=10, help="relatives per request")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)

    path = args.database or os.path.join(ROOT, "Sources", "STOLEngine", "Resources", "default.sqlite")
    db = sqlite3.connect(f"file:{path}?immutable=1", uri=True)
    taxa = [r[0] for r in db.execute("SELECT id FROM taxa ORDER BY random() LIMIT ?", (4 * args.rounds,))]
    species = [r[0] for r in db.execute("SELECT id FROM taxa WHERE rank = 'species' ORDER BY random() LIMIT ?", (2 * args.rounds,))]
    db.close()

    cmd = [args.engine, "--log-level", "error", "--data-dir", tempfile.mkdtemp(prefix="stol-bench-")]
    if args.database:
        cmd += ["--database", args.database]
    started = time.perf_counter()
    engine = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    next_id = 0

    def call(method, params, allowed=()):
        nonlocal next_id
        next_id += 1
        engine.stdin.write(json.dumps({"jsonrpc": "2.0", "id": next_id, "method": method, "params": params}) + "\n")
        engine.stdin.flush()
        response = json.loads(engine.stdout.readline())
        if "error" in response:
            if response["error"].get("data", {}).get("kind") in allowed:
                return None
            sys.exit(f"{method} {params}: {response['error']}")
        return response["result"]

    def timed(method, params):
        start = time.perf_counter()
        call(method, params, allowed=("noCommonAncestor",))
        return (time.perf_counter() - start) * 1000

    def pair():
        return {"a": rng.choice(taxa), "b": rng.choice(taxa)}

    def report(label, times):
        if not times:
            return
        times = sorted(times)
        p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
        print(f"{label:<34}{len(times):>8}{statistics.median(times):>10.3f}{p99:>10.3f}")

    info = call("database/info", {})
    print(f"database: {info['dataset'].get('name')} ({info['taxaCount']:,} taxa); one request at a time")
    print(f"{'method':<34}{'count':>8}{'p50 ms':>10}{'p99 ms':>10}")
    # While the tree builds, answers come from SQL.
    building = []
    while call("compare/stats", {})["state"] == "building" and len(building) < args.rounds:
        building.append(timed("compare/taxa", pair()))
    report("compare/taxa (SQL, while building)", building)
    while (stats := call("compare/stats", {}))["state"] == "building":
        time.sleep(0.01)
    ready_after = time.perf_counter() - started
    for _ in range(20):  # warm-up
        timed("compare/taxa", pair())
    report("compare/taxa", [timed("compare/taxa", pair()) for _ in range(args.rounds)])
    if species:
        for source in ("precomputed", "computed"):
            params = lambda: {"id": rng.choice(species), "n": args.n, "source": source}
            report(f"compare/relatives {source} n={args.n}", [timed("compare/relatives", params()) for _ in range(args.rounds)])
    else:
        print("(no species in this database: compare/relatives skipped)")
    mb = stats["bytes"] / 1e6
    print(f"tree: {stats['state']}, {stats['nodes']:,} nodes, {mb:.1f} MB, built in {stats.get('buildSeconds', 0):.3f} s "
          f"from {stats.get('source', '-')}; ready {ready_after:.2f} s after spawn")
    engine.stdin.close()
    engine.wait(timeout=30)


if __name__ == "__main__":
    main()
