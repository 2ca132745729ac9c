package recall_test

import (
	"context"
	"errors"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tablegames/ats/app/table"

	"github.com/tablegames/ats/app/journal"
	"github.com/tablegames/ats/app/recall"
	"github.com/tablegames/ats/app/roulette"
)

var single = roulette.Layout{Wheel: roulette.SingleZero}

func openJournal(t *testing.T) *journal.Journal {
	t.Helper()
	j, err := journal.Open(filepath.Join(t.TempDir(), "terminal.db"), time.Now)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { j.Close() })
	return j
}

func straight(t *testing.T, n roulette.Number) roulette.Bet {
	s, err := single.Inside(roulette.Straight, []roulette.Number{n})
	if err != nil {
		t.Fatal(err)
	}
	return roulette.Bet{Spot: s}
}

func red(t *testing.T) roulette.Bet {
	s, err := single.Outside(roulette.Red, 0)
	if err != nil {
		t.Fatal(err)
	}
	return roulette.Bet{Spot: s}
}

// ack is a slip acknowledged in full.
func ack(round string, version uint64, bets ...table.SlipBet) table.SlipAck {
	a := table.SlipAck{RoundID: round, Version: version, Bets: bets}
	for _, b := range bets {
		a.Results = append(a.Results, table.BetResult{Accepted: b.Amount})
		a.Total += b.Amount
	}
	return a
}

func TestRoundsRecallWagersOutcomeBalancesAndMoney(t *testing.T) {
	ctx := context.Background()
	j := openJournal(t)
	w := recall.Writer{J: j}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	// Round 1: 10 000 bought in; 100 on 19 and 500 on red; 19 (red) comes: 3600 + 1000 back.
	_, err := j.Append(ctx, journal.Record{Kind: "credited", Key: "note:67:1", Amount: 10000, Flow: journal.Done})
	must(err)
	must(w.SlipAcked(ctx, single, ack("R1", 1, table.SlipBet{Bet: straight(t, 19), Amount: 100})))
	must(w.SlipAcked(ctx, single, ack("R1", 2, table.SlipBet{Bet: straight(t, 19), Amount: 100}, table.SlipBet{Bet: red(t), Amount: 500})))
	s1 := table.Settled{RoundID: "R1", Number: 19, Recognised: true, Staked: 600, Returned: 4600, Balance: 14000, SlipVersion: 2}
	must(w.Settled(ctx, s1))
	must(w.Settled(ctx, s1)) // told again after a resubscription
	// Round 2: 200 on 5; 0 comes; then a ticket of 13 800 is cashed out.
	must(w.SlipAcked(ctx, single, ack("R2", 1, table.SlipBet{Bet: straight(t, 5), Amount: 200})))
	_, err = j.Append(ctx, journal.Record{Kind: "ticket-confirmed", Key: "cashout:-:1", Amount: 13800, Flow: journal.Done})
	must(err)
	must(w.Settled(ctx, table.Settled{RoundID: "R2", Number: 0, Recognised: true, Staked: 200, Returned: 0, Balance: 13800, SlipVersion: 1}))

	rounds, err := recall.Rounds(ctx, j, 10)
	must(err)
	if len(rounds) != 2 || rounds[0].ID != "R2" || rounds[1].ID != "R1" {
		t.Fatalf("rounds %+v, want R2 then R1", rounds)
	}
	r1, r2 := rounds[1], rounds[0]
	if r1.SlipVersion != 2 || len(r1.Wagers) != 2 || r1.Staked != 600 || r1.Returned != 4600 ||
		r1.BalanceBefore != 10000 || r1.BalanceAfter != 14000 || r1.MoneyIn != 10000 || r1.MoneyOut != 0 {
		t.Errorf("round 1 recalled as %+v", r1)
	}
	if r2.BalanceBefore != 14000 || r2.BalanceAfter != 13800 || r2.MoneyOut != 13800 || r2.Number != 0 {
		t.Errorf("round 2 recalled as %+v", r2)
	}
	bets, per, err := r1.Bets()
	must(err)
	if len(bets) != 2 || bets[0] != straight(t, 19) || bets[1] != red(t) || per[0] != 100 || per[1] != 500 {
		t.Errorf("round 1 bets %v %v", bets, per)
	}
	for _, r := range rounds {
		if err := r.Verify(); err != nil {
			t.Errorf("verify %s: %v", r.ID, err)
		}
	}
	if only, _ := recall.Rounds(ctx, j, 1); len(only) != 1 || only[0].ID != "R2" {
		t.Errorf("last 1 round: %+v", only)
	}
}

