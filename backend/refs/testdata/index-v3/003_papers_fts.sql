-- Whole-paper full-text index: one row per paper (rowid = papers.id) with
-- the distinct words of each of its pages (paperText). Search ranks papers
-- here first and then only the pages of the best papers: ranking every page
-- a common word is on costs a pass over its whole posting list. A word's
-- count in a row is the number of pages it is on. Contentless: rows are
-- written by writeDocument and deleted by rowid (contentless_delete).
CREATE VIRTUAL TABLE papers_fts USING fts5(
  text, content='', contentless_delete=1, tokenize='porter unicode61 remove_diacritics 2'
);
-- Papers indexed before papers_fts existed; Indexer.Sync fills their rows
-- (fillPaperText) and Search ranks pages alone until none is left.
CREATE TABLE paper_text_todo (paper_id INTEGER PRIMARY KEY REFERENCES papers(id) ON DELETE CASCADE);
INSERT INTO paper_text_todo SELECT id FROM papers;
CREATE TRIGGER papers_fts_ad AFTER DELETE ON papers BEGIN
  DELETE FROM papers_fts WHERE rowid = old.id;
END;
