-- Reference lists (SPEC §5): what each paper cites, read from a citation
-- sidecar, from source/*.bib|*.bbl or from the reference list in its PDF
-- text, with each entry matched to a library paper when one is certain.
-- Written by Sync after each index sync; a cache like the rest of the index.
--
-- These tables were created by the index's own migration 002 until refs
-- owned them: this migration is that schema unchanged, with IF NOT EXISTS,
-- so that on an index made then it keeps the tables and their rows as they
-- are, and on a new index it creates them. A change goes in a new file.
CREATE TABLE IF NOT EXISTS ref_lists (
  paper_id   INTEGER PRIMARY KEY REFERENCES papers(id) ON DELETE CASCADE,
  scan_key   TEXT NOT NULL,            -- hash of the inputs the list was read from
  lib_key    TEXT NOT NULL DEFAULT '', -- hash of the library the matches were made against
  mode       TEXT NOT NULL,            -- agentero-pdf, agentero-bib, or a foreign sidecar's mode
  note       TEXT NOT NULL DEFAULT '', -- why the list is empty, when it is
  scanned_at INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE IF NOT EXISTS citations (
  id       INTEGER PRIMARY KEY,
  paper_id INTEGER NOT NULL REFERENCES papers(id) ON DELETE CASCADE,
  ord      INTEGER NOT NULL,            -- position in the list, from 0
  cid      TEXT NOT NULL,               -- the sidecar id: printed label, bib key or position
  display  TEXT NOT NULL DEFAULT '',
  raw      TEXT NOT NULL DEFAULT '',
  title    TEXT NOT NULL DEFAULT '',
  authors  TEXT NOT NULL DEFAULT '[]',
  year     INTEGER NOT NULL DEFAULT 0,
  venue    TEXT NOT NULL DEFAULT '',
  doi      TEXT NOT NULL DEFAULT '',
  arxiv_id TEXT NOT NULL DEFAULT '',
  url      TEXT NOT NULL DEFAULT '',
  ids      TEXT NOT NULL DEFAULT '',    -- every identifier reading, "doi:… arxiv:…", for matching
  match_id INTEGER REFERENCES papers(id) ON DELETE SET NULL,
  match_by TEXT NOT NULL DEFAULT '',    -- doi, arxiv or title
  work_key TEXT NOT NULL DEFAULT '',    -- the same for every citation of one work (bibliographic coupling)
  UNIQUE (paper_id, ord)
);
CREATE INDEX IF NOT EXISTS citations_match ON citations(match_id) WHERE match_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS citations_work ON citations(work_key) WHERE work_key != '';
