package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tablegames/ats/app/table"

	"github.com/tablegames/ats/app/journal"
	"github.com/tablegames/ats/app/recall"
	"github.com/tablegames/ats/app/roulette"
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

// verify with the table server's anchor: records 5–8 cut off the end of the journal verify as
// a chain, but the journal no longer holds the anchored record; the full journal does.
func TestRecordsVerifyAgainstTheAnchor(t *testing.T) {
	path := writeJournal(t)
	j, err := journal.OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	seq, mac := j.Head()
	j.Close()
	anchor := fmt.Sprintf("%d:%x", seq, mac)
	if code, out, errs := atsctl("records", "-journal", path, "-anchor", anchor, "verify"); code != 0 || !strings.Contains(out, "holds the table's anchor (record 8)") {
		t.Fatalf("verify with the anchor: %d %q %q", code, out, errs)
	}
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`DELETE FROM records WHERE seq >= 5`); err != nil {
		t.Fatal(err)
	}
	db.Exec(`DELETE FROM flows WHERE opened >= 5`)
	db.Exec(`UPDATE flows SET state = 'requested', updated = 4 WHERE key = 'cashout:-:b'`)
	db.Close()
	code, _, errs := atsctl("records", "-journal", path, "-anchor", anchor, "verify")
	if code != 1 || !strings.Contains(errs, "records 5–8 deleted") {
		t.Fatalf("journal cut short: %d %q", code, errs)
	}
	if code, _, errs := atsctl("records", "-journal", path, "-anchor", "8:zz", "verify"); code != 2 {
		t.Fatalf("malformed anchor: %d %q", code, errs)
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

// writeRounds adds two recorded rounds to a journal: 19 wins on R1; R2 is paid as if its bet had
// won when it had not (wrong), if bad.
func writeRounds(t *testing.T, path string, bad bool) {
	t.Helper()
	j, err := journal.Open(path, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	ctx := context.Background()
	l := roulette.Layout{Wheel: roulette.SingleZero}
	s19, _ := l.Inside(roulette.Straight, []roulette.Number{19})
	red, _ := l.Outside(roulette.Red, 0)
	w := recall.Writer{J: j}
	ack := table.SlipAck{RoundID: "R1", Version: 2, Total: 600,
		Bets:    []table.SlipBet{{Bet: roulette.Bet{Spot: s19}, Amount: 100}, {Bet: roulette.Bet{Spot: red}, Amount: 500}},
		Results: []table.BetResult{{Accepted: 100}, {Accepted: 500}}}
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(w.SlipAcked(ctx, l, ack))
	must(w.Settled(ctx, table.Settled{RoundID: "R1", Number: 19, Recognised: true, Staked: 600, Returned: 4600, Balance: 6000, SlipVersion: 2}))
	ack.RoundID, ack.Version = "R2", 1
	must(w.SlipAcked(ctx, l, ack))
	returned := int64(0) // 2 is black: both lose
	if bad {
		returned = 4600
	}
	must(w.Settled(ctx, table.Settled{RoundID: "R2", Number: 2, Recognised: true, Staked: 600, Returned: returned, Balance: 5400 + returned, SlipVersion: 1}))
	b1 := table.AcceptedBuyIn{ID: "B1", Key: "buy-in-B1", Amount: 5000}
	must(w.BuyInAccepted(ctx, b1))
	must(w.BuyInDone(ctx, b1, 5000, ""))
}

// The meters' dealer in and out are read from what the terminal now writes: a buy-in counts
// once its table credited it — once, however often its answer is told — and not while it is
// only accepted nor when refused; a close at the console counts once per close id, though every
// snapshot tells it again.
func TestRecordsMetersDealerMoney(t *testing.T) {
	path := filepath.Join(t.TempDir(), "terminal.db")
	j, err := journal.Open(path, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	w := recall.Writer{J: j}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	credited := table.AcceptedBuyIn{ID: "B1", Key: "buy-in-B1", Amount: 5000}
	must(w.BuyInAccepted(ctx, credited))
	must(w.BuyInAccepted(ctx, credited)) // a second touch: the same acceptance
	must(w.BuyInDone(ctx, credited, 5000, ""))
	must(w.BuyInDone(ctx, credited, 5000, "")) // the touch and the start-up recovery both answered
	refused := table.AcceptedBuyIn{ID: "B2", Key: "buy-in-B2", Amount: 700}
	must(w.BuyInAccepted(ctx, refused))
	must(w.BuyInDone(ctx, refused, 0, "buy-in B2 is already declined"))
	open := table.AcceptedBuyIn{ID: "B3", Key: "buy-in-B3", Amount: 300}
	must(w.BuyInAccepted(ctx, open)) // the terminal went down before the table answered
	must(w.DealerCashOut(ctx, table.AccountClosed{ID: "C1", Reason: "dealer", Amount: 4000}))
	must(w.DealerCashOut(ctx, table.AccountClosed{ID: "C1", Reason: "dealer", Amount: 4000})) // the next snapshot
	must(w.DealerCashOut(ctx, table.AccountClosed{ID: "C2", Reason: "directed-to-leave", Amount: 1200}))
	if err := w.DealerCashOut(ctx, table.AccountClosed{ID: "C3", Amount: -1}); err == nil {
		t.Fatal("a negative dealer cash-out was recorded")
	}
	j.Close()

	code, out, errs := atsctl("records", "-journal", path, "meters")
	if code != 0 || !strings.Contains(out, "dealer in                 5000 cents") || !strings.Contains(out, "dealer out                5200 cents") {
		t.Fatalf("meters: %d %q %q", code, out, errs)
	}
	code, out, _ = atsctl("records", "-journal", path, "pending")
	if code != 0 || !strings.Contains(out, "buy-in:B3") || strings.Contains(out, "buy-in:B1") || strings.Contains(out, "buy-in:B2") {
		t.Fatalf("pending: %d %q", code, out)
	}
}

func TestRecordsRoundsShowAndRecompute(t *testing.T) {
	path := writeJournal(t)
	writeRounds(t, path, false)
	code, out, errs := atsctl("records", "-journal", path, "rounds")
	if code != 0 || !strings.Contains(out, "R1") || !strings.Contains(out, "R2") || strings.Index(out, "R2") > strings.Index(out, "R1") ||
		!strings.Contains(out, "46.00") {
		t.Fatalf("rounds: %d %q %q", code, out, errs)
	}
	code, out, errs = atsctl("records", "-journal", path, "show", "R1")
	if code != 0 || !strings.Contains(out, "straight 19") || !strings.Contains(out, "outcome 19 red") || !strings.Contains(out, "won 46.00") {
		t.Fatalf("show: %d %q %q", code, out, errs)
	}
	if code, _, errs = atsctl("records", "-journal", path, "show", "R9"); code != 1 || !strings.Contains(errs, "no round R9") {
		t.Fatalf("show of a missing round: %d %q", code, errs)
	}
	code, out, errs = atsctl("records", "-journal", path, "verify")
	if code != 0 || !strings.Contains(out, "2 settlements recomputed") {
		t.Fatalf("verify: %d %q %q", code, out, errs)
	}
	code, out, _ = atsctl("records", "-journal", path, "meters")
	if code != 0 || !strings.Contains(out, "rounds played                2") || !strings.Contains(out, "wagered                   1200") ||
		!strings.Contains(out, "dealer in                 5000") {
		t.Fatalf("meters: %d %q", code, out)
	}
}

func TestRecordsVerifyRecomputesSettlements(t *testing.T) {
	path := writeJournal(t)
	writeRounds(t, path, true)
	code, _, errs := atsctl("records", "-journal", path, "verify")
	if code != 1 || !strings.Contains(errs, "round R2") || !strings.Contains(errs, "returned 4600") {
		t.Fatalf("verify of a wrong settlement: %d %q", code, errs)
	}
}

// The attendant resolves a lost note at a stopped terminal: refused while the terminal (another
// journal handle) holds the journal, done once it is stopped, and the note is no longer pending.
// The read-only actions go on working while the terminal runs.
func TestRecordsResolve(t *testing.T) {
	path := writeJournal(t) // note:67:c left stacking
	ctx := context.Background()
	term, err := journal.Open(path, time.Now) // the running terminal
	if err != nil {
		t.Fatal(err)
	}
	defer term.Close()
	for _, r := range []journal.Record{
		{Kind: "note-unresolved", Key: "note:67:c", Flow: "unresolved"},
		{Kind: "note-escrow", Key: "note:63:d", Amount: 500, Flow: "stacking"},
		{Kind: "note-unresolved", Key: "note:63:d", Flow: "unresolved"},
	} {
		if _, err := term.Append(ctx, r); err != nil {
			t.Fatal(err)
		}
	}

	code, out, errs := atsctl("records", "-journal", path, "pending")
	if code != 0 || !strings.Contains(out, "note:67:c") || !strings.Contains(out, "unresolved") {
		t.Fatalf("pending while the terminal runs: %d %q %q", code, out, errs)
	}
	if code, out, errs = atsctl("records", "-journal", path, "verify"); code != 0 || !strings.Contains(out, "11 records") {
		t.Fatalf("verify while the terminal runs: %d %q %q", code, out, errs)
	}
	code, out, errs = atsctl("records", "-journal", path, "resolve", "note:67:c", "in-box")
	if code != 1 || !strings.Contains(errs, "stop the terminal first") || out != "" {
		t.Fatalf("resolve while the terminal runs: %d %q %q", code, out, errs)
	}
	if f, _, err := term.FlowOf(ctx, "note:67:c"); err != nil || f.State != "unresolved" {
		t.Fatalf("flow after the refusal: %+v %v", f, err)
	}
	term.Close() // the terminal is stopped

	code, out, errs = atsctl("records", "-journal", path, "resolve", "note:67:c", "in-box")
	if code != 0 || !strings.Contains(out, "note:67:c") || !strings.Contains(out, "100.00 owed") {
		t.Fatalf("resolve in-box: %d %q %q", code, out, errs)
	}
	code, out, errs = atsctl("records", "-journal", path, "resolve", "note:63:d", "not-in-box")
	if code != 0 || !strings.Contains(out, "note:63:d: not in the cash box") {
		t.Fatalf("resolve not-in-box: %d %q %q", code, out, errs)
	}
	// The in-box note waits for the terminal to ask for its credit; the other is closed.
	code, out, _ = atsctl("records", "-journal", path, "pending")
	if code != 0 || strings.Contains(out, "unresolved") || !strings.Contains(out, "note:67:c") || !strings.Contains(out, " credit ") ||
		strings.Contains(out, "note:63:d") {
		t.Fatalf("pending after resolving: %d %q", code, out)
	}

	// Never twice, never anything else, and the arguments are checked.
	for _, c := range []struct {
		args []string
		code int
		errs string
	}{
		{[]string{"note:67:c", "in-box"}, 1, "is credit, nothing to resolve"},
		{[]string{"note:63:d", "in-box"}, 1, "is reversed"},
		{[]string{"note:65:a", "not-in-box"}, 1, "is done"},
		{[]string{"cashout:-:b", "in-box"}, 1, "not a note"},
		{[]string{"note:99:zz", "in-box"}, 1, "no money flow"},
		{[]string{"note:67:c", "maybe"}, 2, "neither in-box nor not-in-box"},
		{[]string{"note:67:c"}, 2, "usage"},
	} {
		code, out, errs := atsctl(append([]string{"records", "-journal", path, "resolve"}, c.args...)...)
		if code != c.code || !strings.Contains(errs, c.errs) || out != "" {
			t.Errorf("resolve %v: %d %q %q, want exit %d naming %q", c.args, code, out, errs, c.code, c.errs)
		}
	}
	code, out, _ = atsctl("records", "-journal", path, "list")
	if code != 0 || strings.Count(out, "note-resolved-in-box") != 1 || strings.Count(out, "note-resolved-not-in-box") != 1 {
		t.Fatalf("list after resolving: %d %q", code, out)
	}
	if code, _, errs := atsctl("records", "-journal", path, "verify"); code != 0 {
		t.Fatalf("verify after resolving: %d %q", code, errs)
	}
}

// An action that is not one is refused before the journal is opened.
func TestRecordsUnknownAction(t *testing.T) {
	path := writeJournal(t)
	if code, _, errs := atsctl("records", "-journal", path, "fix"); code != 2 || !strings.Contains(errs, `unknown action "fix"`) {
		t.Fatalf("unknown action: %d %q", code, errs)
	}
	if code, _, _ := atsctl("records", "-journal", path, "list", "extra"); code != 2 {
		t.Fatalf("list with an argument: exit %d", code)
	}
}
