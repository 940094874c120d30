package export

import (
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentero/agentero/backend/applink"
	"github.com/agentero/agentero/backend/citation"
	"github.com/agentero/agentero/backend/conversation"
)

// mdLink is a Markdown link whose target is an agentero:// link: its text
// and its target.
var mdLink = regexp.MustCompile(`\[((?:[^\[\]\\]|\\.)*)\]\(<?(agentero://[^)>\s]+)>?\)`)

// TestLiveCitations exports an answer that cites in every way answers do,
// with the claim check of each citation: every citation becomes a link
// named by paper and page that opens that paper at that page, none is
// left as dead text, each keeps its verdict as a note, and the sources
// are listed once each.
func TestLiveCitations(t *testing.T) {
	lib := testLibrary()
	lib.Labels = func(ref string, page int) string {
		if ref == "papers/attn" && page == 2 {
			return "ii" // a printed label that is not the page number
		}
		return ""
	}
	raft, attn := "papers/raft/paper.pdf", "papers/attn/attention.pdf"
	content := "Raft elects leaders with randomized timeouts [p. 6](" + raft + "#page=6&quote=randomized+election+timeouts).\n" +
		"Terms act as a logical clock [" + raft + "#page=8].\n" +
		"- Attention needs no recurrence <" + attn + "#page=2>.\n" +
		"- Logs are replicated " + raft + "#page=1, and the paper says so `" + raft + "`.\n" +
		"- See also [the notes](notes/raft.md) and https://doi.org/10.5555/2643634.2643666.\n"
	at := func(s string) (int, int) {
		i := strings.Index(content, s)
		if i < 0 {
			t.Fatalf("%q is not in the answer", s)
		}
		return i, i + len(s)
	}
	check := func(uri string, page int, v citation.Verdict, found int) citation.Check {
		s, e := at(uri)
		return citation.Check{URI: uri, Page: page, Verdict: v, FoundPage: found, Start: s, End: e}
	}
	answer := conversation.Message{Role: "assistant", Content: content,
		Sources: []string{raft + "#page=6&quote=randomized+election+timeouts", raft + "#page=8", attn + "#page=2", raft + "#page=1", raft, raft + "#page=6", raft + "#page=1&quote=x"},
		Checks: []citation.Check{
			check(raft+"#page=6&quote=randomized+election+timeouts", 6, citation.Verified, 0),
			check(raft+"#page=8", 8, citation.Supported, 0),
			check(attn+"#page=2", 2, citation.Weak, 0),
			check(raft+"#page=1", 1, citation.WrongPage, 7),
			check("notes/raft.md", 0, citation.Outside, 0),
		}}
	md := lib.AnswerMarkdown(answer)
	t.Log(md)

	// Every citation of the text, in order: a live link to its paper and
	// page, named by them.
	text, _, _ := strings.Cut(md, "\n### Sources")
	type opened struct {
		Name, Ref string
		Page      int
	}
	var got []opened
	for _, m := range mdLink.FindAllStringSubmatch(text, -1) {
		l, err := applink.Parse(m[2])
		if err != nil {
			t.Fatalf("%s does not parse: %v", m[2], err)
		}
		if l.Vault != lib.Root {
			t.Errorf("%s opens the vault %q", m[2], l.Vault)
		}
		got = append(got, opened{m[1], l.Ref, l.Page})
	}
	want := []opened{
		{"Ongaro & Ousterhout 2014, p. 6", "papers/raft", 6},
		{"Ongaro & Ousterhout 2014, p. 8", "papers/raft", 8},
		{"Vaswani & Shazeer 2017, p. ii", "papers/attn", 2},
		{"Ongaro & Ousterhout 2014, p. 1", "papers/raft", 1},
		{"Ongaro & Ousterhout 2014", "papers/raft", 1},
		{"p. 7", "papers/raft", 7}, // the page the wrong-page note points to
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the links of the answer (-want +got):\n%s", diff)
	}
	// Nothing is left as a dead path (nor a link in a code span, where it
	// would not be one); what is not a library paper stays.
	if strings.Contains(text, "`[") {
		t.Error("a citation written as code became a link inside the code span")
	}
	if dead := regexp.MustCompile(`papers/\S*\.pdf`).FindString(mdLink.ReplaceAllString(text, "")); dead != "" {
		t.Errorf("%q is left as dead text", dead)
	}
	for _, keep := range []string{"[the notes](notes/raft.md)", "https://doi.org/10.5555/2643634.2643666."} {
		if !strings.Contains(text, keep) {
			t.Errorf("%q is not kept as written", keep)
		}
	}
	// Each checked citation keeps its verdict, as a note.
	for _, note := range []string{
		"timeouts)[^c1].",
		"[^c1]: checked: the quote is on p. 6",
		"[^c2]: checked: p. 8 has the sentence's words and numbers",
		"[^c3]: checked: p. ii has only part of the sentence's words",
		"[^c4]: wrong page: found on [p. 7](agentero://",
		"(notes/raft.md)[^c5]",
		"[^c5]: not checked: the page is outside what the agent was allowed to read",
	} {
		if !strings.Contains(md, note) {
			t.Errorf("the export lacks %q", note)
		}
	}
	if strings.Contains(md, "[^c6]") {
		t.Error("a citation without a check got a note")
	}
	// The sources: once per page, the whole paper not beside its pages.
	_, sources, _ := strings.Cut(md, "### Sources\n\n")
	sources, _, _ = strings.Cut(sources, "\n\n")
	var listed []string
	for _, line := range strings.Split(sources, "\n") {
		m := mdLink.FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("source %q is not a link", line)
		}
		listed = append(listed, m[1])
	}
	wantListed := []string{
		"In Search of an Understandable Consensus Algorithm, p. 6", "In Search of an Understandable Consensus Algorithm, p. 8",
		"Attention Is All You Need, p. ii", "In Search of an Understandable Consensus Algorithm, p. 1",
	}
	if diff := cmp.Diff(wantListed, listed); diff != "" {
		t.Errorf("sources (-want +got):\n%s", diff)
	}
}

// TestConversationNotes: the notes of a conversation's answers are
// numbered through the whole export, each under its answer.
func TestConversationNotes(t *testing.T) {
	lib := testLibrary()
	uri := "papers/raft/paper.pdf#page=2"
	answer := func(v citation.Verdict) conversation.Message {
		content := "Raft is understandable (" + uri + ")."
		i := strings.Index(content, uri)
		return conversation.Message{Role: "assistant", Content: content, Sources: []string{uri},
			Checks: []citation.Check{{URI: uri, Page: 2, Verdict: v, Start: i, End: i + len(uri)}}}
	}
	c := &conversation.Conversation{Messages: []conversation.Message{
		{Role: "user", Content: "Is Raft understandable?"}, answer(citation.Supported),
		{Role: "user", Content: "Really?"}, answer(citation.Unsupported),
	}}
	md := lib.ConversationMarkdown(c, "Raft")
	first, second, ok := strings.Cut(md, "## Question\n\nReally?")
	if !ok {
		t.Fatalf("no second question:\n%s", md)
	}
	if !strings.Contains(first, "[^c1]: checked: p. 2 has the sentence's words and numbers") || strings.Contains(first, "[^c2]") {
		t.Errorf("the first answer's note:\n%s", first)
	}
	if !strings.Contains(second, "[^c2]: not found: no page of the paper has the sentence's words") || strings.Contains(second, "[^c1]") {
		t.Errorf("the second answer's note:\n%s", second)
	}
}