func TestVerifyFindsASettlementTheRulesDisagreeWith(t *testing.T) {
	ctx := context.Background()
	j := openJournal(t)
	w := recall.Writer{J: j}
	if err := w.SlipAcked(ctx, single, ack("R1", 1, table.SlipBet{Bet: straight(t, 17), Amount: 100})); err != nil {
		t.Fatal(err)
	}
	// Paid as if 17 had won, but 18 came.
	if err := w.Settled(ctx, table.Settled{RoundID: "R1", Number: 18, Recognised: true, Staked: 100, Returned: 3600, Balance: 3500, SlipVersion: 1}); err != nil {
		t.Fatal(err)
	}
	rounds, err := recall.Rounds(ctx, j, 0)
	if err != nil {
		t.Fatal(err)
	}
	err = rounds[0].Verify()
	if err == nil || !strings.Contains(err.Error(), "returned 3600") || !strings.Contains(err.Error(), "returned 0") {
		t.Fatalf("verify = %v, want the disagreement named", err)
	}
}

func TestCorrectionReplacesTheSettlement(t *testing.T) {
	ctx := context.Background()
	j := openJournal(t)
	w := recall.Writer{J: j}
	w.SlipAcked(ctx, single, ack("R1", 1, table.SlipBet{Bet: straight(t, 17), Amount: 100}))
	w.Settled(ctx, table.Settled{RoundID: "R1", Number: 18, Recognised: true, Staked: 100, Balance: 900, SlipVersion: 1})
	w.Settled(ctx, table.Settled{RoundID: "R1", Number: 17, Recognised: true, Staked: 100, Returned: 3600, Balance: 4500, SlipVersion: 1, Correction: true})
	rounds, err := recall.Rounds(ctx, j, 0)
	if err != nil {
		t.Fatal(err)
	}
	r := rounds[0]
	if !r.Corrected || r.Number != 17 || r.Returned != 3600 || r.BalanceAfter != 4500 || r.BalanceBefore != 1000 {
		t.Errorf("corrected round recalled as %+v", r)
	}
	if err := r.Verify(); err != nil {
		t.Error(err)
	}
}

func TestMalformedRecordIsAnErrorNamingIt(t *testing.T) {
	ctx := context.Background()
	j := openJournal(t)
	for _, rec := range []journal.Record{
		{Kind: recall.KindSlip, Round: "R1", Body: []byte(`{"wheel":"single-zero","wagers":[`)},
		{Kind: recall.KindSettled, Round: "R1", Body: []byte(`{"number":"99"}`)},
		{Kind: recall.KindSlip, Round: "R1", Body: []byte(`{"wheel":"triple-zero"}`)},
	} {
		j := openJournal(t)
		got, err := j.Append(ctx, rec)
		if err != nil {
			t.Fatal(err)
		}
		_, err = recall.Rounds(ctx, j, 0)
		if err == nil || !strings.Contains(err.Error(), "record "+strconv.FormatInt(got.Seq, 10)) {
			t.Errorf("%s %s: err = %v, want one naming the record", rec.Kind, rec.Body, err)
		}
	}
	// A wager that names a spot the layout does not have is refused by Bets and Verify.
	w := recall.Writer{J: j}
	w.SlipAcked(ctx, single, ack("R1", 1, table.SlipBet{Bet: straight(t, 17), Amount: 100}))
	w.Settled(ctx, table.Settled{RoundID: "R1", Number: 17, Recognised: true, Staked: 100, Returned: 3600, Balance: 3500, SlipVersion: 1})
	rounds, _ := recall.Rounds(ctx, j, 0)
	r := rounds[0]
	r.Wagers[0].Bet.Numbers = []string{"37"}
	if err := r.Verify(); err == nil || errors.Is(err, recall.ErrLuckyBall) {
		t.Errorf("verify of a wager on 37 = %v, want an error", err)
	}
}

