package metadata

import (
	"encoding/json"
	"testing"
)

func TestMetadataKeepsUnknownKeys(t *testing.T) {
	in := `{"title":"Raft","authors":[{"family":"Ongaro","given":"Diego"},"John Ousterhout"],"year":"2014-06",
		"doi":"10.5555/2643634","zotero":{"key":"ABC","version":3},"tags":"consensus"}`
	var m File
	if err := json.Unmarshal([]byte(in), &m); err != nil {
		t.Fatal(err)
	}
	if m.Title != "Raft" || m.Year != 2014 || len(m.Authors) != 2 || m.Authors[0] != "Diego Ongaro" || len(m.Tags) != 1 {
		t.Errorf("parsed %+v", m)
	}
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	var back map[string]any
	json.Unmarshal(out, &back)
	z, ok := back["zotero"].(map[string]any)
	if !ok || z["key"] != "ABC" {
		t.Errorf("unknown key lost in round trip: %s", out)
	}
}
