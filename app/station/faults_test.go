package station_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/tablegames/ats/app/table"

	"github.com/tablegames/ats/app"
	"github.com/tablegames/ats/app/cashier"
	"github.com/tablegames/ats/devices/emulator"
	"github.com/tablegames/ats/devices/id003"
)

// The table server lost mid-round (rule 9.8). Before the deadline the wagers are void: the screen
// says so at once and takes the chips off, and the server, which saw the terminal go, holds no
// slip for it. After the deadline they stand and settle from the server's records (9.8.2): the
// terminal, back on the table, shows and journals the settlement it missed.
func TestWagersWhenTheTableIsLost(t *testing.T) {
	for _, tc := range []struct {
		name          string
		afterDeadline bool
		balance       int64 // after the round, from 5000 with 500 on red and 1 drawn
	}{
		{"before the deadline: void", false, 5000},
		{"after the deadline: settled from the records", true, 5500},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, rigOptions{manual: true})
			r.ready()
			rid := r.round()
			r.buyIn(5000)
			r.place(500)
			if tc.afterDeadline {
				if _, err := r.demo.Table.BallDropping("dealer:test", rid); err != nil {
					t.Fatal(err)
				}
				r.waitView("no more bets", func(v app.View) bool { return v.Phase == table.PhaseNoMoreBets && v.Locked })
			}
			r.net.Cut()
			v := r.waitView("the link down", func(v app.View) bool { return !v.Connected })
			if tc.afterDeadline {
				if !v.Void.IsZero() || v.SlipTotal != 500 {
					t.Fatalf("after the deadline the wagers stand: void %q, slip %d", v.Void, v.SlipTotal)
				}
			} else {
				if v.Void.IsZero() || len(v.Stakes) != 0 || !v.Locked {
					t.Fatalf("before the deadline: void %q, stakes %v, locked %v", v.Void, v.Stakes, v.Locked)
				}
				r.eventually("the server voiding the slip", func() bool { return !r.server().Connected && r.server().SlipTotal == 0 })
				if _, err := r.demo.Table.BallDropping("dealer:test", rid); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := r.demo.Table.EnterOutcome("dealer:test", rid, "1"); err != nil { // red
				t.Fatal(err)
			}
			r.net.Restore()
			v = r.waitView("back on the table with the round's result", func(v app.View) bool {
				return v.Connected && v.Phase == table.PhaseResult && v.RoundID == rid
			})
			if v.Balance != tc.balance || r.conserved() != tc.balance {
				t.Fatalf("balance %d on the screen, %d on the ledger, want %d", v.Balance, r.conserved(), tc.balance)
			}
			settled := r.records("settled")
			if tc.afterDeadline {
				if v.LastWin == nil || v.LastWin.RoundID != rid || v.LastWin.Returned != 1000 {
					t.Fatalf("the settlement missed while away: %+v", v.LastWin)
				}
				if len(settled) != 1 || settled[0].Round != rid || settled[0].Amount != 1000 {
					t.Fatalf("settlements journalled: %+v", settled)
				}
			} else {
				if v.Void.IsZero() || (v.LastWin != nil && v.LastWin.RoundID == rid) {
					t.Fatalf("a void round: void %q, settlement %+v", v.Void, v.LastWin)
				}
				if len(settled) != 0 {
					t.Fatalf("settlements journalled for a void round: %+v", settled)
				}
			}
		})
	}
}

// shown is what the player sees of the round on the screen: a restart must bring back all of it.
type shown struct {
	Round     string
	Phase     table.Phase
	Locked    bool
	Balance   int64
	Stakes    []app.Stake
	SlipTotal int64
	Available int64
	Acked     bool
	LastWin   string
	Open      bool
}

func shownOf(v app.View) shown {
	s := shown{Round: v.RoundID, Phase: v.Phase, Locked: v.Locked, Balance: v.Balance, Stakes: slices.Clone(v.Stakes),
		SlipTotal: v.SlipTotal, Available: v.Available, Acked: v.Acked, Open: v.AccountOpen}
	if v.LastWin != nil {
		s.LastWin = v.LastWin.RoundID
	}
	return s
}

