package metadata

// Metadata online, with the user's consent (settings.MetadataOnline, or
// the command line's --online): a paper's DOI is looked up at Crossref
// (https://api.crossref.org/works/<doi>, JSON: message.title[],
// message.author[{given, family}], message.issued.date-parts,
// message.container-title[]) and its arXiv id at the arXiv API
// (https://export.arxiv.org/api/query?id_list=<id>, an Atom feed:
// entry/title, entry/author/name, entry/published, entry/summary). What
// they say goes to metadata.json through Merge, with its source noted;
// a field the user edited, or one metadata.json holds from elsewhere (an
// import, a hand-written file), is never overwritten. Lookups run apart
// from indexing, one request at a time per service with a pause between
// (arXiv asks for one every three seconds), each with a timeout; a failure
// is reported for its paper and stops nothing else.

import (
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/agentero/agentero/backend/ident"
)

// Default service addresses and manners.
const (
	DefaultCrossref = "https://api.crossref.org"
	DefaultArxiv    = "https://export.arxiv.org/api"
	// DefaultTimeout bounds one request.
	DefaultTimeout = 10 * time.Second
	// maxResponse bounds what is read of an answer.
	maxResponse = 4 << 20
)

// Online looks metadata up. The zero value uses the public services.
type Online struct {
	CrossrefBase string        // "" = DefaultCrossref; tests point it at a fake server
	ArxivBase    string        // "" = DefaultArxiv
	Timeout      time.Duration // per request; 0 = DefaultTimeout
	// Contact is the user's email, sent in the User-Agent only when they
	// set one (Crossref's "polite pool"); nothing personal is sent otherwise.
	Contact string
	// Gap is the least time between two requests to one service; 0 = one
	// second for Crossref, three for arXiv (its terms of use).
	Gap    time.Duration
	Client *http.Client // nil = http.DefaultClient's transport with Timeout

	// mu guards last, each service's next free time; it is held only to
	// read and move it forward, never while waiting or asking.
	mu   sync.Mutex
	last map[string]time.Time
}

// Version goes in the User-Agent.
var Version = "dev"

// Found is what a service says about a paper.
type Found struct {
	Values
	Abstract  string
	Container string // the journal or proceedings (Crossref), not written
}

// ErrNotFound is a service that does not know the identifier.
var ErrNotFound = errors.New("not found")

func (o *Online) userAgent() string {
	ua := "Agentero/" + Version + " (https://github.com/agentero/agentero)"
	if c := strings.TrimSpace(o.Contact); c != "" && !strings.ContainsAny(c, "\r\n()") {
		ua = "Agentero/" + Version + " (https://github.com/agentero/agentero; mailto:" + c + ")"
	}
	return ua
}

// wait keeps the pause between two requests to service.
func (o *Online) wait(ctx context.Context, service string, gap time.Duration) error {
	o.mu.Lock()
	if o.last == nil {
		o.last = map[string]time.Time{}
	}
	next := o.last[service].Add(gap)
	now := time.Now()
	if next.Before(now) {
		next = now
	}
	o.last[service] = next
	o.mu.Unlock()
	t := time.NewTimer(time.Until(next))
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// get fetches u and returns its body, for a 200 answer.
func (o *Online) get(ctx context.Context, service, u, accept string, gap time.Duration) ([]byte, error) {
	if o.Gap > 0 {
		gap = o.Gap
	}
	if err := o.wait(ctx, service, gap); err != nil {
		return nil, err
	}
	timeout := o.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("User-Agent", o.userAgent())
	req.Header.Set("Accept", accept)
	client := o.Client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return nil, fmt.Errorf("%s did not answer within %s", service, timeout)
		}
		return nil, fmt.Errorf("%s could not be reached: %w", service, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxResponse))
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return nil, fmt.Errorf("%s did not answer within %s", service, timeout)
		}
		return nil, fmt.Errorf("%s: %w", service, err)
	}
	switch {
	case resp.StatusCode == http.StatusNotFound:
		return nil, fmt.Errorf("%s does not know it: %w", service, ErrNotFound)
	case resp.StatusCode == http.StatusTooManyRequests:
		return nil, fmt.Errorf("%s asks to slow down (HTTP 429); try again later", service)
	case resp.StatusCode != http.StatusOK:
		return nil, fmt.Errorf("%s answered HTTP %d", service, resp.StatusCode)
	}
	return body, nil
}

// crossrefWork is the part of Crossref's /works/<doi> answer that is read.
type crossrefWork struct {
	Status  string `json:"status"`
	Message struct {
		DOI    string   `json:"DOI"`
		Title  []string `json:"title"`
		Author []struct {
			Given  string `json:"given"`
			Family string `json:"family"`
			Name   string `json:"name"`
		} `json:"author"`
		Issued struct {
			DateParts [][]json.Number `json:"date-parts"`
		} `json:"issued"`
		ContainerTitle []string `json:"container-title"`
		Abstract       string   `json:"abstract"`
	} `json:"message"`
}

