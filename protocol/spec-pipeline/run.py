#!/usr/bin/env python3
"""A third party's pipeline, following only DataLoading.md and protocol/README.md.

Writes a taxonomy database with the specification's SQL verbatim (`schema-v1.sql` beside this file,
a copy of ../shared/spec/schema-v1.sql), fills it with mammals from the Mammal Diversity Database
(Carnivora, Perissodactyla, Pholidota), computes the Euler tour and top-N relatives as
`compute_top_n.py` would, packs it into a `.stol` with its own envelope writer and Ed25519 signer,
imports it through the real engine binary and checks browse, search, fuzzy search, autocomplete,
detail (traits with units and sources), compare, relatives and the LCA index. It also serves the
same file read-only with `--database` (the extensions go to a cache; the file is never written).

Usage: python3 protocol/spec-pipeline/run.py [--engine .build/debug/stol-engine] [--mdd FILE]
Standard library only. Exit code 0 when every check passes.
"""

from __future__ import annotations

import argparse
import csv
import gzip
import hashlib
import json
import os
import sqlite3
import struct
import subprocess
import sys
import tempfile
import threading
import queue

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DEFAULT_MDD = os.path.join(ROOT, "..", "shared", "data", "mdd", "MDD_v2.1_6801species.csv.gz")
ORDERS = {"Carnivora", "Perissodactyla", "Pholidota"}
TOP_N = 10

# --------------------------------------------------------------------------------------------
# Ed25519 (RFC 8032 §5.1, the reference algorithm; slow but one signature is enough)
# --------------------------------------------------------------------------------------------

