package claim

import (
	"strings"
	"testing"

	"github.com/agentero/agentero/backend/citation"
	"github.com/google/go-cmp/cmp"
)

// cited is what a test expects of one citation: the URI as written, and
// the claim and quotes it vouches for.
type cited struct {
	URI    string
	Claim  string
	Quotes []string
}

func read(md string) []cited {
	read := citation.Read(md)
	ps := passages(md, read.Cited, read.Code)
	out := []cited{}
	for i, c := range read.Cited {
		out = append(out, cited{URI: c.Raw, Claim: ps[i].claim, Quotes: ps[i].quotes})
	}
	return out
}

func TestFindCitations(t *testing.T) {
	const raft = "papers/raft/paper.pdf#page=6"
	for _, tc := range []struct {
		name string
		md   string
		want []cited
	}{
		{"link", "Raft picks timeouts at random [Raft, p. 6](" + raft + ").",
			[]cited{{URI: raft, Claim: "Raft picks timeouts at random."}}},
		{"link in angle brackets, with a title", `Raft picks timeouts at random [6](<papers/my raft/paper.pdf#page=6> "Raft").`,
			[]cited{{URI: "papers/my raft/paper.pdf#page=6", Claim: "Raft picks timeouts at random."}}},
		{"bracketed", "Raft picks timeouts at random [" + raft + "].",
			[]cited{{URI: raft, Claim: "Raft picks timeouts at random."}}},
		{"autolink", "Raft picks timeouts at random <" + raft + ">.",
			[]cited{{URI: raft, Claim: "Raft picks timeouts at random."}}},
		{"bare, in parentheses", "Raft picks timeouts at random (" + raft + "&quote=Raft+uses).",
			[]cited{{URI: raft + "&quote=Raft+uses", Claim: "Raft picks timeouts at random."}}},
		{"bare, in code", "Raft picks timeouts at random `" + raft + "`.",
			[]cited{{URI: raft, Claim: "Raft picks timeouts at random."}}},
		{"agentero link", "Raft picks timeouts at random (agentero://open?vault=/v&ref=papers/raft&page=6).",
			[]cited{{URI: "agentero://open?vault=/v&ref=papers/raft&page=6", Claim: "Raft picks timeouts at random."}}},
		{"not citations", "See https://raft.github.io, [the site](https://raft.github.io), [a heading](#sources), [12], e.g. and i.e. text/plain.",
			[]cited{}},
		{"a fenced code block", "```\npapers/raft/paper.pdf#page=6\n```\nNothing here.", []cited{}},
		{"standing alone after the full stop", "Raft picks timeouts at random. " + raft + "\n\nLogs only grow. [" + raft + "]",
			[]cited{{URI: raft, Claim: "Raft picks timeouts at random."}, {URI: raft, Claim: "Logs only grow."}}},
		{"on a line of its own", "Raft picks timeouts at random.\n[" + raft + "]",
			[]cited{{URI: raft, Claim: "Raft picks timeouts at random."}}},
		{"a paragraph of its own", "Raft picks timeouts at random.\n\n[" + raft + "]",
			[]cited{{URI: raft, Claim: "Raft picks timeouts at random."}}},
		{"one of several sentences", "Raft has a leader. It picks timeouts at random [" + raft + "]. Logs only grow.",
			[]cited{{URI: raft, Claim: "It picks timeouts at random."}}},
		{"abbreviations and decimals do not end a sentence", "Raft (Ongaro et al. 2014) picks e.g. 150 ms, i.e. 1.5 times more [" + raft + "].",
			[]cited{{URI: raft, Claim: "Raft (Ongaro et al. 2014) picks e.g. 150 ms, i.e. 1.5 times more."}}},
		{"two citations, each its clause", "Raft picks timeouts at random [" + raft + "], while Paxos elects a distinguished proposer [papers/paxos/paxos.pdf#page=10].",
			[]cited{{URI: raft, Claim: "Raft picks timeouts at random"}, {URI: "papers/paxos/paxos.pdf#page=10", Claim: "while Paxos elects a distinguished proposer"}}},
		{"two citations of one claim", "Raft picks timeouts at random [" + raft + "], [papers/raft/paper.pdf#page=7].",
			[]cited{{URI: raft, Claim: "Raft picks timeouts at random."}, {URI: "papers/raft/paper.pdf#page=7", Claim: "Raft picks timeouts at random."}}},
		{"reference links", "Raft picks timeouts at random [1]. Logs only grow [Raft][r].\n\n[1]: " + raft + "\n[r]: <papers/raft/paper.pdf#page=7> \"Raft\"\n",
			[]cited{{URI: raft, Claim: "Raft picks timeouts at random."}, {URI: "papers/raft/paper.pdf#page=7", Claim: "Logs only grow."}}},
		{"a bullet", "- Raft picks timeouts at random " + raft + "\n- Logs only grow",
			[]cited{{URI: raft, Claim: "Raft picks timeouts at random"}}},
		{"a quotation", "The paper says “Raft uses randomized election timeouts. Split votes are rare.” [" + raft + "]",
			[]cited{{URI: raft, Claim: "The paper says “Raft uses randomized election timeouts. Split votes are rare.”",
				Quotes: []string{"Raft uses randomized election timeouts. Split votes are rare."}}}},
		{"nested quotation marks", "“The “leader” sends heartbeats to all followers” [" + raft + "]",
			[]cited{{URI: raft, Claim: "“The “leader” sends heartbeats to all followers”", Quotes: []string{"The “leader” sends heartbeats to all followers"}}}},
		{"a short quotation is words", "Raft has a “leader” [" + raft + "]",
			[]cited{{URI: raft, Claim: "Raft has a “leader”"}}},
		{"straight quotes and guillemets", "It says \"split votes are rare\" and «timeouts are random here» [" + raft + "]",
			[]cited{{URI: raft, Claim: "It says \"split votes are rare\" and «timeouts are random here»", Quotes: []string{"split votes are rare", "timeouts are random here"}}}},
		{"a block quote, then its citation", "> Raft uses randomized election timeouts.\n> Split votes are rare.\n\n— Ongaro, " + raft,
			[]cited{{URI: raft, Claim: "Raft uses randomized election timeouts. Split votes are rare.", Quotes: []string{"Raft uses randomized election timeouts. Split votes are rare."}}}},
		{"a block quote with its attribution", "> Raft uses randomized election timeouts.\n> — [Ongaro, p. 6](" + raft + ")",
			[]cited{{URI: raft, Claim: "Raft uses randomized election timeouts.", Quotes: []string{"Raft uses randomized election timeouts."}}}},
		{"the built-in agent's answer", "1. “Raft uses randomized election timeouts.”\n   — In Search of an Understandable Consensus Algorithm, page 6 [" + raft + "]\n\nSources:\n- " + raft + "\n",
			[]cited{{URI: raft, Claim: "“Raft uses randomized election timeouts.”", Quotes: []string{"Raft uses randomized election timeouts."}}, {URI: raft}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, read(tc.md)); diff != "" {
				t.Errorf("%q (-want +got):\n%s", tc.md, diff)
			}
		})
	}
}