// A terminal restart mid-round (the station closed and started again on the same journal, the
// same server, the same devices). From the deadline on, the screen comes back exactly as it
// was — the slip the server will settle, the lock, the balance, the result — because the
// server's records are what settles (rule 9.7.2) and the snapshot carries them. Before the
// deadline the rules void the terminal's wagers for the spin (9.7.1: the server drops the slip
// of a terminal whose last stream ends while betting is open), so the screen comes back with
// everything but the chips, and says why they went.
func TestRestartMidRound(t *testing.T) {
	for _, tc := range []struct {
		name string
		at   table.Phase
	}{
		{"before the deadline", table.PhaseWagering},
		{"after the deadline", table.PhaseNoMoreBets},
		{"after the result", table.PhaseResult},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, rigOptions{manual: true})
			r.ready()
			rid := r.round()
			r.buyIn(5000)
			r.place(500)
			r.place(100)
			if tc.at >= table.PhaseNoMoreBets {
				if _, err := r.demo.Table.BallDropping("dealer:test", rid); err != nil {
					t.Fatal(err)
				}
			}
			if tc.at == table.PhaseResult {
				if _, err := r.demo.Table.EnterOutcome("dealer:test", rid, "2"); err != nil { // black: 600 lost
					t.Fatal(err)
				}
			}
			before := shownOf(r.waitView("the round where the test wants it", func(v app.View) bool {
				return v.Phase == tc.at && (tc.at != table.PhaseResult || v.LastWin != nil && v.LastWin.RoundID == rid)
			}))

			r.restart()
			after := r.waitView("the screen back", func(v app.View) bool { return v.Connected && v.RoundID == rid })
			want := before
			if tc.at == table.PhaseWagering {
				// Rule 9.7.1: the chips are void; the rest of the screen is as it was.
				want.Stakes, want.SlipTotal, want.Available = nil, 0, before.Balance
				if after.Void.IsZero() {
					t.Errorf("the screen does not say why the wagers went")
				}
				if s := r.server().SlipTotal; s != 0 {
					t.Errorf("the server still holds a slip of %d", s)
				}
			} else if !after.Void.IsZero() {
				t.Errorf("wagers past the deadline shown void: %q", after.Void)
			}
			if got := shownOf(after); !equalShown(got, want) {
				t.Fatalf("after the restart\n got %+v\nwant %+v", got, want)
			}

			// The round plays on from there, and the player keeps playing.
			switch tc.at {
			case table.PhaseWagering:
				r.place(500) // betting is still open: the player may bet on this spin again
				if _, err := r.demo.Table.BallDropping("dealer:test", rid); err != nil {
					t.Fatal(err)
				}
				fallthrough
			case table.PhaseNoMoreBets:
				if _, err := r.demo.Table.EnterOutcome("dealer:test", rid, "2"); err != nil {
					t.Fatal(err)
				}
			}
			lost := map[table.Phase]int64{table.PhaseWagering: 500, table.PhaseNoMoreBets: 600, table.PhaseResult: 600}[tc.at]
			v := r.waitView("the result", func(v app.View) bool { return v.LastWin != nil && v.LastWin.RoundID == rid })
			if v.Balance != 5000-lost || r.conserved() != 5000-lost || len(v.Stakes) != 0 {
				t.Fatalf("after the result: balance %d (ledger %d), stakes %v; want %d and none", v.Balance, r.conserved(), v.Stakes, 5000-lost)
			}
			// Repeat puts the settled round's bets back, as it would have without the restart.
			r.round()
			if err := r.st.Terminal.Repeat(); err != nil {
				t.Fatalf("repeat after a restart: %v", err)
			}
			wantRepeat := map[table.Phase]int64{table.PhaseWagering: 500, table.PhaseNoMoreBets: 600, table.PhaseResult: 600}[tc.at]
			r.waitView("the repeated bets acknowledged", func(v app.View) bool { return v.Acked && v.SlipTotal == wantRepeat })
		})
	}
}

func equalShown(a, b shown) bool {
	return a.Round == b.Round && a.Phase == b.Phase && a.Locked == b.Locked && a.Balance == b.Balance &&
		slices.Equal(a.Stakes, b.Stakes) && a.SlipTotal == b.SlipTotal && a.Available == b.Available &&
		a.Acked == b.Acked && a.LastWin == b.LastWin && a.Open == b.Open
}

// A note acceptor fault is told to the player (the cashier's status, which the screen shows in
// its message line) and money stops — the station does not take a note until the fault clears;
// then it takes them again.
func TestAcceptorFaultStopsMoney(t *testing.T) {
	r := newRig(t, rigOptions{})
	r.ready()
	for _, tc := range []struct{ command, told string }{
		{"jam", "jam"},
		{"jam-stacker", "jam"},
		{"stacker-full", "stacker full"},
		{"stacker-open", "stacker open"},
		{"cheat", "cheat"},
		{"pause", "pause"},
		{"failure A6", "failure"},
	} {
		t.Run(tc.command, func(t *testing.T) {
			r.t = t
			before := r.view().Balance
			if _, err := r.acc.Command(tc.command); err != nil {
				t.Fatal(err)
			}
			r.eventually("the fault told", func() bool { return contains(r.st.Cashier.Status().Fault.String(), tc.told) })
			r.eventually("money stopped", func() bool { return !r.st.MayTakeMoney() })
			if err := r.acc.InsertNote(1000); err == nil {
				t.Fatal("a faulted acceptor took a note")
			}
			if _, err := r.acc.Command("clear"); err != nil {
				t.Fatal(err)
			}
			r.eventually("the fault cleared", func() bool { return r.st.Cashier.Status().Fault.IsZero() && r.st.MayTakeMoney() })
			r.buyIn(1000)
			if b := r.view().Balance; b != before+1000 {
				t.Fatalf("balance %d, want %d", b, before+1000)
			}
		})
	}
}

