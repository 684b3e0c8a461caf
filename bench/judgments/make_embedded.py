#!/usr/bin/env python3
"""Drafts the embedded database's judgment set from real signals; `embedded.tsv` is its output,
reviewed by hand (rows dropped or their expected taxa corrected, never their queries invented).

    python3 bench/judgments/make_embedded.py > /tmp/draft.tsv

Signals, per language (en, de, fr, es):
- `group`: the database's own names of higher taxa (owls, Eulen, hiboux…), and their singulars
  (owl, Eule), meaning the group;
- `everyday`: the one-word titles of English Wikipedia articles about taxa the database holds
  (`../shared/data/wikipedia`, keyed by NCBI tax id, joined to the database by scientific name):
  in English the title itself (Owl, Lion), in the other languages the word the taxon's own name
  in that language is about (Hauskatze → Katze, Chat domestique → chat);
- `plural`: a species' preferred name in the plural (blue whales, Blauwale, baleines bleues);
- `typo`: one random edit (seeded) of a word of five letters or more of a species' preferred name;
- `other-source`: English names from the Mammal Diversity Database and AviList, English, French
  and Spanish names from the Catalogue of Life's CITES checklist, for species the database holds
  under other names (a word added, dropped, or spelled another way);
- `variant`: British and American spellings, hyphens, spaces and closed compounds of the
  database's names (grey/gray, black-tailed/black tailed, honeybee/honey bee);
- `child`: what children call animals (puppy, Kätzchen, chiot, perrito) and clipped words
  (hippo, rhino), written here, not taken from the engine's lexicon.

Columns: lang, query, expected (scientific names, `|` between alternatives any of which is
right), kind, source.
"""
import csv, gzip, io, os, random, re, sqlite3, sys, unicodedata

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import search_quality  # noqa: E402

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
DATA = os.path.normpath(os.path.join(ROOT, "..", "shared", "data"))
DB = os.path.join(ROOT, "Sources", "STOLEngine", "Resources", "default.sqlite")
LANGS = ["en", "de", "fr", "es"]
rng = random.Random(38)


def fold(s):
    return "".join(c for c in unicodedata.normalize("NFKD", s.lower()) if not unicodedata.combining(c))


def load():
    db = sqlite3.connect(f"file:{DB}?mode=ro", uri=True)
    taxa = {}
    for tid, sci, rank in db.execute("SELECT id, scientific_name, rank FROM taxa"):
        taxa[tid] = {"sci": sci, "rank": rank, "names": {}}
    for tid, name, lang, typ, pref in db.execute("SELECT taxon_id, name, lang, name_type, is_preferred FROM names ORDER BY id"):
        if typ == "synonym":
            continue
        taxa[tid]["names"].setdefault(lang, []).append(name)
    by_sci = {}
    for t in taxa.values():
        by_sci.setdefault(t["sci"], t)
    return taxa, by_sci


def all_folded(taxa, lang):
    out = {}
    for t in taxa.values():
        for n in t["names"].get(lang, []):
            out.setdefault(fold(n), set()).add(t["sci"])
    return out


def singular(word, lang):
    w = word
    if lang == "en":
        if w.endswith("ies"):
            return w[:-3] + "y"
        if w.endswith(("ches", "shes", "sses", "xes")):
            return w[:-2]
        if w.endswith("s") and not w.endswith("ss"):
            return w[:-1]
    elif lang == "de":
        for end in ("en", "e", "n"):
            if w.endswith(end) and len(w) - len(end) >= 3:
                return w[: -len(end)]
    elif lang == "fr":
        if w.endswith("aux"):
            return w[:-3] + "al"
        if w.endswith(("s", "x")):
            return w[:-1]
    elif lang == "es":
        if w.endswith("ces"):
            return w[:-3] + "z"
        if w.endswith("es") and w[-3] not in "aeiou":
            return w[:-2]
        if w.endswith("s"):
            return w[:-1]
    return None


