package index

import "context"

// MetadataPlan is a query made ready for MetadataHits.
type MetadataPlan struct{ p *plan }

// PlanMetadata makes query ready for MetadataHits.
func (db *DB) PlanMetadata(ctx context.Context, query string) (MetadataPlan, error) {
	p, err := db.plan(ctx, Query{Text: query})
	return MetadataPlan{p}, err
}

// MetadataHits runs the metadata hits of a planned query over scope
// alone: through textless_fts, or with scan as an index without it has
// them found (the text-less papers' rows read and matched in Go). It flips
// how db finds them while it runs: not for use beside other searches of
// db.
func (db *DB) MetadataHits(ctx context.Context, mp MetadataPlan, scope Scope, scan bool) ([]Hit, error) {
	if mp.p == nil {
		return nil, nil
	}
	had := db.textless
	db.textless = had && !scan
	defer func() { db.textless = had }()
	return db.metadataHits(ctx, mp.p, scope)
}
