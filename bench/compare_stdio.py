#!/usr/bin/env python3
"""compare/taxa and compare/relatives latency over stdio: p50/p99, one request in flight at a time.

    python3 bench/compare_stdio.py [--engine PATH] [--database FILE] [--rounds N]

Spawns the engine (on its embedded database unless --database is given) and picks random taxa and
species from the database file. Requests sent while the in-memory tree is still building are
answered from SQL and reported on their own line; then it waits for the tree and measures each
method N times.
"""
import argparse, os, random, sqlite3, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from engine_client import EMBEDDED_DB, Engine, default_engine, summary  # noqa: E402


def sample_ids(path, taxa_count, species_count, seed=1):
    """Random taxon ids and species ids from a database file."""
    db = sqlite3.connect(f"file:{path}?immutable=1", uri=True)
    rng = random.Random(seed)

    def pick(count, where=""):
        if not count:
            return []
        ids = [r[0] for r in db.execute(f"SELECT id FROM taxa {where}")]
        return [rng.choice(ids) for _ in range(count)] if ids else []
    taxa = pick(taxa_count)
    species = pick(species_count, "WHERE rank = 'species'")
    db.close()
    return taxa, species


def wait_ready(engine):
    """Polls compare/stats until the tree is no longer building; returns the stats."""
    while (stats := engine.call("compare/stats", {}))["state"] == "building":
        time.sleep(0.01)
    return stats


def measure(engine, taxa, species, rounds=500, n=10, seed=1):
    """{label: summary ms}, 'while building' included when requests were answered from SQL."""
    rng = random.Random(seed)
    allowed = ("noCommonAncestor",)

    def pair():
        return {"a": rng.choice(taxa), "b": rng.choice(taxa)}
    out = {}
    building = []
    while engine.call("compare/stats", {})["state"] == "building" and len(building) < rounds:
        building.append(engine.timed("compare/taxa", pair(), allowed)[0])
    if building:
        out["compare/taxa (SQL, while building)"] = summary(building)
    stats = wait_ready(engine)
    for _ in range(20):
        engine.timed("compare/taxa", pair(), allowed)
    out["compare/taxa"] = summary([engine.timed("compare/taxa", pair(), allowed)[0] for _ in range(rounds)])
    if species:
        for source in ("precomputed", "computed"):
            params = lambda: {"id": rng.choice(species), "n": n, "source": source}
            out[f"compare/relatives {source} n={n}"] = summary(
                [engine.timed("compare/relatives", params())[0] for _ in range(rounds)])
    return out, stats


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", default=default_engine())
    ap.add_argument("--database")
    ap.add_argument("--rounds", type=int, default=500)
    ap.add_argument("--n", type=int, default=10, help="relatives per request")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    taxa, species = sample_ids(args.database or EMBEDDED_DB, 4 * args.rounds, 2 * args.rounds, args.seed)
    with Engine(args.engine, args.database) as engine:
        info = engine.call("database/info", {})
        results, stats = measure(engine, taxa, species, args.rounds, args.n, args.seed)
        ready_after = time.perf_counter() - engine.started
    print(f"database: {info['dataset'].get('name')} ({info['taxaCount']:,} taxa); one request at a time")
    print(f"{'method':<34}{'count':>8}{'p50 ms':>10}{'p99 ms':>10}")
    for label, s in results.items():
        print(f"{label:<34}{s['n']:>8}{s['median']:>10.3f}{s['p99']:>10.3f}")
    if not species:
        print("(no species in this database: compare/relatives skipped)")
    print(f"tree: {stats['state']}, {stats['nodes']:,} nodes, {stats['bytes'] / 1e6:.1f} MB, built in {stats.get('buildSeconds', 0):.3f} s "
          f"from {stats.get('source', '-')}; ready {ready_after:.2f} s after spawn")


if __name__ == "__main__":
    main()
