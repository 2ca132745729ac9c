package server

import (
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/tablegames/ats/app/roulette"
	pb "github.com/tablegames/ats/proto/ats/table/v1"
)

// TestDealerWagerOverTheConsole_002_3_2B: the dealer's PlaceWager over gRPC with the dealer's
// certificate; a terminal may neither call it nor claim a wager of its own as the dealer's; the
// dealer's wager survives a restart after no more bets (it is in the slip's ledger record, with
// the dealer) and settles once.
func TestDealerWagerOverTheConsole_002_3_2B(t *testing.T) {
	r := newRig(t)
	t1 := r.terminal("T1")
	r.dealer.OpenTable(ctx, &pb.OpenTableRequest{})
	if _, err := creditNotes(ctx, t1, "n", 10000); err != nil {
		t.Fatal(err)
	}
	st, err := r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
	if err != nil {
		t.Fatal(err)
	}
	tier := &pb.Wager{Kind: pb.BetKind_BET_KIND_TIER, Amount: 200}
	if _, err := t1.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: st.RoundId, Version: 1,
		Wagers: []*pb.Wager{{Kind: pb.BetKind_BET_KIND_TIER, Amount: 200, PlacedBy: "dealer:D1"}}}); code(err) != codes.InvalidArgument {
		t.Fatalf("a terminal claiming a dealer's wager: %v", err)
	}
	if _, err := pb.NewDealerServiceClient(r.dial("terminal", "T1")).PlaceWager(ctx, &pb.PlaceWagerRequest{TerminalId: "T1", RoundId: st.RoundId, Wager: tier}); code(err) != codes.PermissionDenied {
		t.Fatalf("a terminal placing a dealer's wager: %v", err)
	}
	if _, err := r.dealer.PlaceWager(ctx, &pb.PlaceWagerRequest{TerminalId: "T1", RoundId: st.RoundId}); code(err) != codes.InvalidArgument {
		t.Fatalf("no wager: %v", err)
	}
	if _, err := r.dealer.PlaceWager(ctx, &pb.PlaceWagerRequest{TerminalId: "T9", RoundId: st.RoundId, Wager: tier}); code(err) != codes.NotFound {
		t.Fatalf("an unknown seat: %v", err)
	}
	res, err := r.dealer.PlaceWager(ctx, &pb.PlaceWagerRequest{TerminalId: "T1", RoundId: st.RoundId, Wager: tier})
	if err != nil || res.Accepted != 1200 || len(res.Slip.Wagers) != 1 || res.Slip.Wagers[0].PlacedBy != "dealer:D1" {
		t.Fatalf("tier 2.00 a piece: %v %v", res, err)
	}
	// The terminal's own update is priced against what the dealer's wager leaves: 100.00 less
	// 12.00 takes at most 88.00 on red.
	ack, err := t1.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: st.RoundId, Version: 1,
		Wagers: []*pb.Wager{{Kind: pb.BetKind_BET_KIND_RED, Amount: 10000}}})
	if err != nil || ack.Slip.Results[0].Accepted != 8800 || ack.Slip.Total != 10000 || len(ack.Slip.Wagers) != 2 || ack.Balance != 0 {
		t.Fatalf("the terminal's slip beside the dealer's wager: %v %v", ack, err)
	}
	if _, err := r.dealer.PlaceWager(ctx, &pb.PlaceWagerRequest{TerminalId: "T1", RoundId: st.RoundId, Wager: tier}); code(err) != codes.FailedPrecondition {
		t.Fatalf("a dealer's wager the balance cannot cover: %v", err)
	}
	r.clock.Add(31 * time.Second)
	r.table.Advance(r.clock.Now())
	r.shutdown()
	r.start()
	// 5: tier wins on its 5/8 split, 2.00 at 17 to 1 (36.00 back); red wins (5 is red): 176.00.
	if _, err := r.dealer.EnterOutcome(ctx, &pb.EnterOutcomeRequest{RoundId: st.RoundId, Number: "5"}); err != nil {
		t.Fatal(err)
	}
	s, err := r.dealer.GetStatus(ctx, &pb.GetStatusRequest{})
	const want = 3600 + 17600 // the 100.00 bought in was all staked: what came back
	if err != nil || s.Balances != want {
		t.Fatalf("after the settlement: balances %d, want %d (%v)", s.GetBalances(), want, err)
	}
	r.conserved()
}

// FuzzPlaceWager sends the dealer's request with any bet, amount, seat and round: never a panic,
// a refusal is InvalidArgument, FailedPrecondition or NotFound, what is accepted is never more
// than asked nor than the balance, and the books conserve.
func FuzzPlaceWager(f *testing.F) {
	f.Add("voisins", int64(100), "", 0, "T1", true)
	f.Add("neighbours", int64(100), "17", 2, "T1", true)
	f.Add("red", int64(100), "", 0, "T1", true)
	f.Add("tier", int64(-5), "", 0, "T1", false)
	f.Add("neighbours", int64(1<<62), "00", 9, "\x00", true)
	tbl, clock, _ := fuzzTable(f)
	ok := map[codes.Code]bool{codes.InvalidArgument: true, codes.FailedPrecondition: true, codes.NotFound: true}
	f.Fuzz(func(t *testing.T, name string, amount int64, number string, spread int, seat string, current bool) {
		st, err := tbl.Status()
		if err != nil {
			t.Fatal(err)
		}
		if st.Phase != pb.Phase_PHASE_WAGERING {
			clock.Add(time.Minute)
			tbl.Advance(clock.Now())
			if st, err = tbl.StartRound("dealer:D1"); err != nil {
				t.Skip(err)
			}
		}
		round := st.RoundId
		if !current {
			round = number
		}
		spec := roulette.BetSpec{Name: name}
		if number != "" {
			spec.Numbers = []string{number}
		}
		if spread != 0 {
			spec.Spread = &spread
		}
		before := int64(0)
		for _, ts := range st.Terminals {
			if ts.TerminalId == seat {
				before = ts.Balance - ts.SlipTotal
			}
		}
		res, err := tbl.PlaceWager("dealer:D1", seat, round, SlipWager{Spec: spec, Amount: amount})
		if err != nil {
			if !ok[status.Code(err)] {
				t.Fatalf("%q %d %q %d %q: %v", name, amount, number, spread, seat, err)
			}
		} else if res.Accepted <= 0 || res.Accepted > before {
			t.Fatalf("accepted %d with %d available", res.Accepted, before)
		}
		checkBooks(t, tbl)
	})
}

