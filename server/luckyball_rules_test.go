package server

import (
	"slices"
	"testing"
	"time"

	pb "github.com/tablegames/ats/proto/ats/table/v1"
)

// 003 §7.3, §7.6, §7.7 at the table's gRPC edge. Table One (003 §7.8), written out here rather
// than read from the code under test: standard and Super odds per colour.
var (
	tableOneStandard = map[string]int64{"red": 6, "green": 12, "blue": 20, "yellow": 25}
	tableOneSuper    = map[string]int64{"red": 120, "green": 100, "blue": 75, "yellow": 60}
)

// drawNumber is the number a wire draw shows in a colour's border.
func drawNumber(d *pb.LuckyBallDraw, colour string) string {
	return map[string]string{"red": d.Red, "green": d.Green, "blue": d.Blue, "yellow": d.Yellow}[colour]
}

// TestRule003_7_3_LuckyBallWithoutTheMainGame: "Players are not required to bet on the main game
// to place a Lucky Ball wager" (003 §7.3), and 003 §7.6/§7.7: one colour is given Super odds
// once no more bets is called — not before, while the numbers are already shown — and the Super
// odds replace the standard ones in settlement, the other colours paying standard odds. A slip of
// Lucky Ball wagers only, on every colour, is accepted whole and settles as recognised, over two
// rounds: one whose outcome is the Super colour's number, one whose outcome is another's.
func TestRule003_7_3_LuckyBallWithoutTheMainGame(t *testing.T) {
	r := newRigWith(t, func(c *Config) { c.LuckyBall = true })
	t1 := r.terminal("T1")
	w := r.watch(t1)
	defer w.cancel()
	if _, err := r.dealer.OpenTable(ctx, &pb.OpenTableRequest{}); err != nil {
		t.Fatal(err)
	}
	balance := int64(10000)
	if err := r.buyIn(t1, "T1", "n", balance); err != nil {
		t.Fatal(err)
	}
	colours := []string{"red", "green", "blue", "yellow"}
	for n, superWins := range []bool{true, false} {
		st, err := r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
		if err != nil {
			t.Fatal(err)
		}
		var slip []*pb.Wager
		for _, c := range colours {
			slip = append(slip, luckyWager(c, 500))
		}
		ack, err := t1.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: st.RoundId, Version: 1, Wagers: slip})
		if err != nil || ack.Slip.Total != 2000 {
			t.Fatalf("round %d: a slip of Lucky Ball wagers only: %v %v", n, ack, err)
		}
		for i, res := range ack.Slip.Results {
			if res.Accepted != 500 {
				t.Fatalf("round %d: %s accepted %d (%q), want 5.00", n, colours[i], res.Accepted, res.Reason)
			}
		}
		// The spin: the numbers are shown, no colour has Super odds yet (003 §7.4, §7.6).
		if _, err := r.dealer.SpinStarted(ctx, &pb.RoundRequest{RoundId: st.RoundId}); err != nil {
			t.Fatal(err)
		}
		spun := w.until(t, func(ev *pb.TableEvent) bool { return ev.GetLuckyBall() != nil }).GetLuckyBall().Draw
		if spun.Red == "" || spun.Super != "" || spun.Mega != "" {
			t.Fatalf("round %d: at the spin the draw is %v, want its numbers and no Super colour yet", n, spun)
		}
		// No more bets: one colour gets Super odds, the numbers unchanged.
		if _, err := r.dealer.BallDropping(ctx, &pb.RoundRequest{RoundId: st.RoundId}); err != nil {
			t.Fatal(err)
		}
		closed := w.until(t, func(ev *pb.TableEvent) bool { return ev.GetLuckyBall() != nil }).GetLuckyBall().Draw
		if closed.Super == "" || tableOneSuper[closed.Super] == 0 || closed.Red != spun.Red || closed.Yellow != spun.Yellow {
			t.Fatalf("round %d: at no more bets the draw is %v (at the spin %v)", n, closed, spun)
		}
		winner := closed.Super
		if !superWins {
			winner = colours[(slices.Index(colours, closed.Super)+1)%4]
		}
		odds := tableOneStandard[winner]
		if superWins {
			odds = tableOneSuper[winner]
		}
		if _, err := r.dealer.EnterOutcome(ctx, &pb.EnterOutcomeRequest{RoundId: st.RoundId, Number: drawNumber(closed, winner)}); err != nil {
			t.Fatal(err)
		}
		s := w.until(t, isSettled).GetSettled()
		want := 500 * (odds + 1)
		balance += want - 2000
		if !s.Recognised || s.Staked != 2000 || s.Returned != want || s.Balance != balance {
			t.Fatalf("round %d: %s's number (super %s) settled %v, want recognised, 20.00 staked, %d returned, balance %d",
				n, winner, closed.Super, s, want, balance)
		}
		r.clock.Add(time.Second)
	}
	r.conserved()
}

