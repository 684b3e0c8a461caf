#!/usr/bin/env python3
"""Species-page completeness: how much of a species page each database fills. Writes PAGES.md.

For the embedded database and an NCBI reference database built with descriptions (Wikipedia's
introductions, and MDD's and AviList's English names merged in):
- the share of species with a description (any language, and per language), a picture (from an
  `images` table in the database or the media packs given with --media), traits, and traits in
  each language (a `lang` column of `traits`, when a database has one);
- the English names the NCBI build gained from MDD and AviList (`name_sources`);
- `taxon/detail` p50 for species with and without a description (the same engine and database,
  calls interleaved);
- the database's size with and without descriptions, and with --build the NCBI build's time with
  and without them (rounds interleaved).

Standard library only:

    swift build -c release --product stol-engine --scratch-path .build-rel
    python3 bench/page_completeness.py --build          # builds both NCBI databases (~1 min each)
    python3 bench/page_completeness.py --ncbi /tmp/ncbi-content.sqlite --ncbi-plain /tmp/ncbi-content-plain.sqlite
"""
import argparse, datetime, json, os, platform, random, sqlite3, statistics, subprocess, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from engine_client import EMBEDDED_DB, ROOT, Engine, default_engine, log, summary  # noqa: E402

DATA = os.path.normpath(os.path.join(ROOT, "..", "shared", "data"))
LANGS = ["en", "de", "fr", "es"]


def ncbi_arguments(out, descriptions):
    args = ["build-db", "--ncbi", os.path.join(DATA, "ncbi"),
            "--names-from-mdd", os.path.join(DATA, "mdd", "MDD_v2.1_6801species.csv.gz"),
            "--names-from-avilist", os.path.join(DATA, "avilist", "AviList-v2025-extended.csv.gz"),
            "--out", out, "--build-date", "2026-11-27"]
    if descriptions:
        args += ["--wikipedia", os.path.join(DATA, "wikipedia", "ncbi-enwiki-intros.tsv.gz")]
    return args


def timed_build(engine, args):
    """(wall seconds, CPU seconds, peak bytes, stdout) of one build, through /usr/bin/time."""
    run = subprocess.run(["/usr/bin/time", "-f", "%e %U %S %M", engine] + args, capture_output=True, text=True, check=True)
    wall, user, system, peak = run.stderr.strip().splitlines()[-1].split()
    return float(wall), float(user) + float(system), int(peak) * 1024, run.stdout


def one(con, sql, *args):
    return con.execute(sql, args).fetchone()[0]


