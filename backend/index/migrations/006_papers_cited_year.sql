-- The year the library's papers give when they cite a paper, recorded by
-- refs.Sync (SetCitedYears). It stands in for a year that only dates the
-- copy (a draft's date line, the PDF's creation date) when the metadata
-- is derived (meta.go, derive).
ALTER TABLE papers ADD COLUMN cited_year INTEGER NOT NULL DEFAULT 0;
