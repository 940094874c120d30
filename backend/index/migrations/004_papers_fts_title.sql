-- papers_fts gains two columns: title, each paper's title and authors, so
-- that a query's words there weigh in every search (query.go) and a query
-- naming a paper finds it; and pages, its number of pages (stored, not
-- indexed), the length its words are counted against (RankPapers). Contentless rows cannot be copied: every
-- paper goes back on paper_text_todo, and Indexer.Sync fills the new table
-- (fillPaperText) while Search ranks without it.
DROP TABLE papers_fts;
CREATE VIRTUAL TABLE papers_fts USING fts5(
  text, title, pages UNINDEXED, content='', contentless_delete=1, contentless_unindexed=1,
  tokenize='porter unicode61 remove_diacritics 2'
);
INSERT OR IGNORE INTO paper_text_todo SELECT id FROM papers;