func TestTicketsPrintedAndAccepted(t *testing.T) {
	ctx := context.Background()
	j := openJournal(t)
	for _, r := range []journal.Record{
		{Kind: "credited", Key: "note:67:a", Amount: 10000, Flow: journal.Done},
		{Kind: "ticket-issued", Key: "cashout:-:b", Amount: 2500, Flow: "printing", Body: []byte("001234567890123456")},
		{Kind: "ticket-confirmed", Key: "cashout:-:b", Amount: 2500, Flow: journal.Done},
		{Kind: "credited", Key: "ticket:001234567890123456:c", Amount: 2500, Flow: journal.Done},
		{Kind: "ticket-issued", Key: "cashout:-:d", Amount: 700, Flow: "printing", Body: []byte("009999999999999999")},
		{Kind: "handpay", Key: "cashout:-:d", Amount: 700, Flow: journal.Done},
		{Kind: "ticket-issued", Key: "cashout:-:e", Amount: 300, Flow: "printing", Body: []byte("005555555555555555")},
	} {
		if _, err := j.Append(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	printed, accepted, err := recall.Tickets(ctx, j, 35)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		v     string
		state string
	}{{"005555555555555555", "printing"}, {"009999999999999999", "handpay"}, {"001234567890123456", "printed"}}
	if len(printed) != len(want) {
		t.Fatalf("printed %+v", printed)
	}
	for i, w := range want {
		if printed[i].Validation != w.v || printed[i].State != w.state {
			t.Errorf("printed[%d] = %+v, want %s %s", i, printed[i], w.v, w.state)
		}
	}
	if len(accepted) != 2 || accepted[0].Validation != "001234567890123456" || accepted[0].State != "ticket" ||
		accepted[1].State != "note" || accepted[1].Amount != 10000 {
		t.Errorf("accepted %+v", accepted)
	}
	if p, _, _ := recall.Tickets(ctx, j, 1); len(p) != 1 || p[0].Validation != "005555555555555555" {
		t.Errorf("last 1 printed: %+v", p)
	}
}

// An Asian Neighbour (002 §3.2) recorded at a table with its own groups reads back as the same
// group, and the rules engine verifies its settlement at 11 to 1: the record keeps the groups.
func TestRule002_3_2_AsianNeighbourRecalledAndVerified(t *testing.T) {
	ctx := context.Background()
	j := openJournal(t)
	w := recall.Writer{J: j}
	g, err := roulette.ParseAsianGroups(roulette.SingleZero, [][]string{{"1", "2", "3"}, {"0", "4", "5"}})
	if err != nil {
		t.Fatal(err)
	}
	l := roulette.Layout{Wheel: roulette.SingleZero, Asian: g}
	bet, err := roulette.ParseBet(l, roulette.BetSpec{Name: "asian-neighbour", Numbers: []string{"0", "4", "5"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.SlipAcked(ctx, l, ack("R1", 1, table.SlipBet{Bet: bet, Amount: 200, Card: "60420042"})); err != nil {
		t.Fatal(err)
	}
	if err := w.Settled(ctx, table.Settled{RoundID: "R1", Number: 4, Recognised: true, Staked: 200, Returned: 2400, Balance: 2400, SlipVersion: 1}); err != nil {
		t.Fatal(err)
	}
	rounds, err := recall.Rounds(ctx, j, 0)
	if err != nil || len(rounds) != 1 {
		t.Fatal(rounds, err)
	}
	bets, per, err := rounds[0].Bets()
	if err != nil || len(bets) != 1 || bets[0] != bet || per[0] != 200 || rounds[0].Layout.Asian != g {
		t.Fatalf("recalled %v %v %v (layout %v)", bets, per, err, rounds[0].Layout)
	}
	if err := rounds[0].Verify(); err != nil {
		t.Fatal(err)
	}
	// The terminal's own record keeps the card each wager was placed with (003 §3.4, §9.1).
	if rounds[0].Wagers[0].Card != "60420042" {
		t.Errorf("recorded card %q", rounds[0].Wagers[0].Card)
	}
}