// TestOralRacetrackVoidsThePlayersOwnCallBets_002_3_2B: at a table whose racetrack wagers are
// declared orally (-oral-racetrack), a call bet a terminal places itself is void — it accepts
// nothing and settles nothing, with the reason — while its other wagers stand, the dealer's
// placement of the same bet is taken, and the table's configuration tells the terminals the
// racetrack is not theirs.
func TestOralRacetrackVoidsThePlayersOwnCallBets_002_3_2B(t *testing.T) {
	r := newRigWith(t, func(c *Config) { c.OralRacetrack = true })
	t1 := r.terminal("T1")
	r.dealer.OpenTable(ctx, &pb.OpenTableRequest{})
	if _, err := creditNotes(ctx, t1, "n", 10000); err != nil {
		t.Fatal(err)
	}
	st, err := r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if st.Config.GetRacetrack() {
		t.Fatal("the configuration offers the racetrack to the terminals")
	}
	ack, err := t1.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: st.RoundId, Version: 1,
		Wagers: []*pb.Wager{{Kind: pb.BetKind_BET_KIND_VOISINS, Amount: 100}, straight("0", 100)}})
	if err != nil {
		t.Fatal(err)
	}
	if res := ack.Slip.Results; res[0].Accepted != 0 || res[0].Reason != ReasonDealerOnly || res[1].Accepted != 100 || ack.Slip.Total != 100 {
		t.Fatalf("the terminal's own voisins: %v", ack.Slip)
	}
	res, err := r.dealer.PlaceWager(ctx, &pb.PlaceWagerRequest{TerminalId: "T1", RoundId: st.RoundId, Wager: &pb.Wager{Kind: pb.BetKind_BET_KIND_VOISINS, Amount: 100}})
	if err != nil || res.Accepted != 900 {
		t.Fatalf("the dealer's voisins: %v %v", res, err)
	}
	if _, err := r.dealer.BallDropping(ctx, &pb.RoundRequest{RoundId: st.RoundId}); err != nil {
		t.Fatal(err)
	}
	// 0: the straight 0 returns 36.00, the dealer's voisins 24.00 (2 units on 0/2/3 at 11 to 1);
	// the void one nothing.
	if _, err := r.dealer.EnterOutcome(ctx, &pb.EnterOutcomeRequest{RoundId: st.RoundId, Number: "0"}); err != nil {
		t.Fatal(err)
	}
	s, err := r.dealer.GetStatus(ctx, &pb.GetStatusRequest{})
	if err != nil || s.Balances != 10000-100-900+3600+2400 {
		t.Fatalf("balances %d, want %d (%v)", s.GetBalances(), 10000-100-900+3600+2400, err)
	}
	r.conserved()
}

// TestDealerPlacesAnnouncedBetsUnderTheTouchTableRules_000_11_4_2b: under the TouchTable rules a
// player may announce any bet to the dealer, who places it through the console (000 §11.4.2(b)):
// a straight and a dozen are taken for a seat. Under the other profiles the dealer places only
// the call bets a player declares (002 §3.2B) and the straight is refused, the call bet taken.
func TestDealerPlacesAnnouncedBetsUnderTheTouchTableRules_000_11_4_2b(t *testing.T) {
	for _, c := range []struct {
		profile string
		any     bool
	}{{"touchtable", true}, {"crown", false}, {"vic-1999", false}} {
		t.Run(c.profile, func(t *testing.T) {
			r := newRigWith(t, func(cfg *Config) { cfg.RulesProfile = c.profile })
			t1 := r.terminal("T1")
			if _, err := r.dealer.OpenTable(ctx, &pb.OpenTableRequest{}); err != nil {
				t.Fatal(err)
			}
			if err := r.buyIn(t1, "T1", "b", 10000); err != nil {
				t.Fatal(err)
			}
			st, err := r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range []*pb.Wager{straight("17", 100), {Kind: pb.BetKind_BET_KIND_DOZEN, Which: 1, Amount: 500}} {
				_, err := r.dealer.PlaceWager(ctx, &pb.PlaceWagerRequest{TerminalId: "T1", RoundId: st.RoundId, Wager: w})
				if c.any && err != nil {
					t.Errorf("%s: the dealer placing an announced %v: %v", c.profile, w.Kind, err)
				}
				if !c.any && code(err) != codes.InvalidArgument {
					t.Errorf("%s: the dealer placing a %v that is no call bet: %v", c.profile, w.Kind, err)
				}
			}
			if _, err := r.dealer.PlaceWager(ctx, &pb.PlaceWagerRequest{TerminalId: "T1", RoundId: st.RoundId,
				Wager: &pb.Wager{Kind: pb.BetKind_BET_KIND_TIER, Amount: 100}}); err != nil {
				t.Errorf("%s: a call bet: %v", c.profile, err)
			}
			r.conserved()
		})
	}
}
