package library

import "github.com/agentero/agentero/backend/index"

// Extractor is the library's PDF extractor (started on first use), for
// reading a PDF that is not in the index yet, such as one being added.
func (l *Library) Extractor() index.Extractor {
	if l.opts.Extract != nil {
		return l.opts.Extract
	}
	return l.ex
}
