package server

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	pb "github.com/tablegames/ats/proto/ats/table/v1"
	"github.com/tablegames/ats/server/precommit"
)

func cardedTable(c *Config) { c.Carded = true }

// cards is the rig's card store as the cage would use it (the same rows the table reads).
func (r *rig) cards() *precommit.LedgerStore { return &precommit.LedgerStore{L: r.led} }

// registerCard registers card with limits at the rig's clock.
func (r *rig) registerCard(t *testing.T, card string, l precommit.Limits) {
	t.Helper()
	now := r.clock.Now()
	if _, err := r.cards().Register(context.Background(), card, precommit.Registered, "cashier C1: passport X1", now); err != nil {
		t.Fatal(err)
	}
	if _, err := r.cards().SetLimits(context.Background(), card, l, now); err != nil {
		t.Fatal(err)
	}
}

func redSlip(c pb.TerminalServiceClient, round string, version uint64, amount int64, card string) (*pb.UpdateSlipResponse, error) {
	var ws []*pb.Wager
	if amount > 0 {
		ws = []*pb.Wager{{Kind: pb.BetKind_BET_KIND_RED, Amount: amount, PlayerCard: card}}
	}
	return c.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: round, Version: version, Wagers: ws})
}

// refusedSaying checks err is the FailedPrecondition a player reads, containing words.
func refusedSaying(t *testing.T, err error, words string) {
	t.Helper()
	if status.Code(err) != codes.FailedPrecondition || !strings.Contains(status.Convert(err).Message(), words) {
		t.Fatalf("got %v, want FailedPrecondition saying %q", err, words)
	}
}

// finish closes the round's wagering and enters outcome ("2" is black: red loses; "1" red wins).
func (r *rig) finish(t *testing.T, round, outcome string) {
	t.Helper()
	r.clock.Add(21 * time.Second)
	r.table.Advance(r.clock.Now())
	if _, err := r.dealer.EnterOutcome(ctx, &pb.EnterOutcomeRequest{RoundId: round, Number: outcome}); err != nil {
		t.Fatal(err)
	}
}

var limit100 = precommit.Limits{Loss: 10000, Time: 3 * time.Hour, Bar: precommit.BarDay}

// SPEC §10: on a carded table, no card, no wager; an unregistered, lost or barred card, or a
// card held at another seat, is refused at the table server with words the player reads.
func TestSPEC10_CardedNoCardNoWager(t *testing.T) {
	bothStoresWith(t, cardedTable, func(t *testing.T, r *rig) {
		c, round := openRound(t, r, "T1", 50000)
		c2 := r.terminal("T2")
		if err := r.buyIn(c2, "T2", "n2", 50000); err != nil {
			t.Fatal(err)
		}
		refusedSaying(t, errOf(redSlip(c, round, 1, 500, "")), "player card")
		refusedSaying(t, errOf(redSlip(c, round, 2, 500, "C42")), "not registered")
		if _, err := r.cards().Register(ctx, "C42", precommit.Registered, "cashier C1: licence 7", r.clock.Now()); err != nil {
			t.Fatal(err)
		}
		refusedSaying(t, errOf(redSlip(c, round, 3, 500, "C42")), "set your loss limit")
		r.registerCard(t, "C42", limit100)
		if res, err := redSlip(c, round, 4, 500, "C42"); err != nil || res.Slip.Total != 500 {
			t.Fatalf("a registered card under its limits: %v %v", res, err)
		}
		refusedSaying(t, errOf(redSlip(c2, round, 1, 500, "C42")), "in use at another seat")
		r.registerCard(t, "C43", limit100)
		if _, err := r.cards().Register(ctx, "C43", precommit.Lost, "cashier C1: reported by phone", r.clock.Now()); err != nil {
			t.Fatal(err)
		}
		refusedSaying(t, errOf(redSlip(c2, round, 2, 500, "C43")), "reported lost")
		// The refusals are journalled with the card.
		if got := strings.Join(r.auditOf("precommit"), "\n"); !strings.Contains(got, "refused (in use)") || !strings.Contains(got, "refused (lost)") {
			t.Fatalf("journal:\n%s", got)
		}
	})
}

