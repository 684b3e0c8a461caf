#!/usr/bin/env python3
"""Writes a checklist shaped like the biggest real ones, for measuring build-db at their size.

    python3 bench/make_checklist.py dwca  --usages 8000000 --out /tmp/gbif-like.zip
    python3 bench/make_checklist.py coldp --usages 5000000 --out /tmp/col-like      # a folder
    python3 bench/make_checklist.py dwca  --usages 20000 --out /tmp/small.zip --seed 3

`dwca` is shaped like GBIF's backbone (a Darwin Core Archive: `Taxon.tsv` core, tab-separated and
unquoted, `VernacularName.tsv` extension, `meta.xml`); `coldp` like Catalogue of Life's data package
(`NameUsage.tsv`, `VernacularName.tsv`, `metadata.yaml`). The same seed writes the same bytes.

The shape, as in the real backbones (GBIF 2023: 7.7 M usages, 40 % synonyms, 4.0 M accepted):
- eight kingdoms, about 100 phyla, 350 classes, 1,500 orders, 1/270 of the usages families;
- genus and species sizes drawn from heavy-tailed (Zipf-like) laws, so a few genera hold thousands
  of species (as Astragalus does) and most hold one to five; 8 % of the accepted usages are
  subspecies, varieties or forms (build-db drops them and counts them);
- 40 % synonyms (`synonym`, `heterotypic synonym`, `homotypic synonym`, `proparte synonym`, the
  last repeated under two accepted names), 5 % `doubtful`;
- homonyms: 3 % of genus names are used again in another kingdom, with their own species;
- taxon ids scattered over a 31-bit range (a bijection of the row number), and half the genera
  written after their species, so parents often come after their children;
- vernacular names for about 10 % of the accepted species (over a million at 8 M usages), in 60
  languages: most as ISO 639-1 codes, some as ISO 639-2/3 codes and English language names, as
  GBIF's own file has them.

Names are made of syllables: unique within a kingdom (a number written in a syllable alphabet), so
every duplicate is an intended homonym. Nothing here is real data.
"""
import argparse, array, io, os, random, sys, zipfile

SYLLABLES = [c + v for c in "bcdfghklmnprstvz" for v in "aeiou"] + ["th" + v for v in "aeiou"] + ["ch" + v for v in "aeiou"]
GENUS_ENDINGS = ["us", "a", "um", "ia", "ella", "opsis", "ites", "on", "ina", "ax"]
EPITHET_ENDINGS = ["us", "a", "um", "is", "ensis", "ii", "ae", "ata", "oides", "icola"]
KINGDOMS = ["Animalia", "Plantae", "Fungi", "Chromista", "Protozoa", "Bacteria", "Archaea", "Viruses"]
KINGDOM_SHARE = [0.62, 0.22, 0.09, 0.03, 0.01, 0.02, 0.003, 0.007]
AUTHORS = ["Linnaeus", "Fabricius", "Walker", "Schaus", "Thomson", "Pic", "Candèze", "Fauvel", "Jacoby",
           "Sharp", "Bates", "Meyrick", "Warren", "Strand", "Roewer", "Simon", "Kieffer", "Mueller",
           "Hook.f.", "Benth.", "DC.", "Willd.", "Kunth", "Rchb.f.", "Pers.", "Fr.", "Sacc.", "Berk."]
ISO1 = ["en", "de", "fr", "es", "pt", "it", "nl", "sv", "da", "no", "fi", "pl", "cs", "sk", "hu", "ro",
        "ru", "uk", "bg", "el", "tr", "ar", "he", "fa", "hi", "bn", "ta", "th", "vi", "id", "ms", "zh",
        "ja", "ko", "et", "lv", "lt", "sl", "hr", "sr", "is", "ga", "cy", "eu", "ca", "gl", "af", "sw",
        "zu", "mi"]
ISO3 = ["eng", "deu", "fra", "spa", "por", "nld", "haw", "nav", "que", "grn"]
LANGUAGE_NAMES = ["English", "German", "French", "Spanish", "Japanese", "Chinese", "Maori", "Hawaiian"]
WORDS = ["common", "great", "lesser", "spotted", "striped", "golden", "black", "white", "red", "blue",
         "green", "mountain", "river", "sea", "forest", "desert", "giant", "dwarf", "long-tailed",
         "short-eared", "marsh", "rock", "sand", "tree", "water", "field", "wood", "alpine", "northern",
         "southern", "eastern", "western"]
