package refs

// Citation is one entry of a paper's reference list, the one model of a
// citation from the text to the index and back: the parsers fill what the
// list printed and the fields read from it, the matcher fills the match and
// the work key, the store keeps it whole (the citations table), and the
// sidecar and the relation cards are rendered from it. Fields that could
// not be read are empty.
type Citation struct {
	ID       string // the printed label ("12", "ABC+20"), the bib key, or its position from 1
	Display  string // how a reader refers to it: "[12]", or "Lamport 2001"
	Raw      string // the entry as printed, lines joined
	Title    string
	Authors  []string
	Year     int
	Venue    string
	DOI      string
	ArxivID  string
	URL      string
	IDs      []string // every "doi:…" / "arxiv:…" reading, for matching
	MatchRef string   // the library paper it is, or ""
	MatchBy  string   // ByDOI, ByArxiv or ByTitle, when matched
	WorkKey  string   // the same in every list that cites the work (see workKey)
}

// List is one paper's reference list as Sync stores it.
type List struct {
	Ref       string
	ScanKey   string // hash of the inputs it was read from: a change means read again
	LibKey    string // hash of the library its matches were made against: a change means match again
	Mode      string // ModePDF, ModeBib, or a foreign sidecar's mode
	Note      string // why the list is empty, when it is
	Citations []Citation
}
