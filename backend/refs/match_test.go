package refs

import (
	"testing"

	"github.com/agentero/agentero/backend/index"
	"github.com/google/go-cmp/cmp"
)

func testLibrary() *library {
	return newLibrary([]index.RefInput{
		{Ref: "papers/paxos", Title: "Paxos Made Simple", Year: 2001},
		{Ref: "papers/paxos-copy", Title: "Paxos made simple"}, // the same paper twice
		{Ref: "papers/raft", Title: "In Search of an Understandable Consensus Algorithm"},
		{Ref: "papers/zab", Title: "Zab: High-performance broadcast for primary-backup systems"},
		{Ref: "papers/chain", Title: "Chain Replication for Supporting High Throughput and Availability"},
		{Ref: "papers/bcr", Title: "Byzantine Chain Replication"},
		{Ref: "papers/attention", Title: "Attention Is All You Need", ArxivID: "1706.03762"},
		{Ref: "papers/ironfleet", Title: "IronFleet: Proving Practical Distributed Systems Correct", DOI: "10.1145/2815400.2815428"},
		{Ref: "papers/vtime", Title: "Virtual Time", Year: 1985},
		{Ref: "papers/abstract", Title: "Abstract"},
		{Ref: "papers/e2e", Title: "End-to-End Arguments in System Design", Year: 1984},
	})
}

func TestMatchEntries(t *testing.T) {
	lib := testLibrary()
	tests := []struct {
		name  string
		self  string
		entry Citation
		want  citeMatch
	}{
		{"DOI", "papers/raft", parsed("Hawblitzel C et al. IronFleet: proving practical distributed systems correct. SOSP 2015. doi:10.1145/\n2815400.2815428"),
			citeMatch{"papers/ironfleet", ByDOI}},
		{"arXiv id, versioned", "papers/raft", parsed("A. Vaswani et al. Attention is all you need. arXiv preprint arXiv:1706.03762v5, 2017."),
			citeMatch{"papers/attention", ByArxiv}},
		{"arXiv DOI", "papers/raft", parsed("Vaswani et al. Transformers. 2017. doi:10.48550/arXiv.1706.03762"),
			citeMatch{"papers/attention", ByArxiv}},
		{"title, hyphen lost at a line break", "papers/raft",
			parsed("[11] J unqueira , F. P., R eed , B. C., and S erafini , M. Zab: high-\nperformance broadcast for primary-backup systems. In DSN (2011)."),
			citeMatch{"papers/zab", ByTitle}},
		{"title joined without its hyphen", "papers/raft", parsed("F. Junqueira. Zab: highperformance broadcast for primary-backup systems. In DSN, 2011."),
			citeMatch{"papers/zab", ByTitle}},
		{"title, all capitals, across lines", "papers/raft", parsed("SALTZER, J. H. END-TO-END ARGUMENTS\nIN SYSTEM DESIGN. ACM TOCS 2, 4 (1984)."),
			citeMatch{"papers/e2e", ByTitle}},
		{"the longest title wins", "papers/raft", parsed("Van Renesse, R., Schneider, F.: Byzantine chain replication. In: OPODIS (2012)."),
			citeMatch{"papers/bcr", ByTitle}},
		{"title inside a longer title is no match", "papers/raft", parsed("A. Author. Paxos made simple: a study of its proofs. Tech. rep., 2019."),
			citeMatch{}},
		{"title inside a sentence is no match", "papers/raft", parsed("B. Author. Why paxos made simple was not simple enough. 2019."),
			citeMatch{}},
		{"short title: only an exact parsed title", "papers/raft", parsed("D. Jefferson. Virtual time. ACM TOPLAS 7, 3 (1985), 404–425."),
			citeMatch{"papers/vtime", ByTitle}},
		{"short title inside another title is no match", "papers/raft", parsed("C. Author. Virtual time for distributed simulation. 1990."),
			citeMatch{}},
		{"short title decades apart is no match", "papers/raft", parsed("D. Other. Virtual time. Physics Letters, 1951."),
			citeMatch{}},
		{"a generic title never matches", "papers/raft", parsed("Someone. Abstract. 2001."),
			citeMatch{}},
		{"never itself, nor its duplicate", "papers/paxos", parsed("L. Lamport. Paxos made simple. ACM SIGACT News 32, 4 (2001)."),
			citeMatch{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := lib.matchEntries(tt.self, []Citation{tt.entry})
			if got[0] != tt.want {
				t.Errorf("match of %q from %s = %+v, want %+v", tt.entry.Raw, tt.self, got[0], tt.want)
			}
		})
	}
}

// A title that a wrong split cut across two entries is still found, and
// given to the entry it starts in.
func TestMatchAcrossEntries(t *testing.T) {
	lib := testLibrary()
	entries := []Citation{
		parsed("L. Lamport. Paxos made"),
		parsed("simple. ACM SIGACT News 32, 4 (2001)."),
		parsed("D. Ongaro and J. Ousterhout. In search of an understandable consensus algorithm. In USENIX ATC, 2014."),
	}
	got := lib.matchEntries("papers/zab", entries)
	want := []citeMatch{{"papers/paxos", ByTitle}, {}, {"papers/raft", ByTitle}}
	if d := cmp.Diff(want, got, cmp.AllowUnexported(citeMatch{})); d != "" {
		t.Errorf("matches (-want +got):\n%s", d)
	}
}

func TestWorkKey(t *testing.T) {
	tests := []struct {
		c    Citation
		want string
	}{
		{Citation{DOI: "10.1/x", MatchRef: "papers/a", MatchBy: ByDOI}, "paper:papers/a"},
		{Citation{DOI: "10.1/x", ArxivID: "1706.03762"}, "doi:10.1/x"},
		{Citation{DOI: "10.48550/arxiv.1706.03762", ArxivID: "1706.03762"}, "arxiv:1706.03762"},
		{Citation{ArxivID: "1706.03762"}, "arxiv:1706.03762"},
		{Citation{Title: "The part-time parliament"}, "title:theparttimeparliament"},
		{Citation{Title: "Virtual time"}, ""},
	}
	for _, tt := range tests {
		if got := workKey(tt.c); got != tt.want {
			t.Errorf("workKey(%+v) = %q, want %q", tt.c, got, tt.want)
		}
	}
}

// parsed parses one printed entry.
func parsed(text string) Citation {
	lines := splitLines(text)
	label := ""
	if m := bracketLabel.FindStringSubmatch(lines[0]); m != nil {
		label = m[1]
		lines[0] = stripLabel(lines[0])
	}
	return parseEntry(entryText{label: label, lines: lines})
}

func splitLines(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}