def plural_en(w):
    low = w.lower()
    irregular = {"mouse": "mice", "goose": "geese", "wolf": "wolves", "fish": "fish", "deer": "deer", "sheep": "sheep", "moose": "moose"}
    for s, p in irregular.items():
        if low.endswith(s):
            return w[: len(w) - len(s)] + p
    if low.endswith(("s", "x", "z", "ch", "sh")):
        return w + "es"
    if low.endswith("y") and low[-2] not in "aeiou":
        return w[:-1] + "ies"
    if low.endswith("f"):
        return w[:-1] + "ves"
    return w + "s"


def plural_word(w, lang):
    low = w.lower()
    if lang == "en":
        return plural_en(w)
    if lang == "fr":
        if low.endswith(("s", "x", "z")):
            return w
        if low.endswith("al"):
            return w[:-2] + "aux"
        if low.endswith(("au", "eu")):
            return w + "x"
        return w + "s"
    if lang == "es":
        if low.endswith("z"):
            return w[:-1] + "ces"
        if low[-1] in "aeiouáéó":
            return w + "s"
        if low.endswith("ón"):
            return w[:-2] + "ones"
        if low.endswith("án"):
            return w[:-2] + "anes"
        return w + "es"
    return None


def plural(name, lang):
    words = name.split(" ")
    if lang == "en":
        return " ".join(words[:-1] + [plural_en(words[-1])])
    if lang in ("fr", "es"):
        # The head and the adjectives after it agree; words after de/du/del stay.
        out, stop = [], False
        for w in words:
            if w.lower() in ("de", "du", "des", "del", "d'", "la", "le") or "'" in w:
                stop = True
            out.append(w if stop else plural_word(w, lang))
        return " ".join(out)
    # German: only one-word names, in the plural the database's own family names use.
    if len(words) == 1:
        low = name.lower()
        for end, add in (("e", "n"), ("el", ""), ("er", ""), ("in", "nen")):
            if low.endswith(end):
                return name + add
        return name + "e"
    return None


def typo(text):
    """One random edit (`search_quality.typo`) inside a word of five letters or more of `text`."""
    words = [(m.start(), m.end()) for m in re.finditer(r"[^\W\d_]{5,}", text)]
    if not words:
        return None
    start, end = rng.choice(words)
    return text[:start] + search_quality.typo(rng, text[start:end], 1) + text[end:]


def wikipedia_titles():
    """Scientific name → one-word English Wikipedia title, through NCBI tax ids."""
    sci = {}
    with gzip.open(os.path.join(DATA, "ncbi", "names.dmp.gz"), "rt", encoding="utf-8") as f:
        for line in f:
            parts = line.split("\t|\t")
            if parts[3].startswith("scientific name"):
                sci[parts[0]] = parts[1]
    out = {}
    with gzip.open(os.path.join(DATA, "wikipedia", "ncbi-enwiki-intros.tsv.gz"), "rt", encoding="utf-8") as f:
        next(f)
        for line in f:
            taxid, _, title, _ = line.rstrip("\n").split("\t", 3)
            name = sci.get(taxid)
            if name and " " not in title and title != name and title.isalpha():
                out[name] = title
    return out


