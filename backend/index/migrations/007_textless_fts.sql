-- The metadata of the papers without readable text (status 'no-text', a
-- scan without OCR, or 'garbled', a broken text layer), whose pages hold
-- nothing a query can match: one row per such paper (rowid = papers.id)
-- with its title, authors, year, DOI, arXiv id and abstract, so that a
-- search finds them by their metadata with one FTS5 lookup (metahits.go)
-- instead of reading every such paper on every search. The triggers keep
-- it in step with the papers table: a row is written when a paper becomes
-- text-less or its metadata changes while it is, and deleted when it gains
-- text or leaves the index. Authors are a JSON array, read with json_each
-- when valid.
CREATE VIRTUAL TABLE textless_fts USING fts5(
  meta, content='', contentless_delete=1, tokenize='porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER textless_fts_ai AFTER INSERT ON papers WHEN new.status IN ('no-text', 'garbled') BEGIN
  INSERT INTO textless_fts(rowid, meta) VALUES (new.id, new.title || char(10)
    || CASE WHEN json_valid(new.authors) THEN coalesce((SELECT group_concat(value, char(10)) FROM json_each(new.authors)), '') ELSE '' END
    || char(10) || CASE WHEN new.year != 0 THEN new.year ELSE '' END
    || char(10) || new.doi || char(10) || new.arxiv_id || char(10) || new.abstract);
END;
CREATE TRIGGER textless_fts_au AFTER UPDATE OF status, title, authors, year, doi, arxiv_id, abstract ON papers
  WHEN old.status IN ('no-text', 'garbled') OR new.status IN ('no-text', 'garbled') BEGIN
  DELETE FROM textless_fts WHERE rowid = old.id;
  INSERT INTO textless_fts(rowid, meta) SELECT new.id, new.title || char(10)
    || CASE WHEN json_valid(new.authors) THEN coalesce((SELECT group_concat(value, char(10)) FROM json_each(new.authors)), '') ELSE '' END
    || char(10) || CASE WHEN new.year != 0 THEN new.year ELSE '' END
    || char(10) || new.doi || char(10) || new.arxiv_id || char(10) || new.abstract
    WHERE new.status IN ('no-text', 'garbled');
END;
CREATE TRIGGER textless_fts_ad AFTER DELETE ON papers WHEN old.status IN ('no-text', 'garbled') BEGIN
  DELETE FROM textless_fts WHERE rowid = old.id;
END;
-- The papers already indexed.
INSERT INTO textless_fts(rowid, meta) SELECT id, title || char(10)
    || CASE WHEN json_valid(authors) THEN coalesce((SELECT group_concat(value, char(10)) FROM json_each(authors)), '') ELSE '' END
    || char(10) || CASE WHEN year != 0 THEN year ELSE '' END
    || char(10) || doi || char(10) || arxiv_id || char(10) || abstract
  FROM papers WHERE status IN ('no-text', 'garbled');
