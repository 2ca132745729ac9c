package demo

import (
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
	"github.com/tablegames/ats/internal/testwait"
)

// The dealer's commands on the demo's stdin parse to what they say; a device's command is left
// to the device; a wrong one is refused in words (never a panic, never passed on to the note
// acceptor, whose own "unknown command" would not name the dealer's usage).
func TestDealerCommandsParse(t *testing.T) {
	for _, c := range []struct {
		line, wheel string
		dealer      bool
		err         string // "" none; else a part of the refusal
		want        dealerCmd
	}{
		{line: "outcome 17", dealer: true, want: dealerCmd{verb: "outcome", number: 17}},
		{line: "outcome 0", dealer: true, want: dealerCmd{verb: "outcome", number: 0}},
		{line: "outcome 00", wheel: "double", dealer: true, want: dealerCmd{verb: "outcome", number: roulette.DoubleZeroNumber}},
		{line: "outcome red", dealer: true, want: dealerCmd{verb: "outcome", colour: "red"}},
		{line: "  spin  ", dealer: true, want: dealerCmd{verb: "spin"}},
		{line: "hold", dealer: true, want: dealerCmd{verb: "hold"}},
		{line: "deal", dealer: true, want: dealerCmd{verb: "deal"}},
		{line: "draw", dealer: true, want: dealerCmd{verb: "draw"}},
		{line: "correct 20", dealer: true, want: dealerCmd{verb: "correct", number: 20}},
		{line: "tournament open", dealer: true, want: dealerCmd{verb: "tournament", action: "open", rounds: 1}},
		{line: "tournament open 3", dealer: true, want: dealerCmd{verb: "tournament", action: "open", rounds: 3}},
		{line: "tournament close rain", dealer: true, want: dealerCmd{verb: "tournament", action: "close", reason: "rain"}},
		// Refused, in words.
		{line: "outcome 00", dealer: true, err: `"00" is not a number of this single-zero wheel`},
		{line: "outcome 37", dealer: true, err: "not a number of this"},
		{line: "outcome purple", dealer: true, err: "not a number of this"},
		{line: "outcome", dealer: true, err: "usage: outcome N"},
		{line: "outcome 1 2", dealer: true, err: "usage: outcome N"},
		{line: "correct", dealer: true, err: "usage: correct N"},
		{line: "correct -1", dealer: true, err: "not a number"},
		{line: "spin now", dealer: true, err: "usage: spin"},
		{line: "tournament", dealer: true, err: "usage: tournament open"},
		{line: "tournament open zero", dealer: true, err: `"zero" rounds`},
		{line: "tournament open 0", dealer: true, err: "want 1 to"},
		{line: "tournament flip", dealer: true, err: `unknown action "flip"`},
		// The devices' commands are not the dealer's.
		{line: "note 2000"},
		{line: "jam"},
		{line: "pause"},
		{line: "printer paper-out"},
		{line: "pad card 1234567 1"},
		{line: ""},
	} {
		w := roulette.SingleZero
		if c.wheel == "double" {
			w = roulette.DoubleZero
		}
		got, dealer, err := parseDealer(c.line, w)
		if dealer != c.dealer {
			t.Errorf("%q: a dealer's command %v, want %v", c.line, dealer, c.dealer)
			continue
		}
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%q: refused: %v", c.line, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%q: error %v, want one saying %q", c.line, err, c.err)
		case c.err == "" && dealer && got != c.want:
			t.Errorf("%q: %+v, want %+v", c.line, got, c.want)
		}
	}
}

// The demo's tournament terms are valid terms a single seat can play.
func TestDemoTournamentTermsValid(t *testing.T) {
	terms := demoTournament(3, time.Now())
	if err := terms.Validate(); err != nil {
		t.Fatal(err)
	}
	if terms.MinPlayers > 1 {
		t.Fatalf("the demo's one seat cannot play it: at least %d players", terms.MinPlayers)
	}
}

// A wheel that faulted in a spin (on a loaded machine its line fell silent for 1.5 s) has its
// read of that spin refused by the table; the demo stalled in NO MORE BETS for good. The demo's
// dealer now enters the number the ball showed, as a dealer does on a wheel's fault, audited as
// the demo's dealer: the round ends on the number ordered.
func TestDemoDealerEntersTheNumberWhenTheWheelFaulted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	d, err := Start(ctx, Config{StateDir: t.TempDir(), TerminalID: "T01", Period: 30 * time.Second, Spin: time.Second,
		Log: slog.New(slog.NewTextHandler(t.Output(), nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	tbl := d.table.Table
	var id string
	if !testwait.For(10*time.Second, func() bool {
		var ph table.Phase
		id, ph = tbl.CurrentRound()
		return ph == table.PhaseWagering
	}) {
		t.Fatal("no round open")
	}
	time.Sleep(time.Second) // the croupier launches the ball at its next tick
	if err := d.croupier.emu.Fault("dirty", 1); err != nil {
		t.Fatal(err)
	}
	// Held: the result stays (the spin time here is 1 s, and so is the result's).
	for _, c := range []string{"hold", "outcome 17", "spin"} {
		if _, err := d.command(c); err != nil {
			t.Fatalf("%s: %v", c, err)
		}
	}
	if !testwait.For(15*time.Second, func() bool { r, ph := tbl.CurrentRound(); return r == id && ph == table.PhaseResult }) {
		t.Fatal("the round never settled after the wheel's fault")
	}
	events, err := tbl.AuditLog(50)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range events {
		if e.Kind == "outcome" && e.Round == id {
			if e.Detail != "17" || e.Actor != DealerActor {
				t.Fatalf("round %s's outcome: %q by %q, want 17 by %s", id, e.Detail, e.Actor, DealerActor)
			}
			return
		}
	}
	t.Fatalf("no outcome of %s in the audit log", id)
}