HEADS = ["beetle", "moth", "fly", "wasp", "spider", "snail", "fern", "moss", "orchid", "grass", "sedge",
         "mushroom", "lichen", "fish", "frog", "lizard", "snake", "bird", "warbler", "mouse", "bat",
         "shrub", "tree", "lily", "daisy", "crab", "shrimp", "worm", "bee", "ant"]


def syllable_word(n, minimum):
    """The number n as a word of at least `minimum` syllables: distinct numbers give distinct words."""
    parts = []
    while True:
        parts.append(SYLLABLES[n % len(SYLLABLES)])
        n //= len(SYLLABLES)
        if n == 0 and len(parts) >= minimum:
            break
    return "".join(parts)


def scatter(n):
    """A bijection of 0 ..< 2^31 (odd multiplier, xor-shift): row numbers become scattered ids."""
    x = (n * 0x5DEECE6D + 0x2545F491) & 0x7FFFFFFF
    x ^= x >> 13
    return (x * 0x2C1B3C6D) & 0x7FFFFFFF


class Usages:
    """Generates the usages in tree order and hands each row to the writer as it is made."""

    def __init__(self, total, seed, write_taxon, write_vernacular):
        self.total = total
        self.rng = random.Random(seed)
        self.write_taxon = write_taxon
        self.write_vernacular = write_vernacular
        self.row = 0
        self.ids_used = set()
        self.accepted_species = array.array("q")      # ids a synonym may point at
        self.accepted_names = []                     # (id, genus, epithet) of a sample, for synonyms
        self.counts = {"accepted": 0, "doubtful": 0, "synonym": 0, "infraspecific": 0, "vernacular": 0, "homonym genera": 0}
        self.homonym_pool = []                       # genus names to reuse in another kingdom

    def next_id(self):
        self.row += 1
        value = scatter(self.row) + 1
        while value in self.ids_used:                # the bijection never repeats, but keep 0 out
            value += 1
        return value

    def zipf(self, alpha, cap):
        """A heavy-tailed size >= 1: most are 1 to 5, a few reach `cap`."""
        return min(cap, int(self.rng.paretovariate(alpha)))

    def author(self):
        a = self.rng.choice(AUTHORS)
        year = self.rng.randint(1758, 2023)
        return f"({a}, {year})" if self.rng.random() < 0.4 else f"{a}, {year}"

    def emit(self, **row):
        self.write_taxon(row)

    def vernaculars(self, taxon_id):
        r = self.rng.random()
        if r >= 0.10:
            return
        count = 1 + self.zipf(1.6, 40)
        for _ in range(count):
            pick = self.rng.random()
            if pick < 0.86:
                lang = ISO1[min(len(ISO1) - 1, int(self.rng.paretovariate(0.9)) - 1)]
            elif pick < 0.95:
                lang = self.rng.choice(ISO3)
            else:
                lang = self.rng.choice(LANGUAGE_NAMES)
            name = f"{self.rng.choice(WORDS)} {self.rng.choice(HEADS)}"
            if self.rng.random() < 0.3:
                name = f"{self.rng.choice(WORDS)} {name}"
            self.write_vernacular(taxon_id, name.capitalize() if self.rng.random() < 0.5 else name, lang)
            self.counts["vernacular"] += 1

    def run(self):
        accepted_budget = int(self.total * 0.60)
        made_accepted = 0
        phylum_n = class_n = order_n = family_n = 0
        genus_n = [0] * len(KINGDOMS)
        for k, kingdom in enumerate(KINGDOMS):
            kingdom_id = self.next_id()
            self.emit(id=kingdom_id, parent="", accepted="", status="accepted", rank="kingdom", name=kingdom,
                      author="", kingdom=kingdom, genus="", epithet="", infra="")
            self.counts["accepted"] += 1
            budget = int(accepted_budget * KINGDOM_SHARE[k])
            spent = 0
            phyla = max(1, int(100 * KINGDOM_SHARE[k] ** 0.5))
            for _ in range(phyla):
                phylum_n += 1
                phylum_id = self.next_id()
                phylum = syllable_word(phylum_n, 3).capitalize() + "phyta"
                self.emit(id=phylum_id, parent=kingdom_id, accepted="", status="accepted", rank="phylum",
                          name=phylum, author="", kingdom=kingdom, genus="", epithet="", infra="")
                for _ in range(self.rng.randint(1, 7)):
                    class_n += 1
                    class_id = self.next_id()
                    self.emit(id=class_id, parent=phylum_id, accepted="", status="accepted", rank="class",
                              name=syllable_word(class_n, 3).capitalize() + "ea", author="", kingdom=kingdom,
                              genus="", epithet="", infra="")
                    for _ in range(self.rng.randint(1, 8)):
                        order_n += 1
                        order_id = self.next_id()
                        self.emit(id=order_id, parent=class_id, accepted="", status="accepted", rank="order",
                                  name=syllable_word(order_n, 3).capitalize() + "ales", author="", kingdom=kingdom,
                                  genus="", epithet="", infra="")
                        families = self.zipf(0.9, 400) + 2
                        for _ in range(families):
                            if spent >= budget:
                                break
                            family_n += 1
                            family_id = self.next_id()
                            self.emit(id=family_id, parent=order_id, accepted="", status="accepted", rank="family",
                                      name=syllable_word(family_n, 3).capitalize() + "idae", author=self.author(),
                                      kingdom=kingdom, genus="", epithet="", infra="")
                            spent += 1 + self.family(family_id, kingdom, k, genus_n, budget - spent)
                        if spent >= budget:
                            break
                    if spent >= budget:
                        break
                if spent >= budget:
                    break
            made_accepted += spent
        # Synonyms: 40 % of all usages, pointing at accepted species (and a few genera).
        synonyms = self.total - self.row
        statuses = ["synonym", "heterotypic synonym", "homotypic synonym"]
        for _ in range(max(0, synonyms)):
            if self.row >= self.total:
                break
            target = self.accepted_species[self.rng.randrange(len(self.accepted_species))]
            genus = syllable_word(self.rng.randrange(1, 4_000_000), 2).capitalize() + self.rng.choice(GENUS_ENDINGS)
            epithet = syllable_word(self.rng.randrange(1, 900_000), 2) + self.rng.choice(EPITHET_ENDINGS)
            if self.rng.random() < 0.02:
                # Pro parte: the same name, a synonym of two accepted names.
                for _ in range(2):
                    self.emit(id=self.next_id(), parent="", accepted=target, status="proparte synonym", rank="species",
                              name=f"{genus} {epithet}", author=self.author(), kingdom="", genus=genus, epithet=epithet, infra="")
                    target = self.accepted_species[self.rng.randrange(len(self.accepted_species))]
                    self.counts["synonym"] += 1
                continue
            self.emit(id=self.next_id(), parent="", accepted=target, status=self.rng.choice(statuses), rank="species",
                      name=f"{genus} {epithet}", author=self.author(), kingdom="", genus=genus, epithet=epithet, infra="")
            self.counts["synonym"] += 1

    def family(self, family_id, kingdom, k, genus_n, budget):
        """Genera and species of one family; returns how many accepted usages it wrote."""
        written = 0
        for _ in range(self.zipf(0.8, 1200)):
            if written >= budget:
                break
            genus_n[k] += 1
            if self.homonym_pool and self.rng.random() < 0.03:
                genus = self.homonym_pool.pop()
                self.counts["homonym genera"] += 1
            else:
                genus = syllable_word(genus_n[k] * 8 + k, 2).capitalize() + GENUS_ENDINGS[genus_n[k] % len(GENUS_ENDINGS)]
                if self.rng.random() < 0.03:
                    self.homonym_pool.append(genus)
            genus_id = self.next_id()
            species_rows = []
            for s in range(self.zipf(1.0, 3000)):
                species_id = self.next_id()
                epithet = syllable_word(s + 1, 2) + EPITHET_ENDINGS[(s + genus_n[k]) % len(EPITHET_ENDINGS)]
                status = "doubtful" if self.rng.random() < 0.05 else "accepted"
                species_rows.append(dict(id=species_id, parent=genus_id, accepted="", status=status, rank="species",
                                         name=f"{genus} {epithet}", author=self.author(), kingdom=kingdom,
                                         genus=genus, epithet=epithet, infra=""))
                if status == "accepted":
                    self.accepted_species.append(species_id)
                if self.rng.random() < 0.08:
                    rank = self.rng.choice(["subspecies", "subspecies", "variety", "form"])
                    marker = {"subspecies": "", "variety": " var.", "form": " f."}[rank]
                    infra = syllable_word(self.rng.randrange(1, 5000), 2) + "a"
                    species_rows.append(dict(id=self.next_id(), parent=species_id, accepted="", status="accepted", rank=rank,
                                             name=f"{genus} {epithet}{marker} {infra}", author=self.author(), kingdom=kingdom,
                                             genus=genus, epithet=epithet, infra=infra))
                    self.counts["infraspecific"] += 1
            genus_row = dict(id=genus_id, parent=family_id, accepted="", status="accepted", rank="genus", name=genus,
                             author=self.author(), kingdom=kingdom, genus=genus, epithet="", infra="")
            rows = species_rows + [genus_row] if self.rng.random() < 0.5 else [genus_row] + species_rows
            for row in rows:
                self.emit(**row)
                if row["status"] == "doubtful":
                    self.counts["doubtful"] += 1
                else:
                    self.counts["accepted"] += 1
                if row["rank"] == "species":
                    self.vernaculars(row["id"])
            written += len(rows)
            if self.row >= self.total * 0.6:
                break
        return written