// TestRule003_7_9_MegaVersionSuperOrMegaAtNoMoreBets: with the Mega Odds version enabled, at no
// more bets one of the four numbers gets either the Super odds or the Mega odds of 1000 to 1
// (003 §7.9.1 or §7.9.2; Table Two, §7.10) — never both, never before. Rounds are played until
// both have been seen (each is an even chance, so 24 rounds miss one with odds of 1 in 8
// million); every round settles its enhanced colour's number at the enhanced odds.
func TestRule003_7_9_MegaVersionSuperOrMegaAtNoMoreBets(t *testing.T) {
	r := newRigWith(t, func(c *Config) { c.LuckyBall, c.LuckyMega = true, true })
	t1 := r.terminal("T1")
	w := r.watch(t1)
	defer w.cancel()
	if _, err := r.dealer.OpenTable(ctx, &pb.OpenTableRequest{}); err != nil {
		t.Fatal(err)
	}
	balance := int64(10_000_000)
	if err := r.buyIn(t1, "T1", "n", balance); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for n := 0; n < 24 && !(seen["super"] && seen["mega"]); n++ {
		st, err := r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
		if err != nil {
			t.Fatal(err)
		}
		var slip []*pb.Wager
		for _, c := range []string{"red", "green", "blue", "yellow"} {
			slip = append(slip, luckyWager(c, 500))
		}
		if ack, err := t1.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: st.RoundId, Version: 1, Wagers: slip}); err != nil || ack.Slip.Total != 2000 {
			t.Fatalf("round %d: %v %v", n, ack, err)
		}
		if _, err := r.dealer.SpinStarted(ctx, &pb.RoundRequest{RoundId: st.RoundId}); err != nil {
			t.Fatal(err)
		}
		spun := w.until(t, func(ev *pb.TableEvent) bool { return ev.GetLuckyBall() != nil }).GetLuckyBall().Draw
		if spun.Version != "mega" || spun.Super != "" || spun.Mega != "" {
			t.Fatalf("round %d: at the spin %v", n, spun)
		}
		if _, err := r.dealer.BallDropping(ctx, &pb.RoundRequest{RoundId: st.RoundId}); err != nil {
			t.Fatal(err)
		}
		d := w.until(t, func(ev *pb.TableEvent) bool { return ev.GetLuckyBall() != nil }).GetLuckyBall().Draw
		var winner string
		var odds int64
		switch {
		case d.Super != "" && d.Mega == "":
			winner, odds = d.Super, tableOneSuper[d.Super] // Table Two's Super odds are Table One's
			seen["super"] = true
		case d.Mega != "" && d.Super == "":
			winner, odds = d.Mega, 1000
			seen["mega"] = true
		default:
			t.Fatalf("round %d: at no more bets %v, want exactly one of Super and Mega", n, d)
		}
		if _, err := r.dealer.EnterOutcome(ctx, &pb.EnterOutcomeRequest{RoundId: st.RoundId, Number: drawNumber(d, winner)}); err != nil {
			t.Fatal(err)
		}
		s := w.until(t, isSettled).GetSettled()
		balance += 500*(odds+1) - 2000
		if s.Returned != 500*(odds+1) || s.Balance != balance {
			t.Fatalf("round %d: %v settled %v, want %d returned", n, d, s, 500*(odds+1))
		}
		r.clock.Add(time.Second)
	}
	if !seen["super"] || !seen["mega"] {
		t.Fatalf("in 24 rounds: %v", seen)
	}
	r.conserved()
}
