"""The formatting the CLI and the browser share (``stol_client.format``), on answers shaped as
``protocol/README.md`` documents them."""

from __future__ import annotations

from stol_client.errors import EngineError, EngineExited
from stol_client.format import (CreditLine, comparison_facts, comparison_rows, error_detail,
                                error_message, fallback_language, label_parts, listed,
                                picture_credits, plain_label, readable_link, short_name,
                                similarity_words, taxon_id)


def taxon(name, rank, **more):
    return {"scientificName": name, "rank": rank, **more}


def drawn(result):
    return [f"{row.indent}{row.connector}{row.taxon['scientificName']}"
            + (f"  {row.mark}" if row.mark else "") for row in comparison_rows(result)]


def test_a_comparison_is_two_branches_joining_at_the_ancestor():
    felidae, panthera, felis = taxon("Felidae", "family"), taxon("Panthera", "genus"), taxon("Felis", "genus")
    leo, catus = taxon("Panthera leo", "species"), taxon("Felis catus", "species")
    assert drawn({"lca": felidae, "pathFromA": [leo, panthera, felidae],
                  "pathFromB": [catus, felis, felidae]}) == [
        "Felidae  ← common ancestor",
        "├─ Panthera",
        "│  └─ Panthera leo  A",
        "└─ Felis",
        "   └─ Felis catus  B",
    ]
    mammalia, carnivora, felidae = taxon("Mammalia", "class"), taxon("Carnivora", "order"), taxon("Felidae", "family")
    bear = taxon("Ursus arctos", "species")
    deep = drawn({"lca": mammalia, "pathFromA": [leo, panthera, felidae, carnivora, mammalia],
                  "pathFromB": [bear, mammalia]})
    assert deep[1:5] == ["├─ Carnivora", "│  └─ Felidae", "│     └─ Panthera", "│        └─ Panthera leo  A"]
    assert deep[5] == "└─ Ursus arctos  B"


def test_a_comparison_of_an_ancestor_and_of_one_taxon():
    panthera, leo = taxon("Panthera", "genus"), taxon("Panthera leo", "species")
    assert drawn({"lca": panthera, "pathFromA": [panthera], "pathFromB": [leo, panthera]}) == [
        "Panthera  ← common ancestor  (A)", "└─ Panthera leo  B"]
    assert drawn({"lca": leo, "pathFromA": [leo], "pathFromB": [leo]}) == [
        "Panthera leo  ← common ancestor  (A and B)"]


def test_comparison_facts():
    facts = comparison_facts({"taxonomicDistance": 1, "sharedCladeDescription": "Panthera leo is in genus Panthera",
                              "traitSimilarity": 0.5})
    assert facts == [("Distance", "1 step through the tree"),
                     ("Shared clade", "Panthera leo is in genus Panthera"),
                     ("Traits", "50% of their traits are shared")]
    assert similarity_words(None).startswith("not known")


def test_labels_read_the_documented_names_of_taxa_results_relatives_and_favourites():
    lion = {"id": 7, "rank": "species", "scientificName": "Panthera leo", "preferredCommonName": "Löwe",
            "preferredCommonNameLang": "de", "conservationStatus": "VU"}
    assert plain_label(lion, "de") == "species Panthera leo — Löwe"
    assert plain_label({"rankOrder": 1, "distance": 2, "taxon": lion}, "de-AT") == "species Panthera leo — Löwe"
    assert taxon_id({"rankOrder": 1, "taxon": lion}) == 7
    favourite = {"taxonId": 7, "available": True, "scientificName": "Panthera leo", "commonName": "Lion",
                 "commonNameLang": "en", "rank": "species"}
    assert plain_label(favourite, "fr") == "species Panthera leo — Lion [en]"
    assert taxon_id(favourite) == 7
    assert fallback_language(favourite, None) is None, "no language asked, nothing to mark"
    assert fallback_language(favourite, "en_GB") is None
    label = label_parts(lion, "de")
    assert (label.italic, label.conservation, label.common_lang) == (True, "VU", None)
    # Keys the protocol never sends are not read.
    assert plain_label({"scientificName": "Canis lupus", "rank": "species", "vernacularName": "Wolf",
                        "canonicalName": "Canis"}) == "species Canis lupus"
    assert plain_label({"scientificName": "Mammalia"}) == "clade Mammalia"
    assert short_name(lion) == "Panthera leo (Löwe)"


