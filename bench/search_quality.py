#!/usr/bin/env python3
"""Search quality on real names: the share of queries whose taxon is first / in the first three,
for the engine and for rapidfuzz (`process.extract` with `WRatio` over the same names).

    bench/.venv/bin/python bench/search_quality.py --database mammals-birds.sqlite [--engine PATH] [--n 300]
    bench/.venv/bin/python bench/search_quality.py --database ncbi.sqlite --variants [--n 300]

Queries are made from names of species drawn at random (seeded) from the database, in five forms:
the exact common name, one typo in the common name, the common name in the plural, one typo in
the scientific epithet, and the scientific name in lower case. A typo is one random substitution,
deletion, insertion or transposition of letters, never in the first word of a scientific name.

With `--variants` (for NCBI Taxonomy) the queries are instead other checklists' English names of
the database's species: names from the Mammal Diversity Database and AviList
(`../shared/data/mdd`, `../shared/data/avilist`) for species of the same scientific name, that
share a word with one of the taxon's own names but are none of them nor any other taxon's (NCBI
names subspecies "mountain bongo" or "European herring gull", which other checklists give the
species: such a query names the subspecies exactly). Each is classed by how it
differs from the taxon's closest name: a word added (`common raccoon` for "raccoon"), a word
dropped, spelled another way (hyphens, spaces, British and American spellings: `grey-backed
tern` for "Gray-backed Tern"), or other (words both added and dropped).

Prints one JSON object: per form, engine and rapidfuzz hit@1, hit@3, the share of empty answers
and median/p99 latency in ms.
"""
import argparse, csv, gzip, json, os, random, re, sqlite3, statistics, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from engine_client import Engine, default_engine  # noqa: E402

FORMS = ["exact common name", "common name, one typo", "plural common name", "epithet, one typo", "lower-case scientific name"]

IRREGULAR = {"mouse": "mice", "goose": "geese", "foot": "feet", "tooth": "teeth", "man": "men", "louse": "lice",
             "ox": "oxen", "child": "children", "wolf": "wolves", "calf": "calves", "leaf": "leaves", "half": "halves"}
UNCOUNTED = {"deer", "sheep", "fish", "moose", "bison", "swine", "cattle", "species"}


def plural(word):
    """English plural of a name's last word (regular rules and common irregular nouns)."""
    low = word.lower()
    for singular, plural_ in IRREGULAR.items():
        if low.endswith(singular) and (low == singular or len(singular) >= 4 or singular in ("wolf", "man")):
            return word[: len(word) - len(singular)] + plural_
    if low in UNCOUNTED or low.endswith("fish"):
        return word
    if low.endswith(("s", "x", "z", "ch", "sh")):
        return word + "es"
    if low.endswith("y") and len(low) > 1 and low[-2] not in "aeiou":
        return word[:-1] + "ies"
    return word + "s"


def typo(rng, text, start=0):
    """One random edit of a letter at or after `start` (letters only, so word boundaries stay)."""
    positions = [i for i in range(start, len(text)) if text[i].isalpha()]
    i = rng.choice(positions)
    kind = rng.choice(["substitute", "delete", "insert", "transpose"])
    letters = "abcdefghijklmnopqrstuvwxyz"
    if kind == "substitute":
        return text[:i] + rng.choice([c for c in letters if c != text[i].lower()]) + text[i + 1:]
    if kind == "delete":
        return text[:i] + text[i + 1:]
    if kind == "insert":
        return text[:i] + rng.choice(letters) + text[i:]
    j = i + 1 if i + 1 < len(text) and text[i + 1].isalpha() and text[i + 1] != text[i] else None
    if j is None:
        return text[:i] + rng.choice([c for c in letters if c != text[i].lower()]) + text[i + 1:]
    return text[:i] + text[j] + text[i] + text[j + 1:]


def sample(path, n, seed):
    """(taxon id, scientific name, preferred English name) of n species with an English name."""
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        rows = db.execute("""SELECT t.id, t.scientific_name, n.name FROM taxa t JOIN names n ON n.taxon_id = t.id
                             WHERE t.rank = 'species' AND n.lang = 'en' AND n.name_type = 'common' AND n.is_preferred = 1
                             ORDER BY t.id""").fetchall()
        names = db.execute("SELECT taxon_id, name FROM search_names").fetchall()
    rng = random.Random(seed)
    return rng.sample(rows, min(n, len(rows))), names


def queries(species, seed):
    rng = random.Random(seed + 1)
    out = {form: [] for form in FORMS}
    for taxon, scientific, common in species:
        out["exact common name"].append((common, taxon))
        out["common name, one typo"].append((typo(rng, common), taxon))
        words = common.split(" ")
        out["plural common name"].append((" ".join(words[:-1] + [plural(words[-1])]), taxon))
        out["epithet, one typo"].append((typo(rng, scientific, scientific.index(" ") + 1), taxon))
        out["lower-case scientific name"].append((scientific.lower(), taxon))
    return out


DATA = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "data"))
VARIANT_FORMS = ["another checklist's name: a word added", "another checklist's name: a word dropped",
                 "another checklist's name: spelled another way", "another checklist's name: other"]


def words(text):
    return re.findall(r"[a-z0-9]+", text.lower())


def canonical(word):
    """British and American spellings as one (grey → gray, colour → color)."""
    word = {"grey": "gray"}.get(word, word)
    return re.sub(r"our$", "or", word)


