package station_test

import (
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/tablegames/ats/app"
	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
	"github.com/tablegames/ats/server"
)

// Issue 17 items 5 and 6, through the real table server (mutual TLS on loopback, its SQLite
// ledger) and the kiosk's station: the terminal's own gRPC client, journal and app.Terminal.

// placeOn puts one chip of chip cents on bet and waits for the table to acknowledge the slip.
func (r *rig) placeOn(chip int64, bet roulette.Bet) {
	r.t.Helper()
	want := r.view().SlipTotal + chip
	r.st.Terminal.SelectChip(chip)
	if _, err := r.st.Terminal.Place(bet); err != nil {
		r.t.Fatal(err)
	}
	r.waitView("the slip acknowledged", func(v app.View) bool { return v.Acked && v.SlipTotal == want })
	r.eventually("the server holding the slip", func() bool { return r.server().SlipTotal == want })
}

// startRound has the dealer open a round and waits for the screen to take bets.
func (r *rig) startRound() string {
	r.t.Helper()
	st, err := r.demo.Table.StartRound("dealer:test")
	if err != nil {
		r.t.Fatal(err)
	}
	r.waitView("the round open", func(v app.View) bool { return v.RoundID == st.RoundId && !v.Locked })
	return st.RoundId
}

// dropAndEnter ends the period (the wheel sensor) and enters the outcome.
func (r *rig) dropAndEnter(round, number string) {
	r.t.Helper()
	if _, err := r.demo.Table.BallDropping("dealer:test", round); err != nil {
		r.t.Fatal(err)
	}
	if _, err := r.demo.Table.EnterOutcome("dealer:test", round, number); err != nil {
		r.t.Fatal(err)
	}
}

func luckyRig(t *testing.T) *rig {
	return newRig(t, rigOptions{manual: true, cfg: func(c *server.Config) { c.LuckyBall = true }})
}

// 003 §7.4: the Lucky Ball numbers are shown once the ball is spun. A dealer who never reports
// the spin (the ball dropped, no "spin" pressed) still spun it before the period ended, so the
// numbers are drawn at the close and the Lucky Ball wager settles on them. Before: no numbers
// were drawn and the wager was simply lost.
func TestRule003_7_4_LuckyBallDrawnWhenNoSpinWasReported(t *testing.T) {
	r := luckyRig(t)
	r.ready()
	r.buyIn(2000)
	round := r.startRound()
	r.placeOn(500, roulette.Bet{Spot: roulette.LuckyBallSpot(roulette.BallGreen)})
	r.place(500) // red: the main game beside it (the aggregate minimum is 5.00)
	if _, err := r.demo.Table.BallDropping("dealer:test", round); err != nil {
		t.Fatal(err)
	}
	v := r.waitView("the Lucky Ball numbers shown at the close", func(v app.View) bool {
		return v.LuckyBall != nil && v.LuckyBall.HasSuper && v.RoundID == round
	})
	draw := *v.LuckyBall
	green := draw.Numbers[roulette.BallGreen]
	if _, err := r.demo.Table.EnterOutcome("dealer:test", round, green.String()); err != nil {
		t.Fatal(err)
	}
	lucky := draw.Returned(roulette.BallGreen, 500, green)
	redBack := roulette.SettleWager(roulette.Wager{Spot: mustOutside(t, v, roulette.Red), Amount: 500}, green)
	want := 2000 - 1000 + lucky + redBack
	if lucky <= 500 {
		t.Fatalf("green's own number returned %d on 500", lucky)
	}
	r.waitView("the Lucky Ball win paid", func(v app.View) bool { return v.Balance == want && v.LastWin != nil && v.LastWin.RoundID == round })
	if got := r.server().Balance; got != want {
		t.Fatalf("the table's ledger has %d, the screen %d", got, want)
	}
	r.conserved()
}

