-- stol taxonomy database, schema version 1: the specification's schema (DataLoading.md §3,
-- ../shared/spec/schema-v1.sql) as written there, with two changes, marked below: `taxa.rank` may
-- be NULL, and may also be 'subspecies' or 'variety'. The engine's additions are listed in one place, Database/SchemaExtensions.swift, and
-- are created after this file (protocol/README.md, "Taxonomy database schema").

CREATE TABLE schema_version (
    version     INTEGER NOT NULL,
    applied_at  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now'))
);
-- Always contains exactly one row.
INSERT INTO schema_version (version) VALUES (1);
CREATE TABLE taxa (
    id              INTEGER PRIMARY KEY,
    parent_id       INTEGER REFERENCES taxa(id),
    rank            TEXT    -- NULL for unranked taxa: engine extension `nullableRank`
        -- 'subspecies' and 'variety' (named taxa below species): engine extension `ranksBelowSpecies`
        CHECK (rank IN ('domain','kingdom','phylum','class','order','family','genus','species','subspecies','variety')),
    scientific_name TEXT    NOT NULL,
    author          TEXT,
    year            INTEGER,
    status          TEXT    NOT NULL DEFAULT 'accepted'
        CHECK (status IN ('accepted','synonym','doubtful')),
    conservation    TEXT    -- IUCN code: 'LC','NT','VU','EN','CR','EW','EX','NE','DD'
);

CREATE INDEX idx_taxa_parent ON taxa(parent_id);
CREATE INDEX idx_taxa_rank   ON taxa(rank);
CREATE INDEX idx_taxa_status ON taxa(status);
CREATE INDEX idx_taxa_name   ON taxa(scientific_name);
CREATE TABLE names (
    id          INTEGER PRIMARY KEY,
    taxon_id    INTEGER NOT NULL REFERENCES taxa(id) ON DELETE CASCADE,
    name        TEXT    NOT NULL,
    lang        TEXT    NOT NULL,   -- BCP-47 language tag, e.g. 'en', 'es', 'zh-Hans'
    name_type   TEXT    NOT NULL
        CHECK (name_type IN ('common','synonym','vernacular','trade')),
    is_preferred INTEGER NOT NULL DEFAULT 0  -- 1 = preferred common name for this language
);

CREATE INDEX idx_names_taxon ON names(taxon_id);
CREATE INDEX idx_names_lang  ON names(lang);
CREATE INDEX idx_names_type  ON names(name_type);
CREATE TABLE refs (
    id          INTEGER PRIMARY KEY,
    taxon_id    INTEGER NOT NULL REFERENCES taxa(id) ON DELETE CASCADE,
    citation    TEXT    NOT NULL,
    url         TEXT,               -- DOI or static URL (displayed as text in v1; not fetched)
    ref_type    TEXT    NOT NULL
        CHECK (ref_type IN ('taxonomy','ecology','morphology','conservation','other'))
);

CREATE INDEX idx_refs_taxon ON refs(taxon_id);
CREATE TABLE traits (
    id          INTEGER PRIMARY KEY,
    taxon_id    INTEGER NOT NULL REFERENCES taxa(id) ON DELETE CASCADE,
    trait_key   TEXT    NOT NULL,   -- e.g. 'habitat', 'diet', 'body_length_mm'
    trait_value TEXT    NOT NULL,
    unit        TEXT,               -- SI unit if numeric; NULL if categorical
    source_ref  INTEGER REFERENCES refs(id)
);

CREATE INDEX idx_traits_taxon ON traits(taxon_id);
CREATE INDEX idx_traits_key   ON traits(trait_key);
-- Euler-tour DFS sequence: each node appears (2 * depth + 1) times.
-- Length of tour = 2N - 1 for a tree of N nodes.
CREATE TABLE euler_tour (
    seq         INTEGER PRIMARY KEY,
    taxon_id    INTEGER NOT NULL REFERENCES taxa(id),
    depth       INTEGER NOT NULL
);

-- First position in the Euler tour where each taxon appears.
CREATE TABLE first_occurrence (
    taxon_id    INTEGER PRIMARY KEY REFERENCES taxa(id),
    seq         INTEGER NOT NULL
);
-- Only populated for leaf taxa (rank = 'species').
-- Default N = 10 at pipeline build time.
CREATE TABLE top_n_relatives (
    taxon_id    INTEGER NOT NULL REFERENCES taxa(id),
    relative_id INTEGER NOT NULL REFERENCES taxa(id),
    rank_order  INTEGER NOT NULL,   -- 1 = closest
    lca_id      INTEGER NOT NULL REFERENCES taxa(id),
    lca_depth   INTEGER NOT NULL,
    distance    INTEGER NOT NULL,   -- (depth_a - lca_depth) + (depth_b - lca_depth)
    PRIMARY KEY (taxon_id, rank_order)
);

CREATE INDEX idx_top_n_taxon ON top_n_relatives(taxon_id);
-- Contentless FTS (lower storage; rebuilt by pipeline, not on-device).
CREATE VIRTUAL TABLE fts_taxa USING fts5(
    taxon_id UNINDEXED,
    scientific_name,
    common_names,   -- space-separated concatenation of all names where type IN ('common','vernacular')
    synonyms,       -- space-separated concatenation of names where type = 'synonym'
    content='',
    tokenize='unicode61 remove_diacritics 2'
);
