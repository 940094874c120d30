package export

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentero/agentero/backend/applink"
	"github.com/agentero/agentero/backend/conversation"
	"github.com/agentero/agentero/backend/index"
)

func testLibrary() Library {
	return Library{Root: "/home/me/My Papers", Papers: []index.Paper{
		{Ref: "papers/raft", PDFPath: "papers/raft/paper.pdf", Title: "In Search of an Understandable Consensus Algorithm",
			Authors: []string{"Diego Ongaro", "John Ousterhout"}, Year: 2014, DOI: "10.5555/2643634.2643666"},
		{Ref: "papers/attn", PDFPath: "papers/attn/attention.pdf", Title: "Attention Is All You Need",
			Authors: []string{"Ashish Vaswani", "Noam Shazeer"}, Year: 2017, ArxivID: "1706.03762"},
		{Ref: "papers/tex", PDFPath: "papers/tex/p.pdf", Title: `50% of {braces} & $money$ #1 under_score ^hat ~tilde \back`,
			Authors: []string{"Kurt Gödel", "Barnes and Noble Group"}, Year: 1931},
	}}
}

func TestAnswerMarkdown(t *testing.T) {
	lib := testLibrary()
	raft := "papers/raft/paper.pdf#page=3&quote=Raft%20decomposes%20consensus"
	answer := conversation.Message{Role: "assistant",
		Content: "Raft splits the problem [1](" + raft + ") and attention needs no recurrence (papers/attn/attention.pdf#page=2).",
		Sources: []string{raft, "papers/attn/attention.pdf#page=2", raft}}
	md := lib.AnswerMarkdown(answer)
	t.Log(md)
	wantLink := applink.Link{Vault: lib.Root, Ref: "papers/raft", Page: 3, Quote: "Raft decomposes consensus"}.String()
	for _, want := range []string{
		"[Ongaro & Ousterhout 2014, p. 3](" + wantLink + ")",
		"1. [In Search of an Understandable Consensus Algorithm, p. 3](<" + wantLink + ">) — “Raft decomposes consensus” · [doi:10.5555/2643634.2643666](https://doi.org/10.5555/2643634.2643666)",
		"[arXiv:1706.03762](https://arxiv.org/abs/1706.03762)",
		"### References",
		"- Diego Ongaro, John Ousterhout (2014) *In Search of an Understandable Consensus Algorithm*. https://doi.org/10.5555/2643634.2643666",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the Markdown lacks %q", want)
		}
	}
	if strings.Count(md, "\n1. ") != 1 || strings.Contains(md, "\n3. ") {
		t.Errorf("a repeated source is listed twice:\n%s", md)
	}
	// Every agentero link in it reads back to the paper and page cited.
	for _, part := range strings.Split(md, "agentero://")[1:] {
		end := strings.IndexAny(part, ")> ")
		l, err := applink.Parse("agentero://" + part[:end])
		if err != nil {
			t.Fatalf("an exported link does not parse: %v", err)
		}
		if l.Vault != lib.Root || (l.Ref != "papers/raft" && l.Ref != "papers/attn") {
			t.Errorf("exported link leads to %+v", l)
		}
	}
}

func TestConversationMarkdown(t *testing.T) {
	lib := testLibrary()
	c := &conversation.Conversation{ID: "c1", Messages: []conversation.Message{
		{Role: "user", Content: "What is Raft?"},
		{Role: "assistant", Agent: "built-in", Content: "A consensus algorithm.", Sources: []string{"papers/raft/paper.pdf#page=1"}},
		{Role: "user", Content: "And attention?"},
		{Role: "assistant", Content: "", Error: "The agent stopped."},
	}}
	md := lib.ConversationMarkdown(c, "What is Raft?")
	for _, want := range []string{"# What is Raft?", "## Question\n\nWhat is Raft?", "## Answer (built-in)", "## Question\n\nAnd attention?",
		"> The turn failed: The agent stopped.", "## References", "agentero://open?vault=%2Fhome%2Fme%2FMy%20Papers&ref=papers%2Fraft&page=1"} {
		if !strings.Contains(md, want) {
			t.Errorf("the conversation lacks %q:\n%s", want, md)
		}
	}
}

func TestBibTeXEscapes(t *testing.T) {
	lib := testLibrary()
	var papers []*index.Paper
	for i := range lib.Papers {
		papers = append(papers, &lib.Papers[i])
	}
	papers = append(papers, &lib.Papers[0]) // same key twice: made unique
	bib := BibTeX(papers)
	t.Log(bib)
	for _, want := range []string{
		"@article{ongaro2014search,",
		"@article{ongaro2014searcha,",
		"@misc{vaswani2017attention,",
		"  eprint = {1706.03762},\n  archiveprefix = {arXiv},",
		"  doi = {10.5555/2643634.2643666},",
		`title = {{50\% of \{braces\} \& \$money\$ \#1 under\_score \^{}hat \~{}tilde \textbackslash{}back}},`,
		"author = {Kurt Gödel and {Barnes and Noble Group}},",
		"@article{godel1931braces,",
	} {
		if !strings.Contains(bib, want) {
			t.Errorf("the BibTeX lacks %q", want)
		}
	}
	// Braces balance in every entry.
	for _, entry := range strings.Split(bib, "\n@") {
		depth := 0
		for i, r := range entry {
			if r == '\\' && i+1 < len(entry) && (entry[i+1] == '{' || entry[i+1] == '}') {
				continue
			}
			if r == '{' && (i == 0 || entry[i-1] != '\\') {
				depth++
			}
			if r == '}' && (i == 0 || entry[i-1] != '\\') {
				depth--
			}
			if depth < 0 {
				t.Fatalf("a closing brace too many in %s", entry)
			}
		}
		if depth != 0 {
			t.Errorf("unbalanced braces (%d) in %s", depth, entry)
		}
	}
}

func TestCSLJSON(t *testing.T) {
	lib := testLibrary()
	out, err := CSLJSON([]*index.Paper{&lib.Papers[0], &lib.Papers[1], &lib.Papers[2]})
	if err != nil {
		t.Fatal(err)
	}
	var items []map[string]any
	if err := json.Unmarshal(out, &items); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if len(items) != 3 {
		t.Fatalf("%d items", len(items))
	}
	raft := items[0]
	if raft["type"] != "article-journal" || raft["DOI"] != "10.5555/2643634.2643666" || raft["id"] != "ongaro2014search" {
		t.Errorf("raft: %v", raft)
	}
	authors := raft["author"].([]any)
	if a := authors[0].(map[string]any); a["family"] != "Ongaro" || a["given"] != "Diego" {
		t.Errorf("first author: %v", a)
	}
	if d := raft["issued"].(map[string]any)["date-parts"].([]any)[0].([]any)[0]; d != float64(2014) {
		t.Errorf("issued: %v", d)
	}
	if items[1]["type"] != "article" || items[1]["URL"] != "https://arxiv.org/abs/1706.03762" {
		t.Errorf("arXiv paper: %v", items[1])
	}
	if items[2]["title"] != lib.Papers[2].Title {
		t.Errorf("a title with TeX's characters changed: %v", items[2]["title"])
	}
}