DWCA_META = """<?xml version="1.0" encoding="UTF-8"?>
<archive xmlns="http://rs.tdwg.org/dwc/text/" metadata="eml.xml">
  <core encoding="UTF-8" fieldsTerminatedBy="\\t" linesTerminatedBy="\\n" fieldsEnclosedBy="" ignoreHeaderLines="1" rowType="http://rs.tdwg.org/dwc/terms/Taxon">
    <files><location>Taxon.tsv</location></files>
    <id index="0"/>
    <field index="0" term="http://rs.tdwg.org/dwc/terms/taxonID"/>
    <field index="1" term="http://rs.tdwg.org/dwc/terms/parentNameUsageID"/>
    <field index="2" term="http://rs.tdwg.org/dwc/terms/acceptedNameUsageID"/>
    <field index="3" term="http://rs.tdwg.org/dwc/terms/scientificName"/>
    <field index="4" term="http://rs.tdwg.org/dwc/terms/scientificNameAuthorship"/>
    <field index="5" term="http://rs.tdwg.org/dwc/terms/canonicalName"/>
    <field index="6" term="http://rs.tdwg.org/dwc/terms/genericName"/>
    <field index="7" term="http://rs.tdwg.org/dwc/terms/specificEpithet"/>
    <field index="8" term="http://rs.tdwg.org/dwc/terms/infraspecificEpithet"/>
    <field index="9" term="http://rs.tdwg.org/dwc/terms/taxonRank"/>
    <field index="10" term="http://rs.tdwg.org/dwc/terms/taxonomicStatus"/>
    <field index="11" term="http://rs.tdwg.org/dwc/terms/kingdom"/>
  </core>
  <extension encoding="UTF-8" fieldsTerminatedBy="\\t" linesTerminatedBy="\\n" fieldsEnclosedBy="" ignoreHeaderLines="1" rowType="http://rs.gbif.org/terms/1.0/VernacularName">
    <files><location>VernacularName.tsv</location></files>
    <coreid index="0"/>
    <field index="1" term="http://rs.tdwg.org/dwc/terms/vernacularName"/>
    <field index="2" term="http://purl.org/dc/terms/language"/>
  </extension>
</archive>
"""