def other_sources(by_sci):
    """(lang, name, scientific name, source) from MDD, AviList and the CITES ColDP checklist."""
    out = []
    with gzip.open(os.path.join(DATA, "mdd", "MDD_v2.1_6801species.csv.gz"), "rt", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            sci = row["sciName"].replace("_", " ")
            if sci in by_sci:
                for name in [row["mainCommonName"]] + row["otherCommonNames"].split("|"):
                    if name and name != "NA":
                        out.append(("en", name, sci, "MDD v2.1"))
    with gzip.open(os.path.join(DATA, "avilist", "AviList-v2025-extended.csv.gz"), "rt", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            if row["Taxon_rank"] == "species" and row["Scientific_name"] in by_sci:
                for col in ("English_name_AviList", "English_name_Clements_v2024", "English_name_BirdLife_v9"):
                    if row[col]:
                        out.append(("en", row[col], row["Scientific_name"], "AviList v2025"))
    base = os.path.join(DATA, "coldp", "cites-appendix-i")
    usage = {}
    with open(os.path.join(base, "NameUsage.tsv"), encoding="utf-8") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            if row["status"] == "accepted":
                usage[row["ID"]] = row["scientificName"]
    codes = {"eng": "en", "fra": "fr", "spa": "es"}
    with open(os.path.join(base, "vernacular-name.tsv"), encoding="utf-8") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            sci = usage.get(row["taxonID"])
            if sci in by_sci and row["language"] in codes:
                out.append((codes[row["language"]], row["name"], sci, "CITES Appendix I (Catalogue of Life ColDP)"))
    return out


CHILD = {
    "en": [("puppy", "Canis familiaris"), ("doggy", "Canis familiaris"), ("kitty", "Felis catus"), ("kitten", "Felis catus"),
           ("bunny", "Oryctolagus cuniculus"), ("piggy", "Sus scrofa"), ("pony", "Equus caballus"), ("horsey", "Equus caballus"),
           ("hippo", "Hippopotamus amphibius"), ("rhino", "Rhinocerotidae"), ("croc", "Crocodylidae|Crocodylus niloticus"),
           ("gator", "Alligator mississippiensis|Alligator"), ("chimp", "Pan troglodytes"), ("roo", "Macropodidae|Osphranter rufus|Macropus giganteus"),
           ("birdie", "Aves"), ("ducky", "Anas platyrhynchos|Anatidae"), ("froggy", "Anura"), ("kitties", "Felis catus"), ("puppies", "Canis familiaris"),
           ("bunnies", "Oryctolagus cuniculus"), ("hippos", "Hippopotamus amphibius|Hippopotamidae"), ("rhinos", "Rhinocerotidae"),
           ("lamb", "Ovis aries"), ("calf", "Bos taurus"), ("foal", "Equus caballus"), ("chick", "Gallus gallus"), ("duckling", "Anas platyrhynchos|Anatidae"),
           ("tadpole", "Anura"), ("caterpillar", "Lepidoptera"), ("bumblebee", "Bombus|Bombus terrestris")],
    "de": [("Hündchen", "Canis familiaris"), ("Welpe", "Canis familiaris"), ("Kätzchen", "Felis catus"), ("Miezekatze", "Felis catus"),
           ("Häschen", "Oryctolagus cuniculus|Lepus europaeus"), ("Hase", "Lepus europaeus|Leporidae"), ("Nilpferd", "Hippopotamus amphibius"),
           ("Nashorn", "Rhinocerotidae"), ("Pony", "Equus caballus"), ("Küken", "Gallus gallus"), ("Entchen", "Anas platyrhynchos|Anatidae"),
           ("Schweinchen", "Sus scrofa"), ("Pferdchen", "Equus caballus"), ("Kaulquappe", "Anura"), ("Raupe", "Lepidoptera"),
           ("Hummel", "Bombus|Bombus terrestris"), ("Biene", "Apis mellifera|Anthophila|Apidae"), ("Krokodil", "Crocodylidae|Crocodylus niloticus"),
           ("Schimpanse", "Pan troglodytes"), ("Frosch", "Anura|Rana temporaria")],
    "fr": [("chiot", "Canis familiaris"), ("toutou", "Canis familiaris"), ("chaton", "Felis catus"), ("minou", "Felis catus"),
           ("lapinou", "Oryctolagus cuniculus"), ("hippo", "Hippopotamus amphibius"), ("rhino", "Rhinocerotidae"), ("poney", "Equus caballus"),
           ("poussin", "Gallus gallus"), ("caneton", "Anas platyrhynchos|Anatidae"), ("porcelet", "Sus scrofa"), ("poulain", "Equus caballus"),
           ("têtard", "Anura"), ("chenille", "Lepidoptera"), ("croco", "Crocodylidae|Crocodylus niloticus"), ("chimpanzé", "Pan troglodytes"),
           ("abeille", "Apis mellifera|Anthophila|Apidae"), ("bourdon", "Bombus|Bombus terrestris"), ("grenouille", "Anura|Rana temporaria"),
           ("agneau", "Ovis aries")],
    "es": [("perrito", "Canis familiaris"), ("cachorro", "Canis familiaris"), ("gatito", "Felis catus"), ("minino", "Felis catus"),
           ("conejito", "Oryctolagus cuniculus"), ("hipo", "Hippopotamus amphibius"), ("rino", "Rhinocerotidae"), ("poni", "Equus caballus"),
           ("pollito", "Gallus gallus"), ("patito", "Anas platyrhynchos|Anatidae"), ("cerdito", "Sus scrofa"), ("potrillo", "Equus caballus"),
           ("renacuajo", "Anura"), ("oruga", "Lepidoptera"), ("cocodrilo", "Crocodylidae|Crocodylus niloticus"), ("chimpancé", "Pan troglodytes"),
           ("abeja", "Apis mellifera|Anthophila|Apidae"), ("abejorro", "Bombus|Bombus terrestris"), ("rana", "Anura|Rana temporaria"),
           ("gallina", "Gallus gallus"), ("cordero", "Ovis aries")],
}


def main():
    taxa, by_sci = load()
    rows = []
    seen = set()

    def add(lang, query, expected, kind, source):
        key = (lang, fold(query))
        if key in seen or not query.strip():
            return
        seen.add(key)
        rows.append((lang, query, expected, kind, source))

    groups = [t for t in taxa.values() if t["rank"] in ("class", "order", "family")]
    for lang in LANGS:
        names = all_folded(taxa, lang)
        sample = [t for t in groups if lang in t["names"]]
        rng.shuffle(sample)
        n = 0
        for t in sample:
            name = t["names"][lang][0]
            if len(name.split()) > 2 or "," in name or " and " in name or " y " in name or " et " in name or " und " in name:
                continue
            add(lang, name.lower(), t["sci"], "group", "database name of a higher taxon")
            words = name.split()
            if len(words) == 1:
                s = singular(name.lower(), lang)
                if s and fold(s) not in names:
                    add(lang, s, t["sci"], "group", "singular of a database name of a higher taxon")
            n += 1
            if n == 14:
                break

    titles = wikipedia_titles()
    everyday = [(by_sci[s], title) for s, title in titles.items() if s in by_sci]
    everyday.sort(key=lambda x: x[1])
    for t, title in everyday:
        add("en", title.lower(), t["sci"], "everyday", "English Wikipedia article title")
        for lang in ("de", "fr", "es"):
            own = t["names"].get(lang)
            if own:
                add(lang, own[0], t["sci"], "everyday-head", "the taxon's name in the language (head to be reviewed)")

    for lang in LANGS:
        species = [t for t in taxa.values() if t["rank"] == "species" and lang in t["names"]]
        species.sort(key=lambda t: t["sci"])
        for t in rng.sample(species, 14):
            p = plural(t["names"][lang][0], lang)
            if p and fold(p) != fold(t["names"][lang][0]):
                add(lang, p.lower(), t["sci"], "plural", "the species' name in the plural")
        for t in rng.sample(species, 14):
            q = typo(t["names"][lang][0])
            if q:
                add(lang, q.lower(), t["sci"], "typo", "one random edit of the species' name")

    for lang, name, sci, source in other_sources(by_sci):
        own = {fold(n) for n in by_sci[sci]["names"].get(lang, [])}
        if fold(name) in own:
            continue
        if rng.random() < (0.12 if lang == "en" else 0.2):
            add(lang, name, sci, "other-source", source)

    for lang, items in CHILD.items():
        for q, expected in items:
            add(lang, q, expected, "child", "child word or clipped word")

    w = csv.writer(sys.stdout, delimiter="\t", lineterminator="\n")
    w.writerow(["lang", "query", "expected", "kind", "source"])
    for row in rows:
        w.writerow(row)


if __name__ == "__main__":
    main()
