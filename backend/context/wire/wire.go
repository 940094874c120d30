// Package wire is the text contract between what Agentero writes into an
// agent's prompt and what the built-in agent reads back from it: the turn's
// plan block (backend/context/plan renders it), the selection block inside
// each evidence card, and the compaction summary request and format
// (backend/context/compact renders it). Both sides use these constants, so
// a change to one is a change to the other; the built-in agent takes a
// selection only from a plan block's quote block, never from a "> " line
// elsewhere (a blockquote in the vault's AGENTS.md, a quoted answer).
package wire

// The plan block: one text block of its own, first line one of the heads.
const (
	PlanOpen        = "<agentero-context>"
	PlanClose       = "</agentero-context>"
	PlanHeadMCP     = "You may read more of the vault in this turn"
	PlanHeadNoTools = "You cannot read the vault in this turn"
)

// An evidence card inside the plan: "[n] kind ref: title[, page p]", then
// the source line, then the selection block when the user selected text.
const (
	CardSource = "    source: "
	// SelectionHead opens a card's selection block; each line of the
	// selected text follows with SelectionLine before it.
	SelectionHead = "    quote:"
	SelectionLine = "    > "
	// SelectionCut starts the line that says the selection was cut.
	SelectionCut = "    (quote cut at "
)

// The vault's guidance in the frozen snapshot: never read as a plan.
const (
	GuidanceOpen  = "<vault-guidance "
	GuidanceClose = "</vault-guidance>"
)

// The compaction summary request: the marker starts the prompt, then the
// previous summary and the turns to add, each between its markers.
const (
	SummaryMarker = "<agentero-summarize>"
	PreviousOpen  = "<previous summary>"
	PreviousClose = "</previous summary>"
	TurnsOpen     = "<turns to add>"
	TurnsClose    = "</turns to add>"
	// TurnHead is a turn's first line in the request ("Turn 7").
	TurnHead = "Turn %d"
	// Lines of a turn in the request.
	UserPrefix      = "User: "
	AssistantPrefix = "Assistant: "
	SourcesPrefix   = "(sources: "
	FailedPrefix    = "(failed: "
	// HistoryLine closes the request: where whole turns can be read again.
	HistoryLine = "Earlier turns can be read whole with the context_history tool, by turn number."
)

// Sections are the fixed headings of a summary, each written "## " + name.
var Sections = []string{
	"Intent", "Key concepts", "Papers and files touched", "Errors and fixes", "Problem solving",
	"All user messages (verbatim)", "Pending tasks", "Current work", "Transcript location",
}

// The indexes of the sections Agentero itself rewrites.
const (
	SectionPapers     = 2
	SectionUsers      = 5
	SectionTranscript = 8
)
