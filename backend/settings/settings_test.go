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