func errOf[T any](_ T, err error) error { return err }

// SPEC §10, never one wager past a limit: the slip that would take the card's net loss past
// its limit is refused (not clamped) with the amount left; a loss reaching the limit bars the
// card, and the bar is told with its end.
func TestSPEC10_LossLimitRefusesTheSlipAndBars(t *testing.T) {
	bothStoresWith(t, cardedTable, func(t *testing.T, r *rig) {
		r.registerCard(t, "C42", limit100)
		c, round := openRound(t, r, "T1", 50000)
		if _, err := redSlip(c, round, 1, 8000, "C42"); err != nil {
			t.Fatal(err)
		}
		r.finish(t, round, "2") // lost 80.00
		st, err := r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
		if err != nil {
			t.Fatal(err)
		}
		refusedSaying(t, errOf(redSlip(c, st.RoundId, 1, 2100, "C42")), "past your loss limit: A$20.00")
		if res, err := redSlip(c, st.RoundId, 2, 2000, "C42"); err != nil || res.Slip.Total != 2000 {
			t.Fatalf("to the limit exactly: %v %v", res, err)
		}
		r.finish(t, st.RoundId, "2")
		st, err = r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
		if err != nil {
			t.Fatal(err)
		}
		refusedSaying(t, errOf(redSlip(c, st.RoundId, 1, 100, "C42")), "loss limit was reached: play is barred until")
		if b := r.balance("T1"); b != 40000 {
			t.Fatalf("balance %d", b)
		}
	})
}

// Attack: a restart of the table server mid-session, with a slip staked on the card. The
// restart voids the round's wagers, and the card's hold with them: nothing is counted that
// was not played, and the limit is whole again for the next round.
func TestSPEC10_RestartMidSessionVoidsTheCardHold(t *testing.T) {
	bothStoresWith(t, cardedTable, func(t *testing.T, r *rig) {
		r.registerCard(t, "C42", limit100)
		c, round := openRound(t, r, "T1", 50000)
		if _, err := redSlip(c, round, 1, 6000, "C42"); err != nil {
			t.Fatal(err)
		}
		r.shutdown()
		r.start()
		card, err := r.cards().Card(ctx, "C42", r.clock.Now())
		if err != nil {
			t.Fatal(err)
		}
		if card.Reserved != 0 || card.NetLoss() != 0 {
			t.Fatalf("after the restart: reserved %d, net loss %d", card.Reserved, card.NetLoss())
		}
		if _, err := r.dealer.OpenTable(ctx, &pb.OpenTableRequest{}); err != nil && status.Code(err) != codes.FailedPrecondition {
			t.Fatal(err)
		}
		st, err := r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
		if err != nil {
			t.Fatal(err)
		}
		c = r.terminal("T1")
		if res, err := redSlip(c, st.RoundId, 1, 10000, "C42"); err != nil || res.Slip.Total != 10000 {
			t.Fatalf("the whole limit after the restart: %v %v", res, err)
		}
	})
}

