-- The index is a cache of the vault: deleting it loses nothing.
CREATE TABLE papers (
  id                INTEGER PRIMARY KEY,
  ref               TEXT NOT NULL UNIQUE,
  pdf_path          TEXT NOT NULL,
  pdf_size          INTEGER NOT NULL DEFAULT 0,
  pdf_mtime         INTEGER NOT NULL DEFAULT 0,
  pdf_sha256        TEXT NOT NULL DEFAULT '',
  extractor_version INTEGER NOT NULL DEFAULT 0,
  meta_path         TEXT NOT NULL DEFAULT '',
  meta_size         INTEGER NOT NULL DEFAULT 0,
  meta_mtime        INTEGER NOT NULL DEFAULT 0,
  metadata          TEXT NOT NULL DEFAULT '{}', -- metadata.json as read, unknown keys kept
  extracted         TEXT NOT NULL DEFAULT '{}', -- what the PDF itself says (Info, XMP, first page)
  title             TEXT NOT NULL DEFAULT '',
  title_source      TEXT NOT NULL DEFAULT '',
  authors           TEXT NOT NULL DEFAULT '[]',
  year              INTEGER NOT NULL DEFAULT 0,
  doi               TEXT NOT NULL DEFAULT '',
  arxiv_id          TEXT NOT NULL DEFAULT '',
  abstract          TEXT NOT NULL DEFAULT '',
  page_count        INTEGER NOT NULL DEFAULT 0,
  no_text_pages     INTEGER NOT NULL DEFAULT 0,
  status            TEXT NOT NULL DEFAULT 'pending',
  error             TEXT NOT NULL DEFAULT '',
  indexed_at        INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX papers_doi ON papers(doi) WHERE doi != '';
CREATE INDEX papers_arxiv ON papers(arxiv_id) WHERE arxiv_id != '';
CREATE INDEX papers_sha ON papers(pdf_sha256);

CREATE TABLE pages (
  id       INTEGER PRIMARY KEY,
  paper_id INTEGER NOT NULL REFERENCES papers(id) ON DELETE CASCADE,
  page     INTEGER NOT NULL,
  label    TEXT NOT NULL DEFAULT '',
  text     TEXT NOT NULL,
  UNIQUE (paper_id, page)
);
CREATE VIRTUAL TABLE pages_fts USING fts5(
  text, content='pages', content_rowid='id', tokenize='porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER pages_ai AFTER INSERT ON pages BEGIN
  INSERT INTO pages_fts(rowid, text) VALUES (new.id, new.text);
END;
CREATE TRIGGER pages_ad AFTER DELETE ON pages BEGIN
  INSERT INTO pages_fts(pages_fts, rowid, text) VALUES ('delete', old.id, old.text);
END;

CREATE TABLE sections (
  id       INTEGER PRIMARY KEY,
  paper_id INTEGER NOT NULL REFERENCES papers(id) ON DELETE CASCADE,
  ord      INTEGER NOT NULL,
  level    INTEGER NOT NULL,
  title    TEXT NOT NULL,
  page     INTEGER NOT NULL
);
CREATE INDEX sections_paper ON sections(paper_id, ord);
CREATE VIRTUAL TABLE sections_fts USING fts5(
  title, content='sections', content_rowid='id', tokenize='porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER sections_ai AFTER INSERT ON sections BEGIN
  INSERT INTO sections_fts(rowid, title) VALUES (new.id, new.title);
END;
CREATE TRIGGER sections_ad AFTER DELETE ON sections BEGIN
  INSERT INTO sections_fts(sections_fts, rowid, title) VALUES ('delete', old.id, old.title);
END;

CREATE TABLE files (
  id        INTEGER PRIMARY KEY,
  path      TEXT NOT NULL UNIQUE,
  paper_ref TEXT NOT NULL DEFAULT '',
  size      INTEGER NOT NULL,
  mtime     INTEGER NOT NULL,
  text      TEXT NOT NULL DEFAULT '',
  error     TEXT NOT NULL DEFAULT ''
);
CREATE VIRTUAL TABLE files_fts USING fts5(
  text, content='files', content_rowid='id', tokenize='porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER files_ai AFTER INSERT ON files BEGIN
  INSERT INTO files_fts(rowid, text) VALUES (new.id, new.text);
END;
CREATE TRIGGER files_ad AFTER DELETE ON files BEGIN
  INSERT INTO files_fts(files_fts, rowid, text) VALUES ('delete', old.id, old.text);
END;
CREATE TRIGGER files_au AFTER UPDATE OF text ON files BEGIN
  INSERT INTO files_fts(files_fts, rowid, text) VALUES ('delete', old.id, old.text);
  INSERT INTO files_fts(rowid, text) VALUES (new.id, new.text);
END;