// The byte range of each citation is the citation as written.
func TestCitationPlace(t *testing.T) {
	md := "Intro.\n\nRaft picks timeouts [p. 6](papers/raft/paper.pdf#page=6) and\nelects a leader papers/raft/paper.pdf#page=5.\n"
	var got []string
	for _, c := range citation.Read(md).Cited {
		got = append(got, md[c.Start:c.End])
	}
	want := []string{"[p. 6](papers/raft/paper.pdf#page=6)", "papers/raft/paper.pdf#page=5"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestCleanClaim(t *testing.T) {
	for _, tc := range []struct{ in, words, nums string }{
		{"Raft picks timeouts from 150–300 ms (p. 6) [12]", "raft pick timeout ms", "150 300"},
		{"As Ongaro et al. (2014) show in Figure 7 and Section 5.2, leaders win", "leader win", ""},
		{"Leaders win (Ongaro and Ousterhout, 2014; Howard 2015), see pp. 3–4", "leader win", ""},
		{"ResNet-152 reaches 3.57% error, 1,000 classes and 1 000 images", "resnet reach error class imag", "152 3.57 1000"},
		{"The two servers elect three leaders in twenty terms", "server elect leader term", "20"},
		{"The steps are: (1) propose, (2) accept", "step accept", ""},
	} {
		st := stems{}
		got := claimTerms(tc.in, nil, "", &st)
		if w := strings.Join(got.words, " "); w != tc.words {
			t.Errorf("words of %q = %q, want %q", tc.in, w, tc.words)
		}
		if n := strings.Join(got.nums, " "); n != tc.nums {
			t.Errorf("numbers of %q = %q, want %q", tc.in, n, tc.nums)
		}
	}
}

func TestTokenizePage(t *testing.T) {
	got := tokenize("con-\nsensus in 150-300ms, 1,000 and 2.50; GPT-3,1 while")
	var words, nums []string
	for _, tok := range got {
		if tok.word != "" {
			words = append(words, tok.word)
		}
		if tok.num != "" {
			nums = append(nums, tok.num)
		}
	}
	if diff := cmp.Diff([]string{"consensus", "in", "ms", "and", "gpt", "while"}, words); diff != "" {
		t.Errorf("words (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"150", "300", "1000", "2.5", "3", "1"}, nums); diff != "" {
		t.Errorf("numbers (-want +got):\n%s", diff)
	}
}

// FuzzRead checks what the check relies on, whatever the text: each
// citation lies in the text, in order, without overlap; a bare one is its
// URI as written; and reading its claim's terms does not fail.
func FuzzRead(f *testing.F) {
	for _, s := range []string{
		"Raft [p. 6](papers/raft/paper.pdf#page=6). “A quote here is long” papers/x/y.pdf#page=2",
		"> quote\n> — [x](papers/a/b.pdf)\n\n- item <papers/a/b.pdf#page=1>\n```\npapers/c.pdf\n```",
		"“nested “quotes” and ‘single’ ones” «guillemets» \"straight\" [a](agentero://open?vault=/v&ref=papers/a&page=2)",
		"1,000 and 1 000 and 3.5% and GPT-3,1 and con-\nsensus (Ongaro et al., 2014) [12] p. 6 pp. 3–4 Figure 2",
		"[[1]](papers/a/b.pdf#page=1) [](papers/x.pdf) [x](<papers/a b/c.pdf>) ``` ~~~ | a | b |\n|---|---|",
		"e.g. i.e. J. Smith. [papers/a/b.pdf]. — “x.” —\n—",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, md string) {
		read := citation.Read(md)
		cites := read.Cited
		ps := passages(md, cites, read.Code)
		if len(ps) != len(cites) {
			t.Fatalf("%d passages for %d citations", len(ps), len(cites))
		}
		end := 0
		for i, c := range cites {
			if c.Start < end || c.End <= c.Start || c.End > len(md) {
				t.Fatalf("citation %d at %d..%d after %d in %d bytes", i, c.Start, c.End, end, len(md))
			}
			if c.Bare && md[c.Start:c.End] != c.Raw {
				t.Fatalf("bare citation %q written %q", c.Raw, md[c.Start:c.End])
			}
			end = c.End
			st := stems{}
			claimTerms(ps[i].claim, nil, "", &st)
			for _, q := range ps[i].quotes {
				claimTerms(q, nil, "", &st)
			}
		}
		st := stems{}
		readPages([]int{1}, []string{md}, newReadings(&st))
	})
}
