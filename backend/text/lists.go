package text

// FunctionWord reports whether a lower-case word is one of the small words
// every sentence of English prose has and headings, tables and name lists
// lack: the built-in agent tells prose apart by them. It is not a stop list
// for search (see Stop).
func FunctionWord(w string) bool { return functionWords[w] }

var functionWords = map[string]bool{"the": true, "a": true, "an": true, "of": true, "to": true, "in": true,
	"is": true, "are": true, "was": true, "were": true, "be": true, "we": true, "it": true, "this": true,
	"that": true, "and": true, "or": true, "for": true, "on": true, "with": true, "by": true, "as": true,
	"can": true, "not": true, "which": true, "its": true, "has": true, "have": true, "at": true, "from": true}

// MinorTitleWord reports whether a lower-case word stays in lower case
// inside a title set in title case (after its first word): articles,
// conjunctions and short prepositions.
func MinorTitleWord(w string) bool { return minorTitleWords[w] }

var minorTitleWords = map[string]bool{"a": true, "an": true, "the": true, "and": true, "or": true, "of": true, "in": true,
	"on": true, "for": true, "to": true, "at": true, "by": true, "with": true, "from": true, "as": true, "via": true}