// 003 §8.11: the Lucky Ball display malfunctions. The round's Lucky Ball wagers are void and
// returned (the number drawn for them comes up, and still pays nothing and takes nothing); the
// terminal says so; and no Lucky Ball wager is taken until the display works again.
func TestRule003_8_11_LuckyBallDisplayFaultVoidsAndRefunds(t *testing.T) {
	r := luckyRig(t)
	r.ready()
	r.buyIn(2000)
	round := r.startRound()
	if _, err := r.demo.Table.SpinStarted("dealer:test", round); err != nil {
		t.Fatal(err)
	}
	v := r.waitView("the Lucky Ball numbers", func(v app.View) bool { return v.LuckyBall != nil })
	yellow := v.LuckyBall.Numbers[roulette.BallYellow]
	r.placeOn(500, roulette.Bet{Spot: roulette.LuckyBallSpot(roulette.BallYellow)})
	r.place(500)
	if _, err := r.demo.Table.LuckyBallDisplay("dealer:test", false, "screen blank"); err != nil {
		t.Fatal(err)
	}
	r.waitView("the void told", func(v app.View) bool {
		return v.LuckyBall != nil && v.LuckyBall.Void && strings.Contains(v.Message.Msg.String(), "Lucky Ball display out of order")
	})
	r.dropAndEnter(round, yellow.String())
	redBack := roulette.SettleWager(roulette.Wager{Spot: mustOutside(t, v, roulette.Red), Amount: 500}, yellow)
	want := 2000 - 500 + redBack // the Lucky Ball 500 back whole, the red wager settled
	r.waitView("the round settled", func(v app.View) bool { return v.LastWin != nil && v.LastWin.RoundID == round })
	if got := r.view().Balance; got != want {
		t.Fatalf("balance %d after the void, want %d (the Lucky Ball stake back)", got, want)
	}
	if got := r.server().Balance; got != want {
		t.Fatalf("the table's ledger has %d, want %d", got, want)
	}
	r.conserved()

	// Not offered until the display works: the table refuses a Lucky Ball wager.
	next := r.startRound()
	r.st.Terminal.SelectChip(500)
	if _, err := r.st.Terminal.Place(roulette.Bet{Spot: roulette.LuckyBallSpot(roulette.BallRed)}); err == nil {
		r.eventually("the table refusing the Lucky Ball wager", func() bool { return r.server().SlipTotal == 0 && !r.view().Acked })
	}
	if ack, err := r.st.Client.UpdateSlip(t.Context(), next, 99, []table.SlipBet{{Bet: roulette.Bet{Spot: roulette.LuckyBallSpot(roulette.BallRed)}, Amount: 500}}); status.Code(err) != codes.FailedPrecondition {
		t.Fatalf("a Lucky Ball wager while the display is out of order: %v %v", ack, err)
	}
	if _, err := r.demo.Table.LuckyBallDisplay("dealer:test", true, "replaced"); err != nil {
		t.Fatal(err)
	}
	if _, err := r.st.Client.UpdateSlip(t.Context(), next, 100, []table.SlipBet{{Bet: roulette.Bet{Spot: roulette.LuckyBallSpot(roulette.BallRed)}, Amount: 500}}); err != nil {
		t.Fatalf("a Lucky Ball wager once the display works: %v", err)
	}
}