def test_a_homonym_carries_what_tells_it_apart():
    morus = {"id": 1, "rank": "genus", "scientificName": "Morus",
             "disambiguation": {"ancestorId": 2, "ancestorName": "Aves", "ancestorRank": "class",
                                "display": "Morus (genus in Aves)"}}
    assert plain_label(morus) == "genus Morus (genus in Aves)"
    assert short_name(morus) == "Morus (genus in Aves)"


def test_lists_are_the_documented_ones():
    assert listed({"results": [1], "nextCursor": "x"}) == [1]
    assert listed({"favorites": [2]}) == [2]
    assert listed({"relatives": [3], "source": "precomputed"}) == [3]
    assert listed({"items": [4]}) is None, "not a key any method answers with"


def test_error_messages_are_sentences_with_the_kind():
    assert error_message(EngineError(-32002, "Not found", {"kind": "taxonNotFound", "id": 42})) \
        == "That taxon is not in the active database. (taxonNotFound)"
    assert error_message(EngineError(-32003, "Odd thing", {"kind": "somethingNew"})) \
        == "Odd thing (somethingNew)"
    assert "Ctrl+R" in error_message(EngineExited(1))
    wrong = EngineError(-32020, "not a .stol file: wrong magic bytes",
                        {"kind": "notAStolFile", "detail": "wrong magic bytes"})
    assert error_message(wrong) == "This is not a .stol database file. (notAStolFile)"
    assert error_detail(wrong) == "wrong magic bytes"
    assert error_detail(EngineError(-32002, "Not found", {"kind": "taxonNotFound"})) is None
    assert error_detail(EngineExited(1)) is None


def test_a_bundled_photographs_credits_name_author_licence_and_source():
    dog = {"taxonId": 7, "mimeType": "image/jpeg", "width": 160, "height": 120, "packId": "bundled",
           "credit": "Photo: Hans Kemperman, Wikimedia Commons", "author": "Hans Kemperman",
           "license": "Public Domain", "depicts": "Canis lupus familiaris",
           "source": "https://commons.wikimedia.org/wiki/File:German-shepherd-4040871920._(2).jpg"}
    assert picture_credits(dog) == [
        CreditLine("", "Photo: Hans Kemperman, Wikimedia Commons"),
        CreditLine("Licence", "Public Domain"),
        CreditLine("Source", "commons.wikimedia.org/wiki/File:German-shepherd-4040871920._(2).jpg",
                   dog["source"]),
        CreditLine("Shows", "Canis lupus familiaris"),
    ], "the author is in the credit already; what the photo shows is said when it is another name"


def test_a_packs_picture_of_the_genus_says_so_and_names_an_author_the_credit_lacks():
    image = {"taxonId": 4, "credit": "Drawing: C. Person", "author": "Someone Else",
             "license": "CC0 1.0", "packId": "big-cats",
             "fallbackFrom": {"taxonId": 4, "rank": "genus", "scientificName": "Panthera"}}
    assert [(line.label, line.words) for line in picture_credits(image)] == [
        ("", "Picture of the genus Panthera"), ("", "Drawing: C. Person"), ("By", "Someone Else"),
        ("Licence", "CC0 1.0")]
    assert picture_credits({"credit": ""}) == [CreditLine("Licence", "not given")]


def test_a_source_address_reads_as_it_is_typed():
    assert readable_link("https://commons.wikimedia.org/wiki/File:Spielendes_K%C3%A4tzchen.JPG") \
        == "commons.wikimedia.org/wiki/File:Spielendes_Kätzchen.JPG"
    assert readable_link("http://example.org/a%20b") == "example.org/a b"
    assert readable_link("ftp://x/y") == "ftp://x/y"