class BufferedText:
    """Lines collected and written in large pieces (a zip entry or a file)."""

    def __init__(self, sink):
        self.sink = sink
        self.lines = []

    def add(self, line):
        self.lines.append(line)
        if len(self.lines) >= 50_000:
            self.flush()

    def flush(self):
        if self.lines:
            self.sink.write(("\n".join(self.lines) + "\n").encode())
            self.lines = []


def clean(text):
    return str(text).replace("\t", " ").replace("\n", " ")


def write_dwca(args):
    temp = args.out + ".part"
    archive = zipfile.ZipFile(temp, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=1, allowZip64=True)
    archive.writestr("meta.xml", DWCA_META)
    archive.writestr("eml.xml", '<?xml version="1.0"?><eml:eml xmlns:eml="eml://ecoinformatics.org/eml-2.1.1"><dataset><title>A made-up checklist shaped like GBIF\'s backbone</title></dataset></eml:eml>\n')
    # Vernacular names go to a side file first: a zip writes one entry at a time.
    vernacular_path = args.out + ".vernacular.part"
    vernacular_file = open(vernacular_path, "wb")
    vernacular = BufferedText(vernacular_file)
    vernacular.add("taxonID\tvernacularName\tlanguage")
    with archive.open("Taxon.tsv", "w", force_zip64=True) as core_file:
        core = BufferedText(core_file)
        core.add("taxonID\tparentNameUsageID\tacceptedNameUsageID\tscientificName\tscientificNameAuthorship\tcanonicalName\tgenericName\tspecificEpithet\tinfraspecificEpithet\ttaxonRank\ttaxonomicStatus\tkingdom")

        def taxon(row):
            core.add("\t".join(clean(x) for x in (
                row["id"], row["parent"], row["accepted"], f'{row["name"]} {row["author"]}'.strip(), row["author"],
                row["name"], row["genus"], row["epithet"], row["infra"], row["rank"], row["status"], row["kingdom"])))

        usages = Usages(args.usages, args.seed, taxon, lambda t, n, l: vernacular.add(f"{t}\t{clean(n)}\t{l}"))
        usages.run()
        core.flush()
    vernacular.flush()
    vernacular_file.close()
    with archive.open("VernacularName.tsv", "w", force_zip64=True) as entry, open(vernacular_path, "rb") as source:
        while chunk := source.read(1 << 22):
            entry.write(chunk)
    os.remove(vernacular_path)
    archive.close()
    os.replace(temp, args.out)
    return usages


