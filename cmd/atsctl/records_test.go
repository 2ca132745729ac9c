package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tablegames/ats/app/journal"
)

func writeJournal(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "terminal.db")
	j, err := journal.Open(path, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, r := range []journal.Record{
		{Kind: "note-escrow", Key: "note:65:a", Amount: 2000, Flow: "stacking"},
		{Kind: "credit-point", Key: "note:65:a", Flow: "credit"},
		{Kind: "credited", Key: "note:65:a", Amount: 2000, Flow: journal.Done},
		{Kind: "cashout-requested", Key: "cashout:-:b", Flow: "requested"},
		{Kind: "ticket-issued", Key: "cashout:-:b", Amount: 2000, Flow: "printing"},
		{Kind: "ticket-printed", Key: "cashout:-:b", Amount: 2000, Flow: "confirming"},
		{Kind: "ticket-confirmed", Key: "cashout:-:b", Amount: 2000, Flow: journal.Done},
		{Kind: "note-escrow", Key: "note:67:c", Amount: 10000, Flow: "stacking"},
	} {
		if _, err := j.Append(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	j.Close()
	return path
}

func TestRecords(t *testing.T) {
	path := writeJournal(t)
	code, out, errs := atsctl("records", "-journal", path, "verify")
	if code != 0 || !strings.Contains(out, "8 records") {
		t.Fatalf("verify: %d %q %q", code, out, errs)
	}
	code, out, _ = atsctl("records", "-journal", path, "-n", "2", "list")
	if code != 0 || strings.Count(out, "\n") != 2 || !strings.Contains(out, "note:67:c") {
		t.Fatalf("list: %d %q", code, out)
	}
	code, out, _ = atsctl("records", "-journal", path, "pending")
	if code != 0 || !strings.Contains(out, "note:67:c") || strings.Contains(out, "note:65:a") {
		t.Fatalf("pending: %d %q", code, out)
	}
	code, out, _ = atsctl("records", "-journal", path, "meters")
	if code != 0 || !strings.Contains(out, "notes in                  2000 cents") || !strings.Contains(out, "2000 cents in 1 tickets") {
		t.Fatalf("meters: %d %q", code, out)
	}
	code, out, _ = atsctl("records", "-journal", path, "export")
	var recs []recordJSON
	if code != 0 || json.Unmarshal([]byte(out), &recs) != nil || len(recs) != 8 || recs[2].Kind != "credited" || recs[2].Amount != 2000 {
		t.Fatalf("export: %d %q", code, out)
	}
}

// A record changed on disk is found, named, and the tool fails.
func TestRecordsDetectTampering(t *testing.T) {
	path := writeJournal(t)
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`UPDATE records SET amount = 200000 WHERE seq = 3`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	code, _, errs := atsctl("records", "-journal", path, "verify")
	if code != 1 || !strings.Contains(errs, "record 3") {
		t.Fatalf("tampered journal: %d %q", code, errs)
	}
}

func TestRecordsUsage(t *testing.T) {
	if code, _, _ := atsctl("records", "list"); code != 2 {
		t.Errorf("no journal: exit %d", code)
	}
	if code, _, errs := atsctl("records", "-journal", "/nonexistent.db", "list"); code != 1 || !strings.Contains(errs, "no such file") {
		t.Errorf("missing journal: %d %q", code, errs)
	}
}