// Crossref looks a DOI up.
func (o *Online) Crossref(ctx context.Context, doi string) (Found, error) {
	doi = ident.NormalizeDOI(doi)
	if doi == "" {
		return Found{}, errors.New("no DOI to look up")
	}
	base := o.CrossrefBase
	if base == "" {
		base = DefaultCrossref
	}
	body, err := o.get(ctx, "Crossref", strings.TrimRight(base, "/")+"/works/"+url.PathEscape(doi), "application/json", time.Second)
	if err != nil {
		return Found{}, err
	}
	var w crossrefWork
	if err := json.Unmarshal(body, &w); err != nil || w.Status != "ok" {
		return Found{}, fmt.Errorf("Crossref's answer for %s could not be read", doi)
	}
	m := w.Message
	var f Found
	if len(m.Title) > 0 {
		f.Title = stripTags(m.Title[0])
	}
	for _, a := range m.Author {
		name := strings.TrimSpace(a.Given + " " + a.Family)
		if name == "" {
			name = strings.TrimSpace(a.Name)
		}
		if name != "" {
			f.Authors = append(f.Authors, name)
		}
	}
	if len(m.Issued.DateParts) > 0 && len(m.Issued.DateParts[0]) > 0 {
		if y, err := strconv.Atoi(m.Issued.DateParts[0][0].String()); err == nil {
			f.Year = y
		}
	}
	if len(m.ContainerTitle) > 0 {
		f.Container = m.ContainerTitle[0]
	}
	f.Abstract = stripTags(m.Abstract)
	f.DOI = doi
	return f, nil
}

// arxivFeed is the part of the arXiv API's Atom feed that is read.
type arxivFeed struct {
	Entries []struct {
		ID        string `xml:"http://www.w3.org/2005/Atom id"`
		Title     string `xml:"http://www.w3.org/2005/Atom title"`
		Summary   string `xml:"http://www.w3.org/2005/Atom summary"`
		Published string `xml:"http://www.w3.org/2005/Atom published"`
		Authors   []struct {
			Name string `xml:"http://www.w3.org/2005/Atom name"`
		} `xml:"http://www.w3.org/2005/Atom author"`
		DOI string `xml:"http://arxiv.org/schemas/atom doi"`
	} `xml:"http://www.w3.org/2005/Atom entry"`
}

// Arxiv looks an arXiv id up.
func (o *Online) Arxiv(ctx context.Context, id string) (Found, error) {
	id = ident.NormalizeArxiv(id)
	if id == "" {
		return Found{}, errors.New("no arXiv id to look up")
	}
	base := o.ArxivBase
	if base == "" {
		base = DefaultArxiv
	}
	body, err := o.get(ctx, "arXiv", strings.TrimRight(base, "/")+"/query?id_list="+url.QueryEscape(id), "application/atom+xml", 3*time.Second)
	if err != nil {
		return Found{}, err
	}
	var feed arxivFeed
	if err := xml.Unmarshal(body, &feed); err != nil {
		return Found{}, fmt.Errorf("arXiv's answer for %s could not be read", id)
	}
	for _, e := range feed.Entries {
		// The API reports a bad query as an entry titled "Error"; an
		// unknown id as an empty feed.
		if strings.TrimSpace(e.Title) == "Error" {
			return Found{}, fmt.Errorf("arXiv refused the id %s: %s", id, space(e.Summary))
		}
		if !strings.Contains(e.ID, id) {
			continue
		}
		f := Found{Abstract: space(e.Summary)}
		f.Title = space(e.Title)
		for _, a := range e.Authors {
			if n := space(a.Name); n != "" {
				f.Authors = append(f.Authors, n)
			}
		}
		if len(e.Published) >= 4 {
			f.Year, _ = strconv.Atoi(e.Published[:4])
		}
		f.ArxivID = id
		f.DOI = ident.NormalizeDOI(e.DOI)
		return f, nil
	}
	return Found{}, fmt.Errorf("arXiv does not know %s: %w", id, ErrNotFound)
}

var tag = regexp.MustCompile(`<[^<>]{0,200}>`)

func stripTags(s string) string { return space(tag.ReplaceAllString(s, " ")) }

func space(s string) string { return strings.Join(strings.Fields(s), " ") }

// Report is what a lookup did for one paper.
type Report struct {
	Ref    string   `json:"ref"`
	Source string   `json:"source"`          // crossref or arxiv
	ID     string   `json:"id"`              // the DOI or arXiv id looked up
	Wrote  []string `json:"wrote"`           // fields written to metadata.json
	Error  string   `json:"error,omitempty"` // why nothing was found or written
}

// Lookup looks the paper ref up by its DOI (Crossref), else its arXiv id
// (arXiv), and merges what it finds into its metadata.json.
func (o *Online) Lookup(ctx context.Context, root, ref, doi, arxivID string) Report {
	var (
		f   Found
		err error
		r   = Report{Ref: ref}
	)
	switch {
	case ident.NormalizeDOI(doi) != "" && ident.ArxivFromDOI(ident.NormalizeDOI(doi)) == "":
		r.Source, r.ID = SourceCrossref, ident.NormalizeDOI(doi)
		f, err = o.Crossref(ctx, doi)
	case ident.NormalizeArxiv(arxivID) != "" || ident.ArxivFromDOI(ident.NormalizeDOI(doi)) != "":
		id := ident.NormalizeArxiv(arxivID)
		if id == "" {
			id = ident.ArxivFromDOI(ident.NormalizeDOI(doi))
		}
		r.Source, r.ID = SourceArxiv, id
		f, err = o.Arxiv(ctx, id)
	default:
		r.Error = "no DOI or arXiv id to look up"
		return r
	}
	if err != nil {
		r.Error = err.Error()
		return r
	}
	fields := []string{Title, Authors, Year, abstractField}
	if r.Source == SourceArxiv && f.DOI != "" {
		fields = append(fields, DOI)
	}
	f.Values.Abstract = f.Abstract
	r.Wrote, err = Merge(ctx, root, ref, f.Values, fields, r.Source)
	if err != nil {
		r.Error = err.Error()
	}
	if r.Wrote == nil {
		r.Wrote = []string{}
	}
	return r
}
