package cashier_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/tablegames/ats/app/cashier"
	"github.com/tablegames/ats/app/journal"
)

// leaveUnresolved writes, with the terminal stopped, what the cashier journals for a note the
// acceptor lost in the stacker (escrow, sent to the stacker, no credit point, not returned),
// and returns the flow's key.
func leaveUnresolved(t *testing.T, j *journal.Journal, cents int64) string {
	t.Helper()
	ctx := context.Background()
	key := "note:65:00000000000000aa"
	for _, r := range []journal.Record{
		{Kind: "note-escrow", Key: key, Amount: cents, Flow: cashier.Stacking},
		{Kind: "note-unresolved", Key: key, Flow: cashier.Unresolved},
	} {
		if _, err := j.Append(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	return key
}

// resolve opens the stopped terminal's journal as atsctl does, resolves key and closes it.
func (r *rig) resolve(t *testing.T, key string, inBox bool) journal.Flow {
	t.Helper()
	var f journal.Flow
	r.offline(t, func(j *journal.Journal) {
		var err error
		if f, err = cashier.ResolveUnresolved(context.Background(), j, key, inBox); err != nil {
			t.Fatal(err)
		}
	})
	return f
}

// records counts one kind of record of one key in the running terminal's journal.
func (r *rig) records(t *testing.T, kind, key string) []journal.Record {
	t.Helper()
	rs, err := r.j.Records(context.Background(), 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []journal.Record
	for _, rec := range rs {
		if rec.Kind == kind && rec.Key == key {
			out = append(out, rec)
		}
	}
	return out
}

// The attendant finds the lost note in the cash box: the restarted terminal's recovery asks the
// table for it with the flow's own key, and the table credits it once — also when the terminal
// had already asked once and died before it journalled the answer, and however often the
// terminal recovers again.
func TestResolveInBoxCreditsOnce(t *testing.T) {
	for _, tc := range []struct {
		name        string
		tableHadIt  bool // the table credited the key before the terminal journalled it
		wantCredits int  // Status.Credits: credits this start made (not replays)
	}{
		{"credited at recovery", false, 1},
		{"the table already had it", true, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t)
			ctx := context.Background()
			r.stop()
			var key string
			r.offline(t, func(j *journal.Journal) { key = leaveUnresolved(t, j, 2000) })
			r.reportEscrow(t, key, 2000)

			f := r.resolve(t, key, true)
			if f.State != cashier.CreditDue || f.Amount != 2000 || f.Key != key {
				t.Fatalf("resolved flow %+v, want %s of 2000 due", f, key)
			}
			if b := r.balance(t); b != 0 {
				t.Fatalf("balance %d before the terminal started, want 0: resolving credits nothing by itself", b)
			}
			if tc.tableHadIt {
				// What a first recovery did before it died: asked the table with the flow's key.
				if m, err := r.cli.CreditNote(ctx, key, 2000, "65"); err != nil || m.Balance != 2000 {
					t.Fatalf("the first ask: %+v %v", m, err)
				}
			}

			r.start(t) // Recover runs here, before the acceptor
			r.noPending(t)
			if b := r.balance(t); b != 2000 {
				t.Fatalf("table balance %d after recovery, want 2000", b)
			}
			st := r.c.Status()
			if st.Balance != 2000 || st.Credits != tc.wantCredits {
				t.Fatalf("cashier status %+v, want balance 2000 and %d credits", st, tc.wantCredits)
			}
			credited := r.records(t, "credited", key)
			if len(credited) != 1 || credited[0].Amount != 2000 || credited[0].Flow != journal.Done {
				t.Fatalf("credited records %+v, want one of 2000", credited)
			}
			if rs := r.records(t, "note-resolved-in-box", key); len(rs) != 1 || rs[0].Amount != 2000 {
				t.Fatalf("resolution records %+v", rs)
			}

			// A second recovery (another restart) asks for nothing and credits nothing.
			r.stop()
			r.start(t)
			if b := r.balance(t); b != 2000 {
				t.Fatalf("table balance %d after a second recovery, want 2000", b)
			}
			if n := len(r.records(t, "credited", key)); n != 1 {
				t.Fatalf("%d credited records after a second recovery, want 1", n)
			}
			// Resolving it again is refused: it is done.
			r.stop()
			r.offline(t, func(j *journal.Journal) {
				if _, err := cashier.ResolveUnresolved(ctx, j, key, true); !errors.Is(err, cashier.ErrNotUnresolved) {
					t.Fatalf("resolving a credited note again: %v, want ErrNotUnresolved", err)
				}
			})
		})
	}
}

// The attendant does not find the note in the cash box: it went back to the player. The flow is
// reversed and the table credits nothing.
func TestResolveNotInBoxCreditsNothing(t *testing.T) {
	r := newRig(t)
	r.stop()
	var key string
	r.offline(t, func(j *journal.Journal) { key = leaveUnresolved(t, j, 2000) })

	if f := r.resolve(t, key, false); f.State != journal.Reversed {
		t.Fatalf("resolved flow %+v, want reversed", f)
	}
	r.start(t)
	r.noPending(t)
	if b := r.balance(t); b != 0 {
		t.Fatalf("table balance %d, want 0", b)
	}
	if n := len(r.records(t, "credited", key)); n != 0 {
		t.Fatalf("%d credited records for a note not in the box", n)
	}
	if rs := r.records(t, "note-resolved-not-in-box", key); len(rs) != 1 || rs[0].Flow != journal.Reversed {
		t.Fatalf("resolution records %+v", rs)
	}
	// The terminal still takes notes, and only those count.
	if err := r.acc.InsertNote(500); err != nil {
		t.Fatal(err)
	}
	r.eventually(t, "the next note credited", func() bool { return r.balance(t) == 500 })
}

// Only a note left unresolved can be resolved: an unknown key, a note credited or returned, a
// note still stacking, a cash-out are refused, and nothing is written.
func TestResolveRefused(t *testing.T) {
	ctx := context.Background()
	j, err := journal.Open(filepath.Join(t.TempDir(), "terminal.db"), time.Now)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	steps := []journal.Record{
		{Kind: "note-escrow", Key: "note:65:credited", Amount: 2000, Flow: cashier.Stacking},
		{Kind: "credit-point", Key: "note:65:credited", Flow: cashier.CreditDue},
		{Kind: "credited", Key: "note:65:credited", Amount: 2000, Flow: journal.Done},
		{Kind: "note-escrow", Key: "note:63:owed", Amount: 500, Flow: cashier.Stacking},
		{Kind: "credit-point", Key: "note:63:owed", Flow: cashier.CreditDue},
		{Kind: "note-escrow", Key: "note:67:returned", Amount: 10000, Flow: cashier.Stacking},
		{Kind: "returned", Key: "note:67:returned", Flow: journal.Reversed},
		{Kind: "note-escrow", Key: "note:64:stacking", Amount: 1000, Flow: cashier.Stacking},
		{Kind: "cashout-requested", Key: "cashout:-:c1", Flow: cashier.Requested},
		{Kind: "ticket-escrow", Key: "ticket:001234567890123456:t1", Flow: cashier.Redeeming},
		{Kind: "slip-acked", Round: "R1", Amount: 600},
	}
	for _, s := range steps {
		if _, err := j.Append(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	for _, key := range []string{"note:65:nope", "", "note:65:credited", "note:63:owed", "note:67:returned",
		"note:64:stacking", "cashout:-:c1", "ticket:001234567890123456:t1"} {
		for _, inBox := range []bool{true, false} {
			if _, err := cashier.ResolveUnresolved(ctx, j, key, inBox); !errors.Is(err, cashier.ErrNotUnresolved) {
				t.Errorf("resolve %q (in box %v): %v, want ErrNotUnresolved", key, inBox, err)
			}
		}
	}
	if rs, err := j.Records(ctx, 0, 0); err != nil || len(rs) != len(steps) {
		t.Fatalf("%d records after the refusals, want %d (%v)", len(rs), len(steps), err)
	}

	// And an unresolved note, once resolved, is not resolved again either way.
	key := leaveUnresolved(t, j, 2000)
	if _, err := cashier.ResolveUnresolved(ctx, j, key, false); err != nil {
		t.Fatal(err)
	}
	for _, inBox := range []bool{true, false} {
		if _, err := cashier.ResolveUnresolved(ctx, j, key, inBox); !errors.Is(err, cashier.ErrNotUnresolved) {
			t.Errorf("resolve a reversed note again (in box %v): %v, want ErrNotUnresolved", inBox, err)
		}
	}
	if f, _, err := j.FlowOf(ctx, key); err != nil || f.State != journal.Reversed {
		t.Fatalf("flow %+v %v, want reversed", f, err)
	}
}
