-- Each paper's fields beside its title and its text, weighed apart by
-- every search (fields.go): its abstract (papers.abstract), the titles of
-- its sections (one a line) and the captions of its figures and tables
-- (one a line). One row per paper that has pages (rowid = papers.id),
-- written with its papers_fts row (writePaperRow); contentless: deleted by
-- rowid. The rows of the papers already indexed are written here, from
-- what the index holds, so that no paper is read again.
CREATE VIRTUAL TABLE fields_fts USING fts5(
  abstract, heads, captions, content='', contentless_delete=1,
  tokenize='porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER fields_fts_ad AFTER DELETE ON papers BEGIN
  DELETE FROM fields_fts WHERE rowid = old.id;
END;
INSERT INTO fields_fts (rowid, abstract, heads, captions)
  SELECT p.id, p.abstract,
    coalesce((SELECT group_concat(title, char(10)) FROM (SELECT title FROM sections WHERE paper_id = p.id ORDER BY ord)), ''),
    coalesce((SELECT group_concat(caption, char(10)) FROM (SELECT caption FROM figures WHERE paper_id = p.id ORDER BY ord)), '')
  FROM papers p WHERE EXISTS (SELECT 1 FROM pages WHERE paper_id = p.id);
-- One segment for all of them: a search looks each word up in a few of
-- the rows, and seeks in one segment rather than in each of many (at
-- 10,000 papers: 1 ms of a question's bonus to 0.2 ms).
INSERT INTO fields_fts (fields_fts) VALUES ('optimize');