def variant_form(query, own):
    """How `query` differs from the closest of the taxon's names `own` (see the module doc)."""
    q = [canonical(w) for w in words(query)]
    best = None
    for name in own:
        n = [canonical(w) for w in words(name)]
        if "".join(q) == "".join(n):
            return VARIANT_FORMS[2]
        added, dropped = set(q) - set(n), set(n) - set(q)
        if not (set(q) & set(n)):
            continue
        form = VARIANT_FORMS[0] if added and not dropped else VARIANT_FORMS[1] if dropped and not added else VARIANT_FORMS[3]
        rank = VARIANT_FORMS.index(form)
        if best is None or rank < best[0]:
            best = (rank, form)
    return best[1] if best else None


def variant_queries(path, n, seed):
    """Other checklists' names of the database's species, by form (at most n in all)."""
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        own = {}
        for taxon, scientific, name in db.execute("""SELECT t.id, t.scientific_name, n.name FROM taxa t JOIN names n ON n.taxon_id = t.id
                                                     WHERE t.rank = 'species' AND n.name_type IN ('common', 'vernacular')"""):
            own.setdefault(scientific, (taxon, []))[1].append(name)
        names = db.execute("SELECT taxon_id, name FROM search_names").fetchall()
    other = []
    with gzip.open(os.path.join(DATA, "mdd", "MDD_v2.1_6801species.csv.gz"), "rt", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            scientific = row["sciName"].replace("_", " ")
            for name in [row["mainCommonName"]] + row["otherCommonNames"].split("|"):
                if name and name != "NA":
                    other.append((name, scientific))
    with gzip.open(os.path.join(DATA, "avilist", "AviList-v2025-extended.csv.gz"), "rt", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            if row["Taxon_rank"] == "species":
                for column in ("English_name_AviList", "English_name_Clements_v2024", "English_name_BirdLife_v9"):
                    if row[column]:
                        other.append((row[column], row["Scientific_name"]))
    # Who holds each name as written (case aside): a name another taxon holds is no variant of this
    # one's (NCBI names subspecies such as "mountain bongo" that other checklists give the species).
    holders = {}
    for taxon, name in names:
        holders.setdefault(name.lower(), set()).add(taxon)
    candidates, seen = [], set()
    for name, scientific in other:
        if scientific not in own or (name.lower(), scientific) in seen:
            continue
        seen.add((name.lower(), scientific))
        taxon, names_of_taxon = own[scientific]
        if any(name.lower() == o.lower() for o in names_of_taxon) or holders.get(name.lower(), set()) - {taxon}:
            continue
        form = variant_form(name, names_of_taxon)
        if form:
            candidates.append((form, name, taxon))
    rng = random.Random(seed)
    rng.shuffle(candidates)
    out = {form: [] for form in VARIANT_FORMS}
    for form, name, taxon in candidates[:n]:
        out[form].append((name, taxon))
    return out, names


def stats(hits1, hits3, times, empty=0):
    n = len(times)
    times = sorted(times)
    return {"n": n, "top1": hits1 / n, "top3": hits3 / n, "empty": empty / n, "p50": statistics.median(times), "p99": times[min(n - 1, int(n * 0.99))]}


def run_engine(engine_path, database, forms):
    out = {}
    with Engine(engine_path, database) as e:
        e.call("search/query", {"query": "warm up", "limit": 3})
        for form, items in forms.items():
            h1 = h3 = empty = 0
            times = []
            for query, taxon in items:
                ms, result = e.timed("search/query", {"query": query, "limit": 3})
                ids = [r["id"] for r in result["results"]]
                h1 += ids[:1] == [taxon]
                h3 += taxon in ids[:3]
                empty += not ids
                times.append(ms)
            if items:
                out[form] = stats(h1, h3, times, empty)
    return out


def run_rapidfuzz(names, forms):
    from rapidfuzz import fuzz, process
    choices = [name for _, name in names]
    owners = [taxon for taxon, _ in names]
    out = {}
    for form, items in forms.items():
        h1 = h3 = 0
        times = []
        for query, taxon in items:
            start = time.perf_counter()
            found = process.extract(query, choices, scorer=fuzz.WRatio, limit=30)
            ranked = []
            for _, _, index in found:  # best name per taxon, like the engine
                if owners[index] not in ranked:
                    ranked.append(owners[index])
            times.append((time.perf_counter() - start) * 1000)
            h1 += ranked[:1] == [taxon]
            h3 += taxon in ranked[:3]
        if items:
            out[form] = stats(h1, h3, times)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", default=default_engine())
    ap.add_argument("--database", required=True)
    ap.add_argument("--n", type=int, default=300)
    ap.add_argument("--seed", type=int, default=15)
    ap.add_argument("--show-misses", action="store_true", help="print the engine's misses (top 3) to stderr")
    ap.add_argument("--variants", action="store_true", help="other checklists' names of the species (NCBI): see the module doc")
    ap.add_argument("--sample-database", help="draw the queries from this database instead (taxon ids must be the same: "
                    "an earlier build of the same source, to compare engines on one set of queries)")
    ap.add_argument("--no-rapidfuzz", action="store_true", help="the engine only")
    args = ap.parse_args()
    if args.variants:
        forms, names = variant_queries(args.sample_database or args.database, args.n, args.seed)
        species = [item for items in forms.values() for item in items]
    else:
        species, names = sample(args.database, args.n, args.seed)
        forms = queries(species, args.seed)
    engine = run_engine(args.engine, args.database, forms)
    if args.show_misses:
        with Engine(args.engine, args.database) as e:
            for form, items in forms.items():
                for query, taxon in items:
                    ids = [r["id"] for r in e.call("search/query", {"query": query, "limit": 3})["results"]]
                    if taxon not in ids:
                        print(f"{form}: {query!r}", file=sys.stderr)
    peer = {} if args.no_rapidfuzz else run_rapidfuzz(names, forms)
    print(json.dumps({"n": len(species), "names": len(names), "engine": engine, "rapidfuzz": peer}))


if __name__ == "__main__":
    main()