// The stacker jams while a note is going into it. The attendant clears the jam leaving the note
// in the stacker's path: the acceptor restarts, stacks it with no credit point, and the station
// credits it once — from its journal's record of the note it sent there — never as returned.
// If the attendant takes the note out instead, nobody can tell the station where it went: the
// note stays an open flow for the attendant, neither credited nor reversed.
func TestStackerJamWhileStacking(t *testing.T) {
	for _, tc := range []struct {
		clear    string
		credited int64
	}{
		{"clear", 2000},
		{"clear-out", 0},
	} {
		t.Run(tc.clear, func(t *testing.T) {
			r := newRig(t, rigOptions{acceptor: func(c *emulator.NoteAcceptorConfig) { c.Stack = 2 * time.Second }})
			r.ready()
			r.buyIn(1000)
			r.jamWhileStacking(2000)
			if _, err := r.acc.Command(tc.clear); err != nil {
				t.Fatal(err)
			}
			r.eventually("the acceptor back in service", func() bool { return r.st.Cashier.Status().Fault.IsZero() && r.acceptorEnabled() })
			if tc.credited > 0 {
				r.waitView("the jammed note credited", func(v app.View) bool { return v.Balance == 1000+tc.credited })
				r.noPending()
				if n := len(r.records("credit-point-at-power-up")); n != 1 {
					t.Fatalf("%d credit points at power-up, want 1", n)
				}
			} else {
				r.eventually("the note left open for the attendant", func() bool {
					fs, err := r.st.Journal.Pending(context.Background())
					return err == nil && len(fs) == 1 && fs[0].State == cashier.Unresolved && fs[0].Amount == 2000
				})
				if !contains(r.st.Cashier.Status().Message.String(), "attendant") {
					t.Fatalf("message %q", r.st.Cashier.Status().Message)
				}
			}
			if n := len(r.records("returned")) + len(r.records("returned-at-start")); n != 0 {
				t.Fatalf("a note sent to the stacker was journalled as returned (%d records)", n)
			}
			// The station goes on taking notes; the books agree with the cash box. (Not
			// r.buyIn: an unresolved note is meant to stay open.)
			if err := r.acc.InsertNote(500); err != nil {
				t.Fatal(err)
			}
			r.waitView("the next note credited", func(v app.View) bool { return v.Balance == 1500+tc.credited })
			if b := r.conserved(); b != 1500+tc.credited || r.view().Balance != b {
				t.Fatalf("ledger balance %d, screen %d, want %d", b, r.view().Balance, 1500+tc.credited)
			}
			r.cashBox(1500 + tc.credited)
			// The balance reaches the screen from the table's broadcast, which can overtake the
			// cashier's own "credited" record of the last note: wait for the journal to close it.
			want := map[bool]int{true: 3, false: 2}[tc.credited > 0]
			r.eventually(fmt.Sprintf("%d credits journalled", want), func() bool { return len(r.records("credited")) >= want })
			if n := len(r.records("credited")); n != want {
				t.Fatalf("%d credits journalled, want %d", n, want)
			}
		})
	}
}

// The terminal restarts while the stacker is jammed on a note it sent there: the restarted
// driver does not reset the acceptor (the reset would stack the note with no credit point and
// the start-up would take it for returned); once the attendant clears the jam the acceptor
// reports the note in its stacker and the station credits it once, from its journal.
func TestStackerJamAcrossATerminalRestart(t *testing.T) {
	r := newRig(t, rigOptions{acceptor: func(c *emulator.NoteAcceptorConfig) { c.Stack = 2 * time.Second }})
	r.ready()
	r.jamWhileStacking(2000)
	r.restart()
	r.eventually("the jam told after the restart", func() bool { return contains(r.st.Cashier.Status().Fault.String(), "jam") })
	if _, err := r.acc.Command("clear"); err != nil {
		t.Fatal(err)
	}
	r.waitView("the jammed note credited", func(v app.View) bool { return v.Balance == 2000 })
	r.noPending()
	// The station credits on the acceptor's word that the note is in its stacker; the acceptor
	// finishes stacking it while it initialises.
	r.cashBox(2000)
	if b := r.conserved(); b != 2000 || len(r.records("credited")) != 1 {
		t.Fatalf("ledger %d, cash box %d, credits %v", b, r.acc.CashboxCents(), r.records("credited"))
	}
}

// jamWhileStacking puts a note in and jams the stacker while it is stacking, and waits for the
// player to be told of the jam.
func (r *rig) jamWhileStacking(cents int64) {
	r.t.Helper()
	if err := r.acc.InsertNote(cents); err != nil {
		r.t.Fatal(err)
	}
	r.eventually("the note stacking", func() bool { st, _ := r.acc.Status(); return st == id003.StStacking })
	if _, err := r.acc.Command("jam-stacker"); err != nil {
		r.t.Fatal(err)
	}
	r.eventually("the jam told", func() bool { return contains(r.st.Cashier.Status().Fault.String(), "jam") })
}