// raceOneCard has each terminal slip card C42 on red in its round as fast as it can, n slips
// of A$10 more each, all at once, and checks one seat held the card, to its A$100 limit.
func raceOneCard(t *testing.T, terms []pb.TerminalServiceClient, rounds []string, n int) {
	t.Helper()
	var wg sync.WaitGroup
	var mu sync.Mutex
	taken := map[int]int64{}
	for i := range terms {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for v := range n {
				res, err := redSlip(terms[i], rounds[i], uint64(v+1), int64(v+1)*1000, "C42")
				if err == nil {
					mu.Lock()
					taken[i] = res.Slip.Total
					mu.Unlock()
				} else if status.Code(err) != codes.FailedPrecondition {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	if (taken[0] > 0) == (taken[1] > 0) || taken[0]+taken[1] != 10000 {
		t.Fatalf("taken %v: one seat holds the card, to its A$100 limit", taken)
	}
}

// Attack: the same card at two seats of two tables of a floor (two table servers, real gRPC,
// one PostgreSQL), both slipping at once: one seat holds the card, the other is refused, and
// never more than the limit is staked on it.
func TestSPEC10_OneCardTwoTablesRacing(t *testing.T) {
	rs := floorRigs(t, 2, cardedTable)
	rs[0].registerCard(t, "C42", limit100)
	var rounds []string
	var terms []pb.TerminalServiceClient
	for _, r := range rs {
		c := r.terminal("T01")
		if err := r.buyIn(c, "T01", "n", 50000); err != nil {
			t.Fatal(err)
		}
		st, err := r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
		if err != nil {
			t.Fatal(err)
		}
		rounds, terms = append(rounds, st.RoundId), append(terms, c)
	}
	raceOneCard(t, terms, rounds, 12)
	card, err := rs[1].cards().Card(ctx, "C42", rs[1].clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	if card.Reserved != 10000 {
		t.Fatalf("reserved %d", card.Reserved)
	}
}

// SPEC §10: the card is held for the seat's session and freed when the player leaves: a
// cash-out during the wagering period voids the slip and its stake on the card, and the card
// then plays at another seat, its whole limit left.
func TestSPEC10_CashOutFreesTheCardAndItsStake(t *testing.T) {
	bothStoresWith(t, cardedTable, func(t *testing.T, r *rig) {
		r.registerCard(t, "C42", limit100)
		c, round := openRound(t, r, "T1", 50000)
		if _, err := redSlip(c, round, 1, 7000, "C42"); err != nil {
			t.Fatal(err)
		}
		c2 := r.terminal("T2")
		if err := r.buyIn(c2, "T2", "n2", 50000); err != nil {
			t.Fatal(err)
		}
		refusedSaying(t, errOf(redSlip(c2, round, 1, 500, "C42")), "in use at another seat")
		if _, err := c.CashOut(ctx, &pb.CashOutRequest{IdempotencyKey: "out"}); err != nil {
			t.Fatal(err)
		}
		if res, err := redSlip(c2, round, 2, 10000, "C42"); err != nil || res.Slip.Total != 10000 {
			t.Fatalf("at the next seat after the cash-out: %v %v", res, err)
		}
	})
}

// SPEC §10: what a seat reserved on its card for a round and did not stake — a slip withdrawn
// to nothing, or an allowance never used — is freed by the round's settlement: only stakes
// count towards the loss limit.
func TestSPEC10_WithdrawnSlipFreesItsReservation(t *testing.T) {
	bothStoresWith(t, cardedTable, func(t *testing.T, r *rig) {
		r.registerCard(t, "C42", limit100)
		c, round := openRound(t, r, "T1", 50000)
		if _, err := redSlip(c, round, 1, 5000, "C42"); err != nil {
			t.Fatal(err)
		}
		if _, err := redSlip(c, round, 2, 0, ""); err != nil {
			t.Fatal(err)
		}
		r.finish(t, round, "2")
		card, err := r.cards().Card(ctx, "C42", r.clock.Now())
		if err != nil {
			t.Fatal(err)
		}
		if card.Reserved != 0 || card.NetLoss() != 0 {
			t.Fatalf("after the round: reserved %d, net loss %d", card.Reserved, card.NetLoss())
		}
	})
}

// SPEC §10: a limit lowered at the seat takes effect at once, in the round being played: the
// seat's allowance under the old limit no longer covers its next slip.
func TestSPEC10_LimitLoweredMidRoundBindsTheNextSlip(t *testing.T) {
	bothStoresWith(t, cardedTable, func(t *testing.T, r *rig) {
		r.registerCard(t, "C42", limit100)
		c, round := openRound(t, r, "T1", 50000)
		if _, err := redSlip(c, round, 1, 1000, "C42"); err != nil {
			t.Fatal(err)
		}
		if _, err := r.table.SetCardLimits("T1", "", precommit.Limits{Loss: 3000, Time: time.Hour, Bar: precommit.BarDay}); err != nil {
			t.Fatal(err)
		}
		refusedSaying(t, errOf(redSlip(c, round, 2, 3100, "C42")), "past your loss limit: A$30.00")
		if _, err := redSlip(c, round, 3, 3000, "C42"); err != nil {
			t.Fatal(err)
		}
		if _, err := r.table.SetCardLimits("T2", "", limit100); status.Code(err) != codes.FailedPrecondition {
			t.Fatalf("limits at a seat holding no card: %v", err)
		}
	})
}

// SPEC §10: a time limit reached in the middle of a round: the seat's allowance was taken
// before, yet the next slip that adds a wager is refused, and the card is barred for its bar
// period; withdrawing is still taken.
func TestSPEC10_TimeLimitReachedMidRound(t *testing.T) {
	long := func(c *Config) { c.Carded, c.Period = true, 2*time.Hour }
	bothStoresWith(t, long, func(t *testing.T, r *rig) {
		r.registerCard(t, "C42", precommit.Limits{Loss: 10000, Time: time.Hour, Bar: precommit.BarWeek})
		c, round := openRound(t, r, "T1", 50000)
		if _, err := redSlip(c, round, 1, 1000, "C42"); err != nil {
			t.Fatal(err)
		}
		r.clock.Add(59 * time.Minute)
		if _, err := redSlip(c, round, 2, 1500, "C42"); err != nil {
			t.Fatal(err)
		}
		r.clock.Add(time.Minute)
		refusedSaying(t, errOf(redSlip(c, round, 3, 2000, "C42")), "time limit of 1h0m0s is reached: play is barred until")
		if _, err := redSlip(c, round, 4, 0, ""); err != nil {
			t.Fatalf("withdrawing: %v", err)
		}
		card, err := r.cards().Card(ctx, "C42", r.clock.Now())
		if err != nil {
			t.Fatal(err)
		}
		if card.BarredFor != "time" || !card.BarredUntil.Equal(r.clock.Now().Add(precommit.BarWeek)) {
			t.Fatalf("barred for %q until %v", card.BarredFor, card.BarredUntil)
		}
	})
}

// Attack: a player changing card at their seat in the middle of a round, so the first card —
// its stakes of the round not yet counted — could be taken to another seat with its whole
// limit. The change is refused until the result; after it, the seat takes the new card and
// the first is free, its play counted.
func TestSPEC10_CardChangedMidRoundIsRefused(t *testing.T) {
	bothStoresWith(t, cardedTable, func(t *testing.T, r *rig) {
		r.registerCard(t, "C42", limit100)
		r.registerCard(t, "C43", limit100)
		c, round := openRound(t, r, "T1", 50000)
		if _, err := redSlip(c, round, 1, 6000, "C42"); err != nil {
			t.Fatal(err)
		}
		refusedSaying(t, errOf(redSlip(c, round, 2, 500, "C43")), "change card after the result")
		r.finish(t, round, "2")
		st, err := r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := redSlip(c, st.RoundId, 1, 500, "C43"); err != nil {
			t.Fatal(err)
		}
		c2 := r.terminal("T2")
		if err := r.buyIn(c2, "T2", "n2", 50000); err != nil {
			t.Fatal(err)
		}
		refusedSaying(t, errOf(redSlip(c2, st.RoundId, 1, 4100, "C42")), "past your loss limit: A$40.00")
		if _, err := redSlip(c2, st.RoundId, 2, 4000, "C42"); err != nil {
			t.Fatal(err)
		}
	})
}

// SPEC §10: the break after continuous play is enforced by the table server, mid-round too:
// the seat's allowance does not reach past the break due.
func TestSPEC10_BreakEnforcedMidRound(t *testing.T) {
	cfg := func(c *Config) {
		c.Carded, c.Period = true, 2*time.Hour
		c.Precommit = precommit.Settings{BreakAfter: time.Hour, Break: 15 * time.Minute}
	}
	bothStoresWith(t, cfg, func(t *testing.T, r *rig) {
		r.registerCard(t, "C42", precommit.Limits{Loss: 10000, Time: 10 * time.Hour, Bar: precommit.BarDay})
		c, round := openRound(t, r, "T1", 50000)
		if _, err := redSlip(c, round, 1, 1000, "C42"); err != nil {
			t.Fatal(err)
		}
		for v := uint64(2); v <= 6; v++ { // a slip every 10 minutes: no pause of 15
			r.clock.Add(10 * time.Minute)
			if _, err := redSlip(c, round, v, int64(v)*100+1000, "C42"); err != nil {
				t.Fatal(err)
			}
		}
		r.clock.Add(10 * time.Minute)
		refusedSaying(t, errOf(redSlip(c, round, 7, 2000, "C42")), "without a break: play may resume at")
	})
}

// Attack: the dealer's call bets on a carded seat (002 §3.2B) as a way past the card's limit.
// They are checked against the card as the player's own are; a seat that has not wagered with
// its card this round has none the dealer could place them on.
func TestSPEC10_DealerWagerBoundByTheCard(t *testing.T) {
	bothStoresWith(t, cardedTable, func(t *testing.T, r *rig) {
		r.registerCard(t, "C42", limit100)
		c, round := openRound(t, r, "T1", 50000)
		tier := &pb.Wager{Kind: pb.BetKind_BET_KIND_TIER, Amount: 200} // 6 pieces: 12.00
		refusedSaying(t, errOf(r.dealer.PlaceWager(ctx, &pb.PlaceWagerRequest{TerminalId: "T1", RoundId: round, Wager: tier})), "plays carded")
		if _, err := redSlip(c, round, 1, 8000, "C42"); err != nil {
			t.Fatal(err)
		}
		if _, err := r.dealer.PlaceWager(ctx, &pb.PlaceWagerRequest{TerminalId: "T1", RoundId: round, Wager: tier}); err != nil {
			t.Fatal(err)
		}
		refusedSaying(t, errOf(r.dealer.PlaceWager(ctx, &pb.PlaceWagerRequest{TerminalId: "T1", RoundId: round, Wager: tier})), "past your loss limit")
	})
}

// SPEC §10: the day's break is enforced by the table server, mid-round too: the seat's
// allowance does not reach past the moment the day's play could reach its limit.
func TestSPEC10_DaysBreakEnforcedMidRound(t *testing.T) {
	cfg := func(c *Config) {
		c.Carded, c.Period = true, 2*time.Hour
		c.Precommit = precommit.Settings{BreakAfter: 3 * time.Hour, Break: 15 * time.Minute, DayPlay: 50 * time.Minute}
	}
	bothStoresWith(t, cfg, func(t *testing.T, r *rig) {
		r.registerCard(t, "C42", precommit.Limits{Loss: 10000, Time: 10 * time.Hour, Bar: precommit.BarDay})
		c, round := openRound(t, r, "T1", 50000)
		for v := uint64(1); v <= 5; v++ { // a slip every 10 minutes: 40 minutes of play
			if _, err := redSlip(c, round, v, int64(v)*100+1000, "C42"); err != nil {
				t.Fatal(err)
			}
			r.clock.Add(10 * time.Minute)
		}
		refusedSaying(t, errOf(redSlip(c, round, 6, 2000, "C42")), "in the last 24 hours: a day's break; play may resume at")
		if got := strings.Join(r.auditOf("precommit"), "\n"); !strings.Contains(got, "refused (day break)") {
			t.Fatalf("journal:\n%s", got)
		}
	})
}

// netLoss is card's net loss as the store has it now.
func (r *rig) netLoss(t *testing.T, card string) (int64, precommit.Card) {
	t.Helper()
	c, err := r.cards().Card(ctx, card, r.clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	return c.NetLoss(), c
}

// Issue 31 (a correction re-counts the card): a corrected outcome changes what a carded
// wager returned, and the card's net loss follows it. A correction that turns a win into a
// loss takes the card to its loss limit here: it is barred from then — the next wager is
// refused — and nothing accepted before is voided (the round's settlement stands, corrected).
// An invalidated round's wager is refunded and leaves the card's count.
func TestSPEC10_CorrectionRecountsTheCard(t *testing.T) {
	bothStoresWith(t, cardedTable, func(t *testing.T, r *rig) {
		r.registerCard(t, "C42", limit100)
		c, round := openRound(t, r, "T1", 50000)
		if _, err := redSlip(c, round, 1, 6000, "C42"); err != nil {
			t.Fatal(err)
		}
		r.finish(t, round, "1") // red wins: 60.00 returns 120.00
		if n, _ := r.netLoss(t, "C42"); n != -6000 {
			t.Fatalf("after a win: net loss %d", n)
		}
		if _, err := r.super.CorrectOutcome(ctx, &pb.CorrectOutcomeRequest{RoundId: round, Number: "2"}); err != nil {
			t.Fatal(err)
		}
		if n, c := r.netLoss(t, "C42"); n != 6000 || !c.BarredUntil.IsZero() {
			t.Fatalf("the win corrected to a loss: net loss %d, barred until %v", n, c.BarredUntil)
		}
		st, err := r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
		if err != nil {
			t.Fatal(err)
		}
		refusedSaying(t, errOf(redSlip(c, st.RoundId, 1, 4100, "C42")), "past your loss limit: A$40.00")
		if _, err := redSlip(c, st.RoundId, 2, 4000, "C42"); err != nil {
			t.Fatal(err)
		}
		r.finish(t, st.RoundId, "1") // won: net loss 60 + 40 − 80 = 20.00
		if n, _ := r.netLoss(t, "C42"); n != 2000 {
			t.Fatalf("net loss %d", n)
		}
		if _, err := r.super.CorrectOutcome(ctx, &pb.CorrectOutcomeRequest{RoundId: st.RoundId, Number: "2"}); err != nil {
			t.Fatal(err)
		}
		n, card := r.netLoss(t, "C42")
		if n != 10000 || card.BarredFor != "loss" || !card.BarredUntil.Equal(r.clock.Now().Add(precommit.BarDay)) {
			t.Fatalf("corrected to the limit: net loss %d, barred %v until %v", n, card.BarredFor, card.BarredUntil)
		}
		journal := strings.Join(r.auditOf("precommit"), "\n")
		if !strings.Contains(journal, "correction 1 -> 2: staked A$40.00 returned A$0.00 (was A$40.00, A$80.00); net loss A$100.00 of A$100.00; loss limit reached: barred until") {
			t.Fatalf("journal:\n%s", journal)
		}
		next, err := r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
		if err != nil {
			t.Fatal(err)
		}
		refusedSaying(t, errOf(redSlip(c, next.RoundId, 1, 100, "C42")), "loss limit was reached: play is barred until")
		r.conserved()
	})
}

// An invalidated round refunds its wagers: the card's count loses the wager too.
func TestSPEC10_InvalidatedRoundLeavesTheCardsCount(t *testing.T) {
	bothStoresWith(t, cardedTable, func(t *testing.T, r *rig) {
		r.registerCard(t, "C42", limit100)
		c, round := openRound(t, r, "T1", 50000)
		if _, err := redSlip(c, round, 1, 6000, "C42"); err != nil {
			t.Fatal(err)
		}
		r.finish(t, round, "2")
		if n, _ := r.netLoss(t, "C42"); n != 6000 {
			t.Fatalf("after a loss: %d", n)
		}
		if _, err := r.super.InvalidateRound(ctx, &pb.InvalidateRoundRequest{RoundId: round, Reason: "wheel fault"}); err != nil {
			t.Fatal(err)
		}
		if n, _ := r.netLoss(t, "C42"); n != 0 {
			t.Fatalf("after the invalidation: net loss %d", n)
		}
		r.conserved()
	})
}

// Attack: a restart of the table server between a slip and its settlement, the round already
// closed (no more bets). The hold stands through the restart and the round's settlement counts
// it once: the card's net loss is the stake lost, nothing is left reserved, and the next
// round's slips are bound by what is left of the limit — no wager past it.
func TestSPEC10_RestartBetweenSlipAndSettlementCountsOnce(t *testing.T) {
	bothStoresWith(t, cardedTable, func(t *testing.T, r *rig) {
		r.registerCard(t, "C42", limit100)
		c, round := openRound(t, r, "T1", 50000)
		if _, err := redSlip(c, round, 1, 6000, "C42"); err != nil {
			t.Fatal(err)
		}
		r.clock.Add(21 * time.Second)
		r.table.Advance(r.clock.Now()) // no more bets: the slip stands
		r.shutdown()
		r.start()
		// The seat's allowance (the whole limit, reserved at its first slip) stands.
		if card, err := r.cards().Card(ctx, "C42", r.clock.Now()); err != nil || card.Reserved != 10000 {
			t.Fatalf("after the restart, before the result: %+v %v", card, err)
		}
		if _, err := r.dealer.EnterOutcome(ctx, &pb.EnterOutcomeRequest{RoundId: round, Number: "2"}); err != nil {
			t.Fatal(err)
		}
		n, card := r.netLoss(t, "C42")
		if n != 6000 || card.Reserved != 0 {
			t.Fatalf("settled after the restart: net loss %d, reserved %d", n, card.Reserved)
		}
		st, err := r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
		if err != nil {
			t.Fatal(err)
		}
		c = r.terminal("T1")
		refusedSaying(t, errOf(redSlip(c, st.RoundId, 1, 4100, "C42")), "past your loss limit: A$40.00")
		if _, err := redSlip(c, st.RoundId, 2, 4000, "C42"); err != nil {
			t.Fatal(err)
		}
	})
}

// Attack: two terminals of one table slip on one card at once, each as fast as it can, on
// SQLite and PostgreSQL: one seat holds the card, the other is refused every time, and no more
// than the loss limit is ever staked on it.
func TestSPEC10_TwoTerminalsOneCardRacingPastTheLimit(t *testing.T) {
	bothStoresWith(t, cardedTable, func(t *testing.T, r *rig) {
		r.registerCard(t, "C42", limit100)
		c1, round := openRound(t, r, "T1", 50000)
		c2 := r.terminal("T2")
		if err := r.buyIn(c2, "T2", "n2", 50000); err != nil {
			t.Fatal(err)
		}
		raceOneCard(t, []pb.TerminalServiceClient{c1, c2}, []string{round, round}, 15)
		r.finish(t, round, "2")
		n, card := r.netLoss(t, "C42")
		if n != 10000 || card.BarredFor != "loss" {
			t.Fatalf("net loss %d, barred for %q", n, card.BarredFor)
		}
		r.conserved()
	})
}

// gatedStore is the table's card store with its Allow held at a gate: the seat's first slip of
// a round waits in the store while the test moves the round on.
type gatedStore struct {
	*precommit.LedgerStore
	entered, gate chan struct{}
}

func (g *gatedStore) Allow(ctx context.Context, h precommit.Hold, need int64, played precommit.Played, now time.Time) (precommit.Card, int64, error) {
	g.entered <- struct{}{}
	<-g.gate
	return g.LedgerStore.Allow(ctx, h, need, played, now)
}

// Attack, a slip racing the settlement: a seat's first slip of a round is priced while the
// round takes bets, but its allowance is taken on the card only after the round has closed
// and settled (the store was slow). The slip is refused — and what the allowance reserved
// must be released: the settlement released the holds it knew of, not this one, and left it
// would keep the rest of the card's loss limit reserved for ever (every later slip refused as
// past the limit though nothing was lost).
func TestSPEC10_AllowanceTakenAfterTheSettlementIsReleased(t *testing.T) {
	g := &gatedStore{LedgerStore: &precommit.LedgerStore{}, entered: make(chan struct{}), gate: make(chan struct{})}
	r := newRigWith(t, func(c *Config) { c.Carded, c.Cards = true, g })
	g.L = r.led
	r.registerCard(t, "C42", limit100)
	c, round := openRound(t, r, "T1", 50000)
	refused := make(chan error, 1)
	go func() { refused <- errOf(redSlip(c, round, 1, 500, "C42")) }()
	<-g.entered
	r.finish(t, round, "2")
	close(g.gate)
	if err := <-refused; err == nil {
		t.Fatal("a slip stored after its round settled")
	}
	if card, err := r.cards().Card(ctx, "C42", r.clock.Now()); err != nil || card.Reserved != 0 || card.NetLoss() != 0 {
		t.Fatalf("after the late allowance: %+v %v; want nothing reserved, nothing lost", card, err)
	}
	st, err := r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
	if err != nil {
		t.Fatal(err)
	}
	go func() { <-g.entered }()
	if res, err := redSlip(c, st.RoundId, 1, 10000, "C42"); err != nil || res.Slip.Total != 10000 {
		t.Fatalf("the whole limit in the next round: %v %v", res, err)
	}
}
