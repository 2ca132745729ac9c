package station_test

import (
	"strings"
	"testing"

	"google.golang.org/grpc/codes"

	"github.com/tablegames/ats/app"
	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
	"github.com/tablegames/ats/server"
)

// TestRule003_9_12_SupervisorRefusesAWager: "A casino supervisor may refuse, on reasonable
// grounds, any wager made by a player prior to the call of no more bets, and in so doing may
// cause the wager(s) to be removed from the layout" (003 §9.12), through the real table server
// and a real station. Before: nothing could take a player's wager off the layout. Now the
// supervisor refuses one wager of the seat's slip; the terminal's screen shows the chips gone and
// the player is told the supervisor refused the wager and why; the player's next chip is taken
// (the terminal's version moves past the table's); after no more bets no refusal is taken; the
// round settles without the refused wager, and the audit log names the supervisor.
func TestRule003_9_12_SupervisorRefusesAWager(t *testing.T) {
	r := newRig(t, rigOptions{manual: true})
	r.ready()
	r.buyIn(5000)
	round := r.startRound()
	layout := r.view().Config.Layout
	straight := func(n roulette.Number) roulette.Bet {
		s, err := layout.Inside(roulette.Straight, []roulette.Number{n})
		if err != nil {
			t.Fatal(err)
		}
		return roulette.Bet{Spot: s}
	}
	red, err := layout.Outside(roulette.Red, 0)
	if err != nil {
		t.Fatal(err)
	}
	r.placeOn(500, roulette.Bet{Spot: red})
	r.placeOn(200, straight(17))
	if st := r.view().Stakes; len(st) != 2 || st[1].Bet.Spot != straight(17).Spot {
		t.Fatalf("the slip on the screen: %v", st)
	}

	// The straight on 17 is the slip's second wager (index 1).
	res, err := r.demo.Table.RefuseWager("supervisor:S1", "T01", round, server.Refusal{Reason: "past-posting suspected", Indexes: []int{1}})
	if err != nil || res.Refused != 200 || res.Slip.Total != 500 {
		t.Fatalf("the refusal: %v %v", res, err)
	}
	v := r.waitView("the refused chips gone and the player told", func(v app.View) bool {
		return len(v.Stakes) == 1 && v.SlipTotal == 500 &&
			v.Message.Msg.Key == "The casino supervisor refused your wager on %s (%s) and removed it: %s"
	})
	if v.Stakes[0].Bet.Spot != red || v.Available != 4500 || !v.Acked {
		t.Fatalf("after the refusal: stakes %v available %d acked %v", v.Stakes, v.Available, v.Acked)
	}
	if s := v.Message.Msg.String(); !strings.Contains(s, "past-posting suspected") || !strings.Contains(s, "2.00") || !strings.Contains(s, "17") {
		t.Fatalf("the player was told %q", s)
	}
	if s := r.server(); s.SlipTotal != 500 {
		t.Fatalf("the table holds %d on the slip, want 5.00", s.SlipTotal)
	}

	// The player's next chip is a newer version than the table's: taken, not refused as stale.
	r.placeOn(100, straight(5))
	if v := r.view(); len(v.Stakes) != 2 || v.SlipTotal != 600 {
		t.Fatalf("after a new chip: stakes %v total %d", v.Stakes, v.SlipTotal)
	}

	if _, err := r.demo.Table.BallDropping("dealer:test", round); err != nil {
		t.Fatal(err)
	}
	if _, err := r.demo.Table.RefuseWager("supervisor:S1", "T01", round, server.Refusal{Reason: "too late", All: true}); code(err) != codes.FailedPrecondition {
		t.Fatalf("a refusal after no more bets: %v, want FailedPrecondition", err)
	}
	// 17: the refused straight would have paid 72.00; red and 5 lose 6.00.
	if _, err := r.demo.Table.EnterOutcome("dealer:test", round, "17"); err != nil {
		t.Fatal(err)
	}
	v = r.waitView("settled", func(v app.View) bool {
		return v.Phase == table.PhaseResult && v.LastWin != nil && v.LastWin.RoundID == round
	})
	if v.Balance != 5000-600 || v.LastWin.Staked != 600 || v.LastWin.Returned != 0 {
		t.Fatalf("balance %d staked %d returned %d, want 44.00, 6.00, 0", v.Balance, v.LastWin.Staked, v.LastWin.Returned)
	}
	if !r.auditLogHas("wager-refused", "supervisor:S1") {
		t.Fatal("the refusal is not in the audit log with the supervisor's identity")
	}
	r.conserved()
}