def write_coldp(args):
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "NameUsage.tsv"), "wb") as usage_file, \
         open(os.path.join(args.out, "VernacularName.tsv"), "wb") as vernacular_file:
        usage = BufferedText(usage_file)
        vernacular = BufferedText(vernacular_file)
        usage.add("col:ID\tcol:parentID\tcol:status\tcol:rank\tcol:scientificName\tcol:authorship")
        vernacular.add("col:taxonID\tcol:name\tcol:language")
        iso3 = {"en": "eng", "de": "deu", "fr": "fra", "es": "spa", "pt": "por", "it": "ita", "nl": "nld", "ru": "rus", "zh": "zho", "ja": "jpn"}
        coldp_status = {"accepted": "accepted", "doubtful": "provisionally accepted", "synonym": "synonym",
                        "heterotypic synonym": "synonym", "homotypic synonym": "synonym", "proparte synonym": "ambiguous synonym"}

        def taxon(row):
            parent = row["accepted"] if row["accepted"] != "" else row["parent"]
            usage.add("\t".join(clean(x) for x in (row["id"], parent, coldp_status[row["status"]], row["rank"], row["name"], row["author"])))

        def name(taxon_id, text, lang):
            vernacular.add(f"{taxon_id}\t{clean(text)}\t{iso3.get(lang, lang if len(lang) == 3 else 'und')}")

        usages = Usages(args.usages, args.seed, taxon, name)
        usages.run()
        usage.flush()
        vernacular.flush()
    with open(os.path.join(args.out, "metadata.yaml"), "w") as f:
        f.write("title: A made-up checklist shaped like Catalogue of Life\nlicense: CC0\n")
    return usages


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("format", choices=["dwca", "coldp"])
    parser.add_argument("--usages", type=int, default=8_000_000, help="name usages to write (default 8,000,000)")
    parser.add_argument("--out", required=True, help="a .zip for dwca, a folder for coldp")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    usages = write_dwca(args) if args.format == "dwca" else write_coldp(args)
    counts = ", ".join(f"{k} {v:,}" for k, v in usages.counts.items())
    print(f"{args.out}: {usages.row:,} usages ({counts})", file=sys.stderr)


if __name__ == "__main__":
    main()
