-- Papers by status: a search looks up the papers without readable text
-- (status 'no-text' or 'garbled') to match their metadata (metahits.go),
-- which without this index read every row of papers on every search.
CREATE INDEX papers_status ON papers(status);
