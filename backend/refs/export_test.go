package refs

// CitationEdges lists every in-library citation, for the corpus tests.
var CitationEdges = citationEdges