func mustOutside(t *testing.T, v app.View, k roulette.Kind) roulette.Spot {
	t.Helper()
	s, err := v.Config.Layout.Outside(k, 0)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// 001 §9.4: the dealer finds, a round later, that the outcome of the earlier round was entered
// wrongly. Every account is frozen, that round is recalculated on the actual outcome and the
// difference applied once; the terminal shows the corrected outcome in its history and the new
// balance, and its current result stays as it was. Before: only the current round could be
// corrected ("round R000001 is not the current round").
func TestRule001_9_4_CorrectionOfEarlierRound(t *testing.T) {
	r := newRig(t, rigOptions{manual: true})
	r.ready()
	r.buyIn(2000)
	first := r.startRound()
	r.place(1000) // red
	r.dropAndEnter(first, "1")
	r.waitView("red 1 paid", func(v app.View) bool { return v.Balance == 3000 && v.LastWin != nil && v.LastWin.RoundID == first })

	second := r.startRound()
	r.place(500)
	r.dropAndEnter(second, "3") // red again: +500
	r.waitView("the second round paid", func(v app.View) bool { return v.Balance == 3500 && v.LastWin != nil && v.LastWin.RoundID == second })
	result := r.view().Result

	frozen := make(chan bool, 64)
	r.st.Terminal.OnChange(func(v app.View) {
		select {
		case frozen <- v.Frozen:
		default:
		}
	})
	// The first round was 2 (black): the 1000 on red lost. 3500 - 2000.
	st, err := r.demo.Table.CorrectOutcome("supervisor:test", first, "2")
	if err != nil {
		t.Fatal(err)
	}
	v := r.waitView("the correction applied", func(v app.View) bool { return v.Balance == 1500 })
	if got := r.server().Balance; got != 1500 {
		t.Fatalf("the table's ledger has %d after the correction, want 1500", got)
	}
	if !strings.Contains(v.Message.Msg.String(), "corrected from 1 to 2") {
		t.Errorf("the terminal says %q", v.Message.Msg)
	}
	var hist *table.Outcome
	for i := range v.History {
		if v.History[i].RoundID == first {
			if hist != nil {
				t.Fatalf("round %s twice in the history: %+v", first, v.History)
			}
			hist = &v.History[i]
		}
	}
	if hist == nil || hist.Number != 2 || !hist.Corrected {
		t.Fatalf("the history shows %+v for %s", hist, first)
	}
	if v.LastOutcome == nil || v.LastOutcome.RoundID != second || len(v.Result) != len(result) {
		t.Fatalf("the current result changed: last outcome %+v, result %+v (was %+v)", v.LastOutcome, v.Result, result)
	}
	sawFrozen := false
	for len(frozen) > 0 {
		if <-frozen {
			sawFrozen = true
		}
	}
	if !sawFrozen {
		t.Error("the terminal never showed the accounts frozen")
	}
	// The dealer console's status shows it.
	corrected := false
	for _, h := range st.History {
		if h.RoundId == first {
			corrected = h.Corrected && h.Number == "2"
		}
	}
	if !corrected {
		t.Errorf("the console's history: %v", st.History)
	}
	// Applied once: the same correction again is refused and moves nothing.
	if _, err := r.demo.Table.CorrectOutcome("supervisor:test", first, "2"); status.Code(err) != codes.FailedPrecondition {
		t.Fatalf("the correction applied twice: %v", err)
	}
	if got := r.server().Balance; got != 1500 {
		t.Fatalf("balance %d after a repeated correction", got)
	}
	r.conserved()
}

// 003 §7.3: "Players are not required to bet on the main game to place a Lucky Ball wager."
// Through the real table and a real station: a Lucky Ball wager alone is placed, accepted whole
// (it meets the aggregate minimum by itself), shown with the Super colour once no more bets is
// called (§7.6), and settles as a recognised slip on its colour's number at the odds the screen
// shows for it.
func TestRule003_7_3_LuckyBallAloneThroughTheTable(t *testing.T) {
	r := luckyRig(t)
	r.ready()
	r.buyIn(2000)
	round := r.startRound()
	r.placeOn(500, roulette.Bet{Spot: roulette.LuckyBallSpot(roulette.BallBlue)})
	if v := r.view(); len(v.Stakes) != 1 || v.SlipTotal != 500 {
		t.Fatalf("a Lucky Ball wager alone: stakes %v total %d", v.Stakes, v.SlipTotal)
	}
	if _, err := r.demo.Table.SpinStarted("dealer:test", round); err != nil {
		t.Fatal(err)
	}
	v := r.waitView("the numbers shown at the spin", func(v app.View) bool { return v.LuckyBall != nil && v.RoundID == round })
	if v.LuckyBall.HasSuper || v.LuckyBall.HasMega {
		t.Fatalf("a Super colour chosen before no more bets: %+v", v.LuckyBall)
	}
	if _, err := r.demo.Table.BallDropping("dealer:test", round); err != nil {
		t.Fatal(err)
	}
	v = r.waitView("the Super colour shown at no more bets", func(v app.View) bool { return v.LuckyBall != nil && v.LuckyBall.HasSuper })
	draw := *v.LuckyBall
	blue := draw.Numbers[roulette.BallBlue]
	odds := int64(20) // Table One, 003 §7.8
	if draw.Super == roulette.BallBlue {
		odds = 75
	}
	if _, err := r.demo.Table.EnterOutcome("dealer:test", round, blue.String()); err != nil {
		t.Fatal(err)
	}
	want := 2000 - 500 + 500*(odds+1)
	v = r.waitView("the Lucky Ball win paid", func(v app.View) bool { return v.LastWin != nil && v.LastWin.RoundID == round })
	if v.Balance != want || v.LastWin.Staked != 500 || v.LastWin.Returned != 500*(odds+1) {
		t.Fatalf("balance %d staked %d returned %d, want %d, 5.00, %d", v.Balance, v.LastWin.Staked, v.LastWin.Returned, want, 500*(odds+1))
	}
	if got := r.server().Balance; got != want {
		t.Fatalf("the table's ledger has %d, the screen %d", got, want)
	}
	r.conserved()
}
