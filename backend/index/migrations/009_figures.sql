-- The captions of figures and tables found on each paper's pages
-- (pdf.Caption): the label ("Figure 3", "Table II"), the caption's text,
-- and where on the page the caption (c*) and the figure or table with
-- its caption (x, y, width, height) are, in points from the top-left of
-- the page as shown. figures_fts indexes the labels and captions with the
-- pages' tokenizer, so that a search can find a figure by its caption.
-- The extractor version rises with this migration (pdf.ExtractorVersion
-- 8), so every paper is read again and its captions written.
CREATE TABLE figures (
  id       INTEGER PRIMARY KEY,
  paper_id INTEGER NOT NULL REFERENCES papers(id) ON DELETE CASCADE,
  ord      INTEGER NOT NULL,
  page     INTEGER NOT NULL,
  kind     TEXT NOT NULL,
  label    TEXT NOT NULL,
  caption  TEXT NOT NULL,
  x        REAL NOT NULL,
  y        REAL NOT NULL,
  width    REAL NOT NULL,
  height   REAL NOT NULL,
  cx       REAL NOT NULL,
  cy       REAL NOT NULL,
  cwidth   REAL NOT NULL,
  cheight  REAL NOT NULL
);
CREATE INDEX figures_paper ON figures(paper_id, ord);
CREATE INDEX figures_label ON figures(label COLLATE NOCASE);
CREATE VIRTUAL TABLE figures_fts USING fts5(
  label, caption, content='figures', content_rowid='id', tokenize='porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER figures_ai AFTER INSERT ON figures BEGIN
  INSERT INTO figures_fts(rowid, label, caption) VALUES (new.id, new.label, new.caption);
END;
CREATE TRIGGER figures_ad AFTER DELETE ON figures BEGIN
  INSERT INTO figures_fts(figures_fts, rowid, label, caption) VALUES ('delete', old.id, old.label, old.caption);
END;
