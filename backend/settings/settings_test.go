package settings

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentero/agentero/backend/context/grant"
)

func TestLoadSave(t *testing.T) {
	p := filepath.Join(t.TempDir(), "agentero", "settings.json")
	s, err := Load(p)
	if err != nil || s.Budget != grant.DefaultBudget() {
		t.Fatalf("missing file: %+v %v", s, err)
	}
	s.Budget.FullChars = 8000
	if err := Save(p, s); err != nil {
		t.Fatal(err)
	}
	got, err := Load(p)
	if err != nil || got.Budget.FullChars != 8000 || got.Budget.SearchCards != grant.DefaultBudget().SearchCards {
		t.Errorf("round trip: %+v %v", got, err)
	}
	s.Budget.TurnChars = -1
	if err := Save(p, s); err == nil {
		t.Error("a negative budget was saved")
	}
	os.WriteFile(p, []byte(`{"budget": {"fullChars": 9000}}`), 0o644)
	if got, _ := Load(p); got.Budget.FullChars != 9000 || got.Budget.TurnChars != grant.DefaultBudget().TurnChars {
		t.Errorf("partial file: %+v", got.Budget)
	}
	os.WriteFile(p, []byte(`{"budget": {"fullChars": 999999999}}`), 0o644)
	if _, err := Load(p); err == nil || !strings.Contains(err.Error(), "fullChars") {
		t.Errorf("absurd value: %v", err)
	}
	os.WriteFile(p, []byte(`{`), 0o644)
	if _, err := Load(p); err == nil {
		t.Error("broken JSON accepted")
	}
}

// TestMetadataOnlineAsked: the first-import question is asked until the
// user answers it; "stay offline" keeps lookups off, and a settings file
// from before the question (lookups already on) counts as answered.
func TestMetadataOnlineAsked(t *testing.T) {
	p := filepath.Join(t.TempDir(), "settings.json")
	s, _ := Load(p)
	if s.MetadataOnline || s.MetadataOnlineAsked {
		t.Fatalf("fresh install: online %v, asked %v; want both off", s.MetadataOnline, s.MetadataOnlineAsked)
	}
	s.MetadataOnlineAsked = true // "Stay offline"
	if err := Save(p, s); err != nil {
		t.Fatal(err)
	}
	if got, _ := Load(p); got.MetadataOnline || !got.MetadataOnlineAsked {
		t.Errorf("after Stay offline: online %v, asked %v; want off, asked", got.MetadataOnline, got.MetadataOnlineAsked)
	}
	os.WriteFile(p, []byte(`{"metadataOnline": true}`), 0o644)
	if got, _ := Load(p); !got.MetadataOnline || !got.MetadataOnlineAsked {
		t.Errorf("switched on before the question existed: online %v, asked %v; want on, asked", got.MetadataOnline, got.MetadataOnlineAsked)
	}
}

// TestBudgetDefaultsReachUsers: a budget value the user never chose follows
// the release's default. Files of earlier releases, which wrote every
// value, read their placeholder defaults as today's; a value the user
// chose stays, even one equal to an old default.
func TestBudgetDefaultsReachUsers(t *testing.T) {
	def := grant.DefaultBudget()
	p := filepath.Join(t.TempDir(), "settings.json")
	os.WriteFile(p, []byte(`{"budget": {"searchCards": 8, "cardsPerPaper": 3, "excerptChars": 1500, "fullChars": 20000, "dirEntries": 200, "turnChars": 60000}, "metadataOnline": true}`), 0o600)
	got, err := Load(p)
	if err != nil || got.Budget != def || !got.MetadataOnline {
		t.Errorf("a file of an earlier release with its defaults: %+v, %v; want today's defaults", got, err)
	}
	os.WriteFile(p, []byte(`{"budget": {"searchCards": 12, "fullChars": 20000, "turnChars": 90000}}`), 0o600)
	if got, _ := Load(p); got.Budget.SearchCards != 12 || got.Budget.TurnChars != 90000 || got.Budget.FullChars != def.FullChars {
		t.Errorf("an earlier file with chosen values: %+v; want 12 cards, 90000 a turn, today's full reads", got.Budget)
	}

	s := Defaults()
	s.Budget.TurnChars = 60000 // chosen now: kept
	if err := Save(p, s); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(p)
	if !strings.Contains(string(data), `"fullChars": 0`) || !strings.Contains(string(data), `"turnChars": 60000`) {
		t.Errorf("saved file: values at their default should be 0, the chosen one kept:\n%s", data)
	}
	if got, _ := Load(p); got.Budget.TurnChars != 60000 || got.Budget.FullChars != def.FullChars {
		t.Errorf("round trip of a chosen old default: %+v", got.Budget)
	}
}
