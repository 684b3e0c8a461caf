"""How fast engines sharing a data directory notice each other's changes (issue 21).

Starts N engines on one data directory. In each round one engine makes a change, and the script
times, for every other engine, the delay from that change's answer to the unsolicited
notification the other engine sends its own client (no request is sent to it meanwhile):

- favourites: `favorites/add` in one engine -> `favorites/didChange` in the others;
- diagnostics: `diagnostics/setEnabled` -> `diagnostics/didChange`;
- switches: `database/deactivateReference`, `database/activateReference`, a delete, and a
  re-import of a signed copy of the embedded database -> `database/didSwitch`.

Standard library only. Prints median, 95th percentile and maximum per kind, in milliseconds.

    python3 bench/shared_data_dir.py [--engine .build/debug/stol-engine] [--engines 3] [--rounds 20]
"""
import argparse, json, os, queue, shutil, statistics, subprocess, tempfile, threading, time

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
EMBEDDED_DB = os.path.join(ROOT, "Sources", "STOLEngine", "Resources", "default.sqlite")


class Engine:
    """One engine; a thread timestamps every line it writes."""

    def __init__(self, binary, data_dir, extra):
        self.proc = subprocess.Popen([binary, "--log-level", "error", "--data-dir", data_dir] + extra,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.lines = queue.Queue()
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put((time.perf_counter(), json.loads(line)))

    def call(self, method, params=None, timeout=120):
        self.next_id += 1
        request = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        if params is not None:
            request["params"] = params
        self.proc.stdin.write((json.dumps(request) + "\n").encode())
        self.proc.stdin.flush()
        _, message = self.wait(lambda m: m.get("id") == self.next_id, timeout)
        if "error" in message:
            raise RuntimeError(f"{method}: {message['error']}")
        return message["result"]

    def wait(self, matches, timeout=20):
        """The first message matching `matches` (earlier ones are dropped) and when it came."""
        deadline = time.perf_counter() + timeout
        while True:
            left = deadline - time.perf_counter()
            if left <= 0:
                raise TimeoutError("no matching message")
            try:
                at, message = self.lines.get(timeout=left)
            except queue.Empty:
                continue
            if matches(message):
                return at, message

    def drain(self):
        while not self.lines.empty():
            self.lines.get_nowait()

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=20)


def signed_copy(binary, work):
    """The embedded database packed with a fresh test key; returns (file, public key)."""
    key = os.path.join(work, "bench.key")
    public = subprocess.run([binary, "keygen", "--out", key], check=True, capture_output=True, text=True).stdout.strip()
    stol = os.path.join(work, "embedded.stol")
    subprocess.run([binary, "pack", "--db", EMBEDDED_DB, "--key", key, "--out", stol], check=True, capture_output=True)
    return stol, public


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--engine", default=os.path.join(ROOT, ".build", "debug", "stol-engine"))
    parser.add_argument("--engines", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="stol-shared-bench-")
    data = os.path.join(work, "data")
    stol, public = signed_copy(args.engine, work)
    engines = [Engine(args.engine, data, ["--trusted-key", public]) for _ in range(args.engines)]
    delays = {}

    def changed(kind, actor, change, matches):
        for engine in engines:
            engine.drain()
        result = change()
        done = time.perf_counter()
        for engine in engines:
            if engine is not actor:
                at, _ = engine.wait(matches)
                delays.setdefault(kind, []).append((at - done) * 1000)
        return result

    def switched(source):
        return lambda m: m.get("method") == "database/didSwitch" and m["params"]["source"] == source

    try:
        for engine in engines:
            engine.call("favorites/count")  # opens the favourites file, which is then watched
        for r in range(args.rounds):
            actor = engines[r % len(engines)]
            changed("favorites", actor, lambda: actor.call("favorites/add", {"taxonId": 1000 + r}),
                    lambda m: m.get("method") == "favorites/didChange")
            enabled = r % 2 == 0
            changed("diagnostics", actor, lambda: actor.call("diagnostics/setEnabled", {"enabled": enabled}),
                    lambda m: m.get("method") == "diagnostics/didChange")
            changed("switch: import", actor, lambda: actor.call("database/import", {"path": stol}), switched("reference"))
            changed("switch: deactivate", actor, lambda: actor.call("database/deactivateReference"), switched("bundled"))
            changed("switch: activate", actor, lambda: actor.call("database/activateReference"), switched("reference"))
            changed("switch: delete", actor, lambda: actor.call("database/deactivateReference", {"delete": True}), switched("bundled"))
    finally:
        for engine in engines:
            engine.close()
        shutil.rmtree(work, ignore_errors=True)

    print(f"{args.engines} engines, {args.rounds} rounds; delay from the answer in one engine to the "
          f"notification from each other engine, in ms")
    print(f"{'change':<20} {'n':>4} {'median':>8} {'p95':>8} {'max':>8}")
    for kind, values in delays.items():
        values.sort()
        p95 = values[min(len(values) - 1, int(round(0.95 * (len(values) - 1))))]
        print(f"{kind:<20} {len(values):>4} {statistics.median(values):>8.1f} {p95:>8.1f} {values[-1]:>8.1f}")


if __name__ == "__main__":
    main()