def has_table(con, name):
    return one(con, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?", name) > 0


def completeness(db, media=()):
    """Shares of species with each part of a page filled."""
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    species = one(con, "SELECT count(*) FROM taxa WHERE rank = 'species'")
    out = {"species": species, "taxa": one(con, "SELECT count(*) FROM taxa"), "bytes": os.path.getsize(db)}
    if has_table(con, "descriptions"):
        out["description"] = one(con, "SELECT count(DISTINCT d.taxon_id) FROM descriptions d JOIN taxa t ON t.id = d.taxon_id WHERE t.rank = 'species'")
        for lang in LANGS:
            out[f"description_{lang}"] = one(con, """SELECT count(DISTINCT d.taxon_id) FROM descriptions d JOIN taxa t ON t.id = d.taxon_id
                                                   WHERE t.rank = 'species' AND (d.lang = ? OR d.lang LIKE ? || '-%')""", lang, lang)
        out["description_licenses"] = [r[0] for r in con.execute("SELECT DISTINCT coalesce(license, '(none)') FROM descriptions ORDER BY 1")]
    pictured = set()
    if has_table(con, "images"):
        pictured |= {r[0] for r in con.execute("SELECT DISTINCT taxon_id FROM images")}
    for pack in media:
        with sqlite3.connect(f"file:{pack}?mode=ro", uri=True) as m:
            pictured |= {r[0] for r in m.execute("SELECT DISTINCT taxon_id FROM images")}
    species_ids = {r[0] for r in con.execute("SELECT id FROM taxa WHERE rank = 'species'")} if pictured else set()
    out["picture"] = len(pictured & species_ids)
    out["traits"] = one(con, "SELECT count(DISTINCT x.taxon_id) FROM traits x JOIN taxa t ON t.id = x.taxon_id WHERE t.rank = 'species'")
    trait_columns = {r[1] for r in con.execute("PRAGMA table_info(traits)")}
    for lang in LANGS:
        if "lang" in trait_columns:
            out[f"traits_{lang}"] = one(con, """SELECT count(DISTINCT x.taxon_id) FROM traits x JOIN taxa t ON t.id = x.taxon_id
                                              WHERE t.rank = 'species' AND x.lang = ?""", lang)
        else:
            # Traits without a language are written in English (the datasets' keys and values).
            out[f"traits_{lang}"] = out["traits"] if lang == "en" else 0
    out["english_name"] = one(con, """SELECT count(*) FROM taxa t WHERE rank = 'species' AND EXISTS
                                    (SELECT 1 FROM names n WHERE n.taxon_id = t.id AND n.lang = 'en' AND n.name_type <> 'synonym')""")
    if has_table(con, "name_sources"):
        out["merged"] = [list(r) for r in con.execute("""
            SELECT s.source, count(*), count(DISTINCT n.taxon_id) FROM name_sources s JOIN names n ON n.id = s.name_id
            WHERE n.lang = 'en' AND n.name_type <> 'synonym' GROUP BY s.source ORDER BY s.source""")]
        # Taxa (and species) whose every English name came from another source: their first.
        gained = con.execute("""
            SELECT count(*), sum(t.rank = 'species') FROM taxa t WHERE EXISTS
                (SELECT 1 FROM names n JOIN name_sources s ON s.name_id = n.id WHERE n.taxon_id = t.id AND n.lang = 'en' AND n.name_type <> 'synonym')
            AND NOT EXISTS (SELECT 1 FROM names n WHERE n.taxon_id = t.id AND n.lang = 'en' AND n.name_type <> 'synonym'
                            AND n.id NOT IN (SELECT name_id FROM name_sources))""").fetchone()
        out["gained_taxa"], out["gained_species"] = gained[0], gained[1] or 0
    con.close()
    return out


PHOTOS = os.path.join(ROOT, "Sources", "STOLEngine", "Resources", "BundledMedia", "photos.tsv")


def as_served(engine, db, out, embedded):
    """What the engine's `taxon/detail` shows, counted on the pages themselves: a picture
    (`include: ["image"]`: the bundled photographs and media packs) and, per language, species whose
    every trait comes back translated. On the embedded database every species page is asked for; on
    a large one only the species named like a bundled photograph (for pictures; its traits are
    counted from the table)."""
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    if embedded:
        ids = [r[0] for r in con.execute("SELECT id FROM taxa WHERE rank = 'species'")]
    else:
        photographed = [line.split("\t")[1] for line in open(PHOTOS, encoding="utf-8").read().splitlines()[1:] if line.strip()]
        ids = [r[0] for name in photographed for r in con.execute("SELECT id FROM taxa WHERE rank = 'species' AND scientific_name = ?", (name,))]
    con.close()
    pictured, translated = 0, {lang: 0 for lang in LANGS}
    with Engine(engine, database=None if embedded else db) as e:
        for taxon in ids:
            page = e.call("taxon/detail", {"id": taxon, "lang": "en", "include": ["image"]})
            image = page.get("image")
            pictured += bool(image) and image.get("taxonId") == taxon  # its own, not a relative's
            if embedded and page.get("traits"):
                for lang in LANGS:
                    traits = page["traits"] if lang == "en" else e.call("taxon/detail", {"id": taxon, "lang": lang})["traits"]
                    translated[lang] += lang == "en" or all(t.get("translated") for t in traits)
    out["picture_served"] = pictured
    if embedded:
        for lang in LANGS:
            out[f"traits_{lang}"] = translated[lang]


def detail_latency(engine, db, n=300, rounds=3):
    """taxon/detail p50 (ms) for species with and without a description, calls interleaved."""
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    rng = random.Random(35)
    with_text = [r[0] for r in con.execute("SELECT d.taxon_id FROM descriptions d JOIN taxa t ON t.id = d.taxon_id WHERE t.rank = 'species' AND d.lang = 'en'")]
    described = set(with_text)
    without = [r[0] for r in con.execute("SELECT id FROM taxa WHERE rank = 'species' LIMIT 400000") if r[0] not in described]
    con.close()
    a, b = rng.sample(with_text, min(n, len(with_text))), rng.sample(without, min(n, len(without)))
    times = {"with": [], "without": []}
    with Engine(engine, database=db) as e:
        for taxon in a[:20] + b[:20]:
            e.call("taxon/detail", {"id": taxon})  # warm-up
        for _ in range(rounds):
            for x, y in zip(a, b):
                ms, result = e.timed("taxon/detail", {"id": x, "lang": "en"})
                assert "description" in result
                times["with"].append(ms)
                ms, result = e.timed("taxon/detail", {"id": y, "lang": "en"})
                assert "description" not in result
                times["without"].append(ms)
    return {k: summary(v) for k, v in times.items()}


def pct(part, whole):
    return f"{part:,} ({100.0 * part / whole:.1f} %)" if whole else "0"


def markdown(embedded, ncbi, plain, latency, builds, args):
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    out = ["# Species-page completeness", "",
           "Generated by `python3 bench/page_completeness.py` (linked from BENCHMARKS.md); do not edit the tables by hand. "
           "What a species page shows, database by database: a description, a picture, traits in the asked language, names. "
           "Quality figures are exact counts; the timings are marked **provisional** when the machine was busy.", "",
           f"Measured {now} on {platform.machine()}, {os.cpu_count()} logical CPUs. Engine: `{os.path.relpath(args.engine, ROOT)}`.", "",
           "## Species pages", "",
           "| database | species | with a description (any language) | in en | in de | in fr | in es | with a picture | with traits | traits in en | in de | in fr | in es |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for name, c in [("embedded (`default.sqlite`)", embedded), ("NCBI reference, with descriptions and merged names", ncbi)]:
        if not c:
            continue
        s = c["species"]
        out.append("| " + " | ".join([name, f"{s:,}", pct(c.get("description", 0), s)] + [pct(c.get(f"description_{l}", 0), s) for l in LANGS]
                                     + [pct(max(c["picture"], c.get("picture_served", 0)), s), pct(c["traits"], s)] + [pct(c[f"traits_{l}"], s) for l in LANGS]) + " |")
    out += ["",
            "- Descriptions: the embedded database's are the dataset's own words (`dataset/default/descriptions.tsv`, licence "
            f"{', '.join(embedded.get('description_licenses', [])) or 'none yet'}); the NCBI database's are English Wikipedia's introductions "
            f"that name their taxon (licences: {', '.join(ncbi.get('description_licenses', [])) if ncbi else '–'}).",
            "- Pictures: species whose `taxon/detail` (`include: [\"image\"]`) shows an image: the engine's bundled photographs, "
            "matched by scientific name, or an image of their own in an `images` table or a media pack given with `--media` "
            f"({', '.join(os.path.basename(m) for m in args.media) or 'none given'}); a species shown with its genus's image is not counted.",
            "- Traits: the datasets write them in English; in another language, species whose every trait `taxon/detail` returns "
            "marked `translated` (asked for every species of the embedded database).", ""]
    if ncbi:
        out += ["## English names the NCBI build gains from MDD and AviList", "",
                "| source (as `name_sources` records it) | English names added | taxa given one |", "|---|---|---|"]
        for source, names, taxa in ncbi.get("merged", []):
            out.append(f"| {source} | {names:,} | {taxa:,} |")
        base = ncbi["english_name"] - ncbi.get("gained_species", 0)
        out += ["", f"- Taxa whose first English name came from MDD or AviList: {ncbi.get('gained_taxa', 0):,} "
                f"({ncbi.get('gained_species', 0):,} species).",
                f"- Species with an English name: {pct(base, ncbi['species'])} from NCBI alone, "
                f"{pct(ncbi['english_name'], ncbi['species'])} with the merged names.", ""]
    if latency:
        w, wo = latency["with"], latency["without"]
        out += ["## `taxon/detail` with and without a description (**provisional**: the machine was busy)", "",
                "| species | p50 | p99 | min–max | calls |", "|---|---|---|---|---|",
                f"| with a description (English Wikipedia) | {w['median']:.3f} ms | {w['p99']:.3f} ms | {w['min']:.3f}–{w['max']:.3f} ms | {w['n']} |",
                f"| without | {wo['median']:.3f} ms | {wo['p99']:.3f} ms | {wo['min']:.3f}–{wo['max']:.3f} ms | {wo['n']} |",
                f"| ratio | {w['median'] / wo['median']:.2f}× | | | |", "",
                "- One engine on the NCBI database, random species (seed 35) with and without an English description, calls "
                "interleaved one by one over stdio, after 40 warm-up calls.", ""]
    if ncbi and plain:
        out += ["## Database size and build time with and without descriptions", "",
                "| NCBI build (names merged from MDD and AviList) | database | build wall time | CPU | peak memory |", "|---|---|---|---|---|"]
        for label, c, key in [("without descriptions", plain, "without"), ("with descriptions (`--wikipedia`)", ncbi, "with")]:
            b = builds.get(key) if builds else None
            timing = (f"{b['wall']:.1f} s (rounds: {', '.join(f'{x:.1f}' for x in b['walls'])})",
                      f"{b['cpu']:.1f} s (rounds: {', '.join(f'{x:.1f}' for x in b['cpus'])})", f"{b['peak'] / 1e9:.2f} GB") if b else ("not built here", "", "")
            out.append(f"| {label} | {c['bytes'] / 1e6:,.0f} MB | " + " | ".join(timing) + " |")
        ratio = f"{ncbi['bytes'] / plain['bytes']:.2f}×"
        out += ["", f"- Size: {ratio} with descriptions ({(ncbi['bytes'] - plain['bytes']) / 1e6:,.0f} MB for "
                f"{ncbi.get('description', 0):,} species' descriptions and those of higher taxa)."]
        if builds:
            out.append(f"- Build time (**provisional**: the machine was busy, other builds and tests running beside it; medians of "
                       f"{len(builds['with']['walls'])} rounds, interleaved): {builds['with']['cpu'] / builds['without']['cpu']:.2f}× CPU with "
                       "descriptions (reading and checking 216,483 introductions, then writing, indexing and checking the texts). The wall "
                       f"times ({builds['with']['wall'] / builds['without']['wall']:.2f}× by the medians) swung with the load from round to "
                       "round and say nothing here; CPU time is the comparison to read until an idle machine re-measures it.")
        out.append("")
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", default=default_engine())
    ap.add_argument("--embedded", default=EMBEDDED_DB)
    ap.add_argument("--ncbi", default="/tmp/ncbi-content.sqlite", help="NCBI database built with --wikipedia (and names merged)")
    ap.add_argument("--ncbi-plain", default="/tmp/ncbi-content-plain.sqlite", help="the same build without --wikipedia")
    ap.add_argument("--build", action="store_true", help="(re)build both NCBI databases, timing each")
    ap.add_argument("--rounds", type=int, default=2, help="build rounds of each, interleaved")
    ap.add_argument("--media", action="append", default=[], help="a media pack database (images table) to count pictures from")
    ap.add_argument("--no-latency", action="store_true")
    ap.add_argument("--out", default=os.path.join(ROOT, "PAGES.md"))
    args = ap.parse_args()
    stored = os.path.join(ROOT, "bench", ".cache", "pages-builds.json")
    builds = None
    if args.build:
        measured = {"with": [], "without": []}
        for r in range(args.rounds):
            for key, path in [("without", args.ncbi_plain), ("with", args.ncbi)]:
                log(f"round {r + 1}: building {path} ({key} descriptions)")
                measured[key].append(timed_build(args.engine, ncbi_arguments(path, key == "with"))[:3])
        builds = {key: {"wall": statistics.median(r[0] for r in rows), "cpu": statistics.median(r[1] for r in rows),
                        "peak": max(r[2] for r in rows), "walls": [r[0] for r in rows], "cpus": [r[1] for r in rows]}
                  for key, rows in measured.items()}
        os.makedirs(os.path.dirname(stored), exist_ok=True)
        json.dump(builds, open(stored, "w"))
    elif os.path.exists(stored):
        builds = json.load(open(stored))
    embedded = completeness(args.embedded, args.media)
    as_served(args.engine, args.embedded, embedded, embedded=True)
    ncbi = completeness(args.ncbi) if os.path.exists(args.ncbi) else None
    if ncbi:
        as_served(args.engine, args.ncbi, ncbi, embedded=False)
    plain = completeness(args.ncbi_plain) if os.path.exists(args.ncbi_plain) else None
    latency = None if args.no_latency or not ncbi else detail_latency(args.engine, args.ncbi)
    text = markdown(embedded, ncbi, plain, latency, builds, args)
    open(args.out, "w").write(text)
    print(text)


if __name__ == "__main__":
    main()
