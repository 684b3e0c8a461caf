#!/usr/bin/env python3
"""Two builds of the engine side by side, alternating in one run: did a change slow the protocol?

    python3 bench/compare_builds.py --before OLD/stol-engine --after NEW/stol-engine [--rounds 5]

Measures, for each binary in turn (before, after, before, after, …):
- pipelined `taxon/get` throughput on the embedded database (50,000 requests over 1,000 ids);
- search round trips on the embedded database, every form of bench/search_latency.py
  (200 queries per form, one in flight, once the LCA index is ready);
- the engine's own CPU time (user + system, from /proc) per search request over those round
  trips: less sensitive than wall time to how the two cores are shared at the moment.

Prints a markdown table: the median over rounds for each binary and after ÷ before. A ratio near
1.00 within the spread of the rounds means no change. Build the old binary from its commit in a
worktree (`swift build -c release --product stol-engine --scratch-path .build-rel`).
"""
import argparse, os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from engine_client import EMBEDDED_DB, Engine, summary  # noqa: E402
import compare_stdio  # noqa: E402
import search_latency  # noqa: E402
import run as bench  # noqa: E402


def cpu_seconds(pid):
    """User + system CPU seconds of process `pid` so far (Linux /proc)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def search(engine, rounds):
    """({form: median ms} for every search form of search_latency.FORMS, engine CPU ms a request)."""
    with Engine(engine) as e:
        compare_stdio.wait_ready(e)
        cpu = cpu_seconds(e.pid)
        medians = {form: s["median"] for form, s in search_latency.measure(e, search_latency.FORMS, rounds).items()}
        requests = sum(len(q) for q in search_latency.FORMS.values()) + rounds * len(search_latency.FORMS)
        return medians, (cpu_seconds(e.pid) - cpu) * 1000 / requests


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--before", required=True)
    ap.add_argument("--after", required=True)
    ap.add_argument("--rounds", type=int, default=5, help="alternations of the two binaries")
    ap.add_argument("--requests", type=int, default=50000)
    ap.add_argument("--search-rounds", type=int, default=200)
    args = ap.parse_args()
    binaries = {"before": os.path.abspath(args.before), "after": os.path.abspath(args.after)}
    lines = bench.taxon_get_lines(bench.random_ids(EMBEDDED_DB, 1000), args.requests)
    rates = {name: [] for name in binaries}
    searches = {name: {} for name in binaries}
    cpu = {name: [] for name in binaries}
    for r in range(args.rounds):
        for name, path in binaries.items():
            rates[name].append(bench.pipelined_rate(Engine(path), lines))
            medians, cpu_ms = search(path, args.search_rounds)
            cpu[name].append(cpu_ms)
            for form, ms in medians.items():
                searches[name].setdefault(form, []).append(ms)
        print(f"round {r + 1}: " + ", ".join(f"{n} {rates[n][-1]:,.0f} req/s" for n in binaries), file=sys.stderr, flush=True)
    print("| what | before | after | after ÷ before |")
    print("|---|---|---|---|")
    b, a = summary(rates["before"]), summary(rates["after"])
    print(f"| pipelined `taxon/get`, embedded, {args.requests:,} requests (median of {args.rounds} rounds; min–max) "
          f"| {b['median']:,.0f} req/s ({b['min']:,.0f}–{b['max']:,.0f}) | {a['median']:,.0f} req/s ({a['min']:,.0f}–{a['max']:,.0f}) "
          f"| {a['median'] / b['median']:.2f} |")
    for form in searches["before"]:
        b, a = summary(searches["before"][form]), summary(searches["after"][form])
        print(f"| search `{form}`, embedded: p50 of {args.search_rounds} round trips (median of {args.rounds} rounds; min–max) "
              f"| {b['median']:.3f} ms ({b['min']:.3f}–{b['max']:.3f}) | {a['median']:.3f} ms ({a['min']:.3f}–{a['max']:.3f}) "
              f"| {a['median'] / b['median']:.2f} |")
    b, a = summary(cpu["before"]), summary(cpu["after"])
    print(f"| engine CPU (user + system) per search request, all forms (median of {args.rounds} rounds; min–max) "
          f"| {b['median']:.3f} ms ({b['min']:.3f}–{b['max']:.3f}) | {a['median']:.3f} ms ({a['min']:.3f}–{a['max']:.3f}) "
          f"| {a['median'] / b['median']:.2f} |")


if __name__ == "__main__":
    main()
