-- stol taxonomy database, schema version 1.
-- The single source of truth for every taxonomy database the engine reads or the pipeline writes.

CREATE TABLE schema_version (
    version INTEGER NOT NULL
);

-- Who made the dataset and how to credit it (name, version, license, attribution, build_date,
-- source_files, description, unknown_rank_rule).
CREATE TABLE dataset_info (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;

-- rank is NULL for unranked taxa (sources without ranks; see dataset/FORMAT.md).
-- child_count is stored at build time so that a lineage is a walk of primary-key lookups, not a
-- count over the parent index per ancestor (the engine still counts for databases without it).
CREATE TABLE taxa (
    id              INTEGER PRIMARY KEY,
    parent_id       INTEGER REFERENCES taxa(id),
    rank            TEXT CHECK (rank IN ('domain','kingdom','phylum','class','order','family','genus','species')),
    scientific_name TEXT NOT NULL,
    author          TEXT,
    year            INTEGER,
    status          TEXT NOT NULL DEFAULT 'accepted' CHECK (status IN ('accepted','synonym','doubtful')),
    conservation    TEXT CHECK (conservation IN ('EX','EW','CR','EN','VU','NT','LC','DD','NE')),
    child_count     INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX idx_taxa_parent ON taxa(parent_id, scientific_name);
CREATE INDEX idx_taxa_scientific_name ON taxa(scientific_name COLLATE NOCASE);
CREATE INDEX idx_taxa_rank ON taxa(rank);

CREATE TABLE names (
    id           INTEGER PRIMARY KEY,
    taxon_id     INTEGER NOT NULL REFERENCES taxa(id),
    name         TEXT NOT NULL,
    lang         TEXT NOT NULL,
    name_type    TEXT NOT NULL CHECK (name_type IN ('common','synonym','vernacular','trade')),
    is_preferred INTEGER NOT NULL DEFAULT 0 CHECK (is_preferred IN (0, 1))
);
CREATE INDEX idx_names_taxon ON names(taxon_id, lang);
CREATE INDEX idx_names_name ON names(name COLLATE NOCASE);

CREATE TABLE refs (
    id       INTEGER PRIMARY KEY,
    taxon_id INTEGER NOT NULL REFERENCES taxa(id),
    citation TEXT NOT NULL,
    url      TEXT,
    ref_type TEXT NOT NULL DEFAULT 'taxonomy'
);
CREATE INDEX idx_refs_taxon ON refs(taxon_id);

CREATE TABLE traits (
    taxon_id INTEGER NOT NULL REFERENCES taxa(id),
    key      TEXT NOT NULL,
    value    TEXT NOT NULL,
    PRIMARY KEY (taxon_id, key, value)
) WITHOUT ROWID;

-- Euler tour of the forest (roots in scientific-name order, children likewise); idx from 0.
CREATE TABLE euler_tour (
    idx      INTEGER PRIMARY KEY,
    taxon_id INTEGER NOT NULL,
    depth    INTEGER NOT NULL
);

CREATE TABLE first_occurrence (
    taxon_id INTEGER PRIMARY KEY,
    idx      INTEGER NOT NULL
);

-- For each species, its closest species by tree distance (then scientific name).
CREATE TABLE top_n_relatives (
    taxon_id    INTEGER NOT NULL,
    relative_id INTEGER NOT NULL,
    rank_order  INTEGER NOT NULL,
    lca_id      INTEGER NOT NULL,
    lca_depth   INTEGER NOT NULL,
    distance    INTEGER NOT NULL,
    PRIMARY KEY (taxon_id, rank_order)
) WITHOUT ROWID;

-- Full-text index; rowid = taxon id. Contentless: the text lives in taxa and names.
CREATE VIRTUAL TABLE fts_taxa USING fts5(
    taxon_id UNINDEXED,
    scientific_name,
    common_names,
    synonyms,
    content = '',
    tokenize = 'unicode61 remove_diacritics 2'
);

-- Every searchable name once, folded (lower case, no diacritics), for exact matches,
-- autocomplete and typo-tolerant candidates.
CREATE TABLE search_names (
    id         INTEGER PRIMARY KEY,
    taxon_id   INTEGER NOT NULL,
    name       TEXT NOT NULL,
    folded     TEXT NOT NULL,
    match_type TEXT NOT NULL CHECK (match_type IN ('scientific','common','synonym')),
    lang       TEXT
);
CREATE INDEX idx_search_names_folded ON search_names(folded);
CREATE INDEX idx_search_names_taxon ON search_names(taxon_id);

-- Trigram index over each folded name padded with a space at both ends (rowid = search_names.id),
-- the candidates for typo-tolerant matching: the padding gives short names edge trigrams, so
-- "lyon" still shares "on " with "lion", and typos in the first letters still leave most trigrams.
CREATE VIRTUAL TABLE fts_trigram USING fts5(
    padded,
    content = '',
    tokenize = 'trigram'
);

-- How many names hold each trigram, so a fuzzy search can look up only the rarest ones.
CREATE VIRTUAL TABLE fts_trigram_vocab USING fts5vocab('fts_trigram', 'row');