P = 2**255 - 19
L = 2**252 + 27742317777372353535851937790883648493
D = -121665 * pow(121666, P - 2, P) % P
I = pow(2, (P - 1) // 4, P)


def _xrecover(y):
    xx = (y * y - 1) * pow(D * y * y + 1, P - 2, P)
    x = pow(xx, (P + 3) // 8, P)
    if (x * x - xx) % P != 0:
        x = x * I % P
    return P - x if x % 2 else x


BY = 4 * pow(5, P - 2, P) % P
B = (_xrecover(BY), BY, 1, _xrecover(BY) * BY % P)


def _add(p, q):
    a = (p[1] - p[0]) * (q[1] - q[0]) % P
    b = (p[1] + p[0]) * (q[1] + q[0]) % P
    c = 2 * p[3] * q[3] * D % P
    d = 2 * p[2] * q[2] % P
    e, f, g, h = b - a, d - c, d + c, b + a
    return (e * f % P, g * h % P, f * g % P, e * h % P)


def _mul(s, p):
    q = (0, 1, 1, 0)
    while s > 0:
        if s & 1:
            q = _add(q, p)
        p = _add(p, p)
        s >>= 1
    return q


def _encode(p):
    zi = pow(p[2], P - 2, P)
    x, y = p[0] * zi % P, p[1] * zi % P
    return (y | ((x & 1) << 255)).to_bytes(32, "little")


def ed25519_keypair(seed: bytes):
    h = hashlib.sha512(seed).digest()
    a = int.from_bytes(h[:32], "little")
    a &= (1 << 254) - 8
    a |= 1 << 254
    return a, h[32:], _encode(_mul(a, B))


def ed25519_sign(seed: bytes, message: bytes) -> bytes:
    a, prefix, public = ed25519_keypair(seed)
    r = int.from_bytes(hashlib.sha512(prefix + message).digest(), "little") % L
    big_r = _encode(_mul(r, B))
    k = int.from_bytes(hashlib.sha512(big_r + public + message).digest(), "little") % L
    return big_r + ((r + k * a) % L).to_bytes(32, "little")


# --------------------------------------------------------------------------------------------
# build_db.py: the specification's tables, filled from MDD
# --------------------------------------------------------------------------------------------


def build(mdd: str, out: str) -> dict:
    if os.path.exists(out):
        os.remove(out)
    db = sqlite3.connect(out)
    with open(os.path.join(HERE, "schema-v1.sql"), encoding="utf-8") as f:
        db.executescript(f.read())
    ids: dict[tuple, int] = {}
    parent: dict[int, int | None] = {}
    rank: dict[int, str] = {}
    name: dict[int, str] = {}

    def taxon(key: tuple, r: str, sci: str, up: int | None, **extra) -> int:
        if key in ids:
            return ids[key]
        i = len(ids) + 1
        ids[key] = i
        parent[i], rank[i], name[i] = up, r, sci
        db.execute(
            "INSERT INTO taxa(id, parent_id, rank, scientific_name, author, year, status, conservation) VALUES (?,?,?,?,?,?,?,?)",
            (i, up, r, sci, extra.get("author"), extra.get("year"), "accepted", extra.get("conservation")),
        )
        return i

    domain = taxon(("domain",), "domain", "Eukaryota", None)
    kingdom = taxon(("kingdom",), "kingdom", "Animalia", domain)
    phylum = taxon(("phylum",), "phylum", "Chordata", kingdom)
    klass = taxon(("class",), "class", "Mammalia", phylum)
    db.execute("INSERT INTO names(taxon_id, name, lang, name_type, is_preferred) VALUES (?, 'Mammals', 'en', 'common', 1)", (klass,))
    with gzip.open(mdd, "rt", encoding="utf-8", newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["order"].title() in ORDERS]
    rows.sort(key=lambda r: r["sciName"])
    na = lambda v: None if v in ("", "NA") else v
    for r in rows:
        order = taxon(("order", r["order"].title()), "order", r["order"].title(), klass)
        family = taxon(("family", r["family"].title()), "family", r["family"].title(), order)
        genus = taxon(("genus", r["genus"]), "genus", r["genus"], family)
        iucn = (na(r["iucnStatus"]) or "")[:2]
        species = taxon(
            ("species", r["sciName"]), "species", r["sciName"].replace("_", " "), genus,
            author=na(r["authoritySpeciesAuthor"]), year=int(r["authoritySpeciesYear"]) if (r["authoritySpeciesYear"] or "").isdigit() else None,
            conservation=iucn if iucn in ("LC", "NT", "VU", "EN", "CR", "EW", "EX", "NE", "DD") else None,
        )
        if na(r["mainCommonName"]):
            db.execute("INSERT INTO names(taxon_id, name, lang, name_type, is_preferred) VALUES (?,?,?,?,1)", (species, r["mainCommonName"], "en", "common"))
        for other in (na(r["otherCommonNames"]) or "").split("|"):
            if other.strip():
                db.execute("INSERT INTO names(taxon_id, name, lang, name_type, is_preferred) VALUES (?,?,?,?,0)", (species, other.strip(), "en", "vernacular"))
        original = na(r["originalNameCombination"])
        if original and original.replace("_", " ") != r["sciName"].replace("_", " "):
            db.execute("INSERT INTO names(taxon_id, name, lang, name_type) VALUES (?,?,?,?)", (species, original.replace("_", " "), "la", "synonym"))
        if na(r["authoritySpeciesCitation"]):
            db.execute("INSERT INTO refs(taxon_id, citation, url, ref_type) VALUES (?,?,?,'taxonomy')", (species, r["authoritySpeciesCitation"], na(r["authoritySpeciesLink"])))
        source = db.execute(
            "INSERT INTO refs(taxon_id, citation, url, ref_type) VALUES (?, 'Mammal Diversity Database (2025). v2.1. ASM.', 'https://www.mammaldiversity.org', 'other')",
            (species,),
        ).lastrowid
        for key, column in (("realm", "biogeographicRealm"), ("continent", "continentDistribution")):
            for value in (na(r[column]) or "").split("|"):
                if value.strip():
                    db.execute("INSERT INTO traits(taxon_id, trait_key, trait_value, unit, source_ref) VALUES (?,?,?,NULL,?)", (species, key, value.strip(), source))
        latitude = na(r["typeLocalityLatitude"])
        if latitude:
            db.execute("INSERT INTO traits(taxon_id, trait_key, trait_value, unit, source_ref) VALUES (?, 'type_locality_latitude', ?, 'deg', ?)", (species, latitude, source))
    # FTS (contentless), as DataLoading.md §3.8 describes its columns.
    for (i,) in db.execute("SELECT id FROM taxa ORDER BY id").fetchall():
        commons = [n for (n,) in db.execute("SELECT name FROM names WHERE taxon_id = ? AND name_type IN ('common','vernacular')", (i,))]
        synonyms = [n for (n,) in db.execute("SELECT name FROM names WHERE taxon_id = ? AND name_type = 'synonym'", (i,))]
        db.execute("INSERT INTO fts_taxa(rowid, taxon_id, scientific_name, common_names, synonyms) VALUES (?,?,?,?,?)", (i, i, name[i], " ".join(commons), " ".join(synonyms)))
    compute_top_n(db, parent, rank, name)
    db.commit()
    db.execute("VACUUM")
    db.close()
    return {"ids": {k[-1]: v for k, v in ids.items()}, "parent": parent, "rank": rank, "name": name}


# --------------------------------------------------------------------------------------------
# compute_top_n.py: Euler tour, first occurrences, top-N relatives
# --------------------------------------------------------------------------------------------


def compute_top_n(db, parent, rank, name):
    children: dict[int | None, list[int]] = {}
    for i, p in parent.items():
        children.setdefault(p, []).append(i)
    for c in children.values():
        c.sort(key=lambda i: (name[i], i))
    depth: dict[int, int] = {}
    seq = 0
    first: dict[int, int] = {}

    def visit(node, d):
        nonlocal seq
        depth[node] = d
        stack = [(node, d, iter(children.get(node, [])))]
        first[node] = seq
        db.execute("INSERT INTO euler_tour(seq, taxon_id, depth) VALUES (?,?,?)", (seq, node, d))
        seq += 1
        while stack:
            n, nd, it = stack[-1]
            child = next(it, None)
            if child is None:
                stack.pop()
                if stack:
                    db.execute("INSERT INTO euler_tour(seq, taxon_id, depth) VALUES (?,?,?)", (seq, stack[-1][0], stack[-1][1]))
                    seq += 1
                continue
            depth[child] = nd + 1
            first[child] = seq
            db.execute("INSERT INTO euler_tour(seq, taxon_id, depth) VALUES (?,?,?)", (seq, child, nd + 1))
            seq += 1
            stack.append((child, nd + 1, iter(children.get(child, []))))

    for root in children[None]:
        visit(root, 0)
    db.executemany("INSERT INTO first_occurrence(taxon_id, seq) VALUES (?,?)", sorted(first.items()))

    def path(i):
        out = []
        while i is not None:
            out.append(i)
            i = parent[i]
        return out

    species = [i for i in parent if rank[i] == "species"]
    paths = {i: path(i) for i in species}
    for s in species:
        ancestors = set(paths[s])
        found = []
        for o in species:
            if o == s:
                continue
            lca = next(a for a in paths[o] if a in ancestors)
            distance = (depth[s] - depth[lca]) + (depth[o] - depth[lca])
            found.append((distance, name[o], o, lca))
        found.sort()
        for order, (distance, _, o, lca) in enumerate(found[:TOP_N], 1):
            db.execute(
                "INSERT INTO top_n_relatives(taxon_id, relative_id, rank_order, lca_id, lca_depth, distance) VALUES (?,?,?,?,?,?)",
                (s, o, order, lca, depth[lca], distance),
            )


# --------------------------------------------------------------------------------------------
# sign_db.py: the .stol envelope of protocol/README.md, written independently of the engine
# --------------------------------------------------------------------------------------------


def pack(database: str, out: str, seed: bytes) -> str:
    with open(database, "rb") as f:
        payload = gzip.compress(f.read(), compresslevel=6)
    version = sqlite3.connect(database).execute("SELECT version FROM schema_version").fetchone()[0]
    digest = hashlib.sha256(payload).digest()
    signature = ed25519_sign(seed, digest + struct.pack("<I", version))
    with open(out, "wb") as f:
        f.write(b"STOL\x00DB\x01" + struct.pack("<I", version) + digest + signature + payload)
    return ed25519_keypair(seed)[2].hex()


# --------------------------------------------------------------------------------------------
# The engine, over its pipes
# --------------------------------------------------------------------------------------------


class Engine:
    def __init__(self, command):
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, encoding="utf-8")
        self.lines: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.next_id = 0
        self.notifications: list = []
        self.call("initialize", {})

    def _read(self):
        for line in self.process.stdout:
            self.lines.put(json.loads(line))
        self.lines.put(None)

    def call(self, method, params=None, error=False):
        self.next_id += 1
        message = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        if params is not None:
            message["params"] = params
        self.process.stdin.write(json.dumps(message) + "\n")
        self.process.stdin.flush()
        while True:
            answer = self.lines.get(timeout=120)
            if answer is None:
                raise RuntimeError(f"the engine exited during {method}")
            if "id" not in answer:
                self.notifications.append(answer)
                continue
            if answer["id"] != self.next_id:
                continue
            if error:
                return answer.get("error")
            if "error" in answer:
                raise AssertionError(f"{method} {params}: {answer['error']}")
            return answer["result"]

    def close(self):
        try:
            self.call("shutdown")
            self.process.stdin.write(json.dumps({"jsonrpc": "2.0", "method": "exit"}) + "\n")
            self.process.stdin.close()
            self.process.wait(timeout=20)
        except Exception:
            self.process.kill()


failures: list[str] = []


def check(condition, what):
    print(("ok    " if condition else "FAIL  ") + what)
    if not condition:
        failures.append(what)


def exercise(engine: Engine, built: dict, label: str):
    ids = built["ids"]
    leo, tigris, lupus = ids["Panthera_leo"], ids["Panthera_tigris"], ids["Canis_lupus"]
    info = engine.call("database/info")
    check(info["taxaCount"] == len(built["parent"]), f"{label}: database/info counts {len(built['parent'])} taxa")
    # Browse.
    roots = engine.call("taxon/roots", {})["roots"]
    check([r["scientificName"] for r in roots] == ["Eukaryota"], f"{label}: taxon/roots is Eukaryota")
    names = [c["scientificName"] for c in engine.call("taxon/children", {"id": ids["Felidae"], "limit": 100})["children"]]
    check("Panthera" in names and names == sorted(names), f"{label}: taxon/children of Felidae lists Panthera, in name order")
    lineage = engine.call("taxon/ancestors", {"id": leo})["ancestors"]
    check([t["scientificName"] for t in lineage][-3:] == ["Carnivora", "Felidae", "Panthera"], f"{label}: taxon/ancestors of the lion end Carnivora, Felidae, Panthera")
    # Search, fuzzy search, autocomplete.
    found = engine.call("search/query", {"query": "lion", "limit": 5})
    check(any(r["id"] == leo for r in found["results"]), f"{label}: search/query 'lion' finds Panthera leo")
    fuzzy = engine.call("search/query", {"query": "pantera tigrs", "limit": 5})
    check(fuzzy["results"] and fuzzy["results"][0]["id"] == tigris, f"{label}: fuzzy search/query 'pantera tigrs' finds Panthera tigris first")
    auto = engine.call("search/autocomplete", {"prefix": "gray wo", "limit": 5})
    check(any(s["taxonId"] == lupus for s in auto["suggestions"]), f"{label}: search/autocomplete 'gray wo' suggests Canis lupus")
    # Detail: traits with units and their source.
    detail = engine.call("taxon/detail", {"id": leo})
    traits = detail["traits"]
    panda = engine.call("taxon/detail", {"id": ids["Ailuropoda_melanoleuca"]})["traits"]
    latitude = [t for t in panda if t["key"] == "type_locality_latitude"]
    check(latitude and latitude[0].get("unit") == "deg" and latitude[0]["value"].startswith("30.38"),
          f"{label}: taxon/detail returns the giant panda's type-locality latitude with its unit, deg")
    check(all(t.get("source", {}).get("citation", "").startswith("Mammal Diversity Database") for t in traits) and traits,
          f"{label}: every trait carries its linked reference")
    check(engine.call("taxon/traits", {"id": leo})["traits"] == traits, f"{label}: taxon/traits equals taxon/detail's traits")
    # Compare.
    compared = engine.call("compare/taxa", {"a": leo, "b": tigris})
    check(compared["lca"]["scientificName"] == "Panthera" and compared["taxonomicDistance"] == 2, f"{label}: compare/taxa lion/tiger: LCA Panthera, distance 2")
    similarity = compared["traitSimilarity"]
    check(similarity is not None and 0 < similarity < 1, f"{label}: trait similarity lion/tiger is between 0 and 1 ({similarity})")
    deltas = {d["key"]: d for d in compared["traitDeltas"]}
    check("realm" in deltas and isinstance(deltas["realm"]["shared"], list), f"{label}: compare/taxa returns trait deltas per key")
    off = engine.call("compare/taxa", {"a": leo, "b": tigris, "includeTraitSimilarity": False})
    check(off["traitSimilarity"] is None and off["traitDeltas"] == compared["traitDeltas"], f"{label}: includeTraitSimilarity false gives a null similarity")
    # Relatives (stored by this pipeline) and the LCA index built from its Euler tour.
    relatives = engine.call("compare/relatives", {"id": leo, "n": 5})
    check(relatives["source"] == "precomputed" and len(relatives["relatives"]) == 5
          and all(r["lca"]["scientificName"] == "Panthera" for r in relatives["relatives"][:4]), f"{label}: compare/relatives answers from top_n_relatives")
    lcas = engine.call("compare/lca", {"pairs": [[leo, lupus], [leo, tigris]]})
    check(lcas["lcas"] == [ids["Carnivora"], ids["Panthera"]] and lcas["distances"] == [6, 2], f"{label}: compare/lca gives Carnivora and Panthera")
    for _ in range(100):
        stats = engine.call("compare/stats")
        if stats["state"] != "building":
            break
    check(stats["state"] == "ready" and stats.get("source") == "euler_tour", f"{label}: compare/stats: the tree is built from the pipeline's euler_tour ({stats})")
    storage = engine.call("storage/report")
    check("bundled" in storage and "reference" in storage, f"{label}: storage/report answers")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--engine", default=os.path.join(ROOT, ".build", "debug", "stol-engine"))
    parser.add_argument("--mdd", default=DEFAULT_MDD)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="stol-spec-pipeline-") as work:
        database = os.path.join(work, "candidate.sqlite")
        built = build(args.mdd, database)
        stol = os.path.join(work, "mammals.stol")
        public = pack(database, stol, hashlib.sha256(b"stol spec pipeline test key").digest())
        data = os.path.join(work, "data")

        engine = Engine([args.engine, "--data-dir", data, "--trusted-key", public])
        try:
            engine.call("database/import", {"path": stol, "_meta": {"progressToken": "imp"}})
            messages = [n["params"]["value"].get("message", "") for n in engine.notifications if n.get("method") == "$/progress"]
            check(any(m.startswith("building extensions") for m in messages), "database/import reports building the engine extensions")
            exercise(engine, built, "imported")
        finally:
            engine.close()

        # The same file served read-only: the extensions go to a cache, the file is never written.
        os.chmod(database, 0o444)
        before = os.stat(database)
        engine = Engine([args.engine, "--data-dir", data, "--database", database])
        try:
            exercise(engine, built, "--database")
        finally:
            engine.close()
        after = os.stat(database)
        check((before.st_size, before.st_mtime_ns) == (after.st_size, after.st_mtime_ns), "--database: the file is unchanged")
        caches = os.listdir(os.path.join(data, "Caches"))
        extension_caches = [c for c in caches if c.startswith("extensions-")]
        check(len(extension_caches) == 1 and all(c.startswith(("extensions-", "checked-")) for c in caches),
              "--database: one extension cache in <data-dir>/Caches (beside the record that the file passed its content check)")

        # A near miss: the specification's traits table with a column renamed.
        broken = os.path.join(work, "renamed.sqlite")
        with open(database, "rb") as f, open(broken, "wb") as g:
            g.write(f.read())
        os.chmod(broken, 0o644)
        db = sqlite3.connect(broken)
        db.execute("ALTER TABLE traits RENAME COLUMN unit TO units")
        db.commit()
        db.close()
        pack(broken, os.path.join(work, "renamed.stol"), hashlib.sha256(b"stol spec pipeline test key").digest())
        engine = Engine([args.engine, "--data-dir", os.path.join(work, "data2"), "--trusted-key", public])
        try:
            error = engine.call("database/import", {"path": os.path.join(work, "renamed.stol")}, error=True)
            check(error and error["data"]["kind"] == "incompatibleSchema" and "traits" in error["data"].get("detail", "") and "unit" in error["data"]["detail"],
                  f"a renamed column is incompatibleSchema naming it ({error and error['data']})")
        finally:
            engine.close()
    print(f"{len(failures)} failed" if failures else "all passed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
