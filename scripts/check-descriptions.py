#!/usr/bin/env python3
"""Checks the embedded dataset's own descriptions, `dataset/default/descriptions.tsv`.

The file is UTF-8, tab-separated, with the header `scientific_name<TAB>lang<TAB>text` and one
row per species and language (dataset/FORMAT.md). This script checks, with the standard library
only, that:

- the header is exactly that, and every row has three non-empty fields, with no tab or newline
  inside a text and no space around it;
- every scientific name is a species of the `.taxa` files, and every language is en, de, fr or es;
- no species and language appears twice;
- every text is one to three sentences and at most MAX_CHARS characters long;
- every described species has all four languages, and at least --min-species species are described;
- every number written in a text (a size, a lifespan, a date) is one of the numbers in that
  species' traits or its year of description: facts with numbers must come from the data.

Usage: python3 scripts/check-descriptions.py [--taxa DIR] [--min-species N]
Prints one line per problem (file:line: message) and exits 1 if there is any.
"""
import argparse
import pathlib
import re
import sys

HEADER = ["scientific_name", "lang", "text"]
LANGUAGES = ("en", "de", "fr", "es")
MAX_CHARS = 320
RANKS = ("domain", "kingdom", "phylum", "class", "order", "family", "genus", "species")

# A number as written in a text: digits, with thousands grouped by `,` in English and by a dot or a
# (narrow) space elsewhere, and a decimal `.` in English and `,` elsewhere.
THOUSANDS = {"en": r",", "de": r"[.\u00a0\u202f ]", "fr": r"[.\u00a0\u202f ]", "es": r"[.\u00a0\u202f ]"}
DECIMAL = {"en": ".", "de": ",", "fr": ",", "es": ","}


def numbers(text, lang):
    """The numeric values written in `text`, read with the conventions of `lang`."""
    grouped = re.sub(r"(?<=\d)" + THOUSANDS[lang] + r"(?=\d{3}(?!\d))", "", text)
    point = re.escape(DECIMAL[lang])
    return {float(m.replace(DECIMAL[lang], ".")) for m in re.findall(r"\d+(?:" + point + r"\d+)?", grouped)}


def species_facts(directory):
    """{scientific name: set of numbers its traits and year allow} for every species of the .taxa files."""
    facts = {}
    for path in sorted(directory.glob("*.taxa")):
        current = None
        for line in path.read_text(encoding="utf-8").splitlines():
            stripped = line.strip()
            if not stripped or stripped.startswith("#"):
                continue
            if not line.startswith(" "):
                rank, _, name = stripped.partition(" ")
                current = name.strip() if rank == "species" else None
                if current is not None:
                    facts.setdefault(current, set())
                continue
            if current is None:
                continue
            key, _, value = stripped.partition(" ")
            if key == "trait":
                facts[current] |= numbers(value.partition(":")[2], "en")
            elif key == "year" and value.isdigit():
                facts[current].add(float(value))
    return facts


def sentence_count(text):
    """Sentences in `text`: runs ending in `.`, `!` or `?` followed by a space or the end."""
    return len(re.findall(r"[.!?](?:\s|$)", text)) or 1


def check(path, facts, min_species):
    problems = []

    def problem(line, message):
        problems.append(f"{path}:{line}: {message}")

    try:
        lines = path.read_bytes().decode("utf-8").split("\n")
    except UnicodeDecodeError as error:
        return [f"{path}: not UTF-8 ({error})"], {}
    if lines and lines[-1] == "":
        lines.pop()
    if not lines or lines[0].split("\t") != HEADER:
        problem(1, "the header must be exactly " + "<TAB>".join(HEADER))
    seen = {}
    for number, line in enumerate(lines[1:], start=2):
        if line.endswith("\r"):
            problem(number, "carriage return at the end of the line")
            line = line[:-1]
        fields = line.split("\t")
        if len(fields) != 3:
            problem(number, f"expected 3 tab-separated fields, found {len(fields)}")
            continue
        name, lang, text = fields
        if name not in facts:
            problem(number, f"{name!r} is not a species in the .taxa files")
        if lang not in LANGUAGES:
            problem(number, f"language {lang!r} is not one of {', '.join(LANGUAGES)}")
        if (name, lang) in seen:
            problem(number, f"{name} [{lang}] repeats line {seen[(name, lang)]}")
        seen[(name, lang)] = number
        if not text.strip():
            problem(number, "empty text")
            continue
        if text != text.strip() or "  " in text:
            problem(number, "space at the start or end of the text, or two spaces in a row")
        if len(text) > MAX_CHARS:
            problem(number, f"{len(text)} characters (at most {MAX_CHARS})")
        if sentence_count(text) > 3:
            problem(number, f"{sentence_count(text)} sentences (at most 3)")
        if lang in LANGUAGES and name in facts:
            stray = sorted(numbers(text, lang) - facts[name])
            if stray:
                shown = ", ".join(f"{value:g}" for value in stray)
                problem(number, f"{name} [{lang}]: {shown} is in no trait of the species (nor its year)")
    described = {}
    for name, lang in seen:
        described.setdefault(name, set()).add(lang)
    for name, langs in sorted(described.items()):
        missing = [lang for lang in LANGUAGES if lang not in langs]
        if missing:
            problem(seen[(name, sorted(langs)[0])], f"{name} has no text in {', '.join(missing)}")
    complete = sum(1 for langs in described.values() if set(LANGUAGES) <= langs)
    if complete < min_species:
        problems.append(f"{path}: {complete} species have all four languages (at least {min_species} expected)")
    return problems, described


def main():
    root = pathlib.Path(__file__).resolve().parent.parent
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--taxa", type=pathlib.Path, default=root / "dataset" / "default",
                        help="the .taxa directory holding descriptions.tsv (default: dataset/default)")
    parser.add_argument("--min-species", type=int, default=200)
    args = parser.parse_args()
    path = args.taxa / "descriptions.tsv"
    if not path.is_file():
        print(f"{path}: missing", file=sys.stderr)
        return 1
    facts = species_facts(args.taxa)
    problems, described = check(path, facts, args.min_species)
    for line in problems:
        print(line, file=sys.stderr)
    rows = sum(len(langs) for langs in described.values())
    print(f"{path.name}: {len(described)} species, {rows} texts, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
