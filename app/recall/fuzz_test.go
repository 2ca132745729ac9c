package recall

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/tablegames/ats/app/journal"
	"github.com/tablegames/ats/app/roulette"
)

// The game records are read back from a file: whatever bytes a record's body, key or round
// hold, reading rounds and tickets, recomputing a settlement and turning wagers back into bets
// never panic, and a body that does not parse is an error naming its record.
func FuzzReadRecords(f *testing.F) {
	seed := func(b slipBody, st settledBody) ([]byte, []byte) {
		sb, err := json.Marshal(b)
		if err != nil {
			f.Fatal(err)
		}
		tb, err := json.Marshal(st)
		if err != nil {
			f.Fatal(err)
		}
		return sb, tb
	}
	two := 2
	sb, tb := seed(slipBody{Wheel: "single-zero", Version: 1, Wagers: []Wager{
		{Bet: roulette.BetSpec{Name: "straight", Numbers: []string{"17"}}, Tried: 100, Accepted: 100},
		{Bet: roulette.BetSpec{Name: "red"}, Tried: 500, Accepted: 500}}},
		settledBody{Number: "17", Recognised: true, Staked: 600, Returned: 3600, Balance: 3000, Version: 1})
	f.Add(sb, tb, "ticket:001234567890123456:abcd", "R1", 35)
	sb, tb = seed(slipBody{Wheel: "double-zero", Profile: "star", Version: 2, Wagers: []Wager{
		{Bet: roulette.BetSpec{Name: "neighbours", Numbers: []string{"00"}, Spread: &two}, Tried: 100, Accepted: 500},
		{Bet: roulette.BetSpec{Name: "lucky-ball", Colour: "red"}, Tried: 100, Accepted: 100}}},
		settledBody{Number: "00", Recognised: true, Staked: 600, Correction: true, Version: 2})
	f.Add(sb, tb, "note:65:x", "", -1)
	f.Add([]byte(`{"wheel":"single-zero","wagers":[{"bet":{"kind":"split","numbers":["1","5"]},"accepted":-9223372036854775808}]}`),
		[]byte(`{"number":"0","recognised":true,"slip_version":18446744073709551615}`), "::", "R1", 0)
	f.Add([]byte(`{"wheel":"single-zero","wagers":[`), []byte(`{"number":"99"}`), "ticket", "R\x00", 1)
	f.Fuzz(func(t *testing.T, slip, settled []byte, key, round string, n int) {
		rs := []journal.Record{
			{Seq: 1, Kind: "credited", Key: key, Amount: 5000},
			{Seq: 2, Kind: KindSlip, Round: round, Amount: 100, Body: slip},
			{Seq: 3, Kind: "ticket-issued", Key: key, Amount: 100, Body: slip},
			{Seq: 4, Kind: KindSettled, Round: round, Amount: 3600, Body: settled},
			{Seq: 5, Kind: "handpay", Key: key, Amount: 100},
			{Seq: 6, Kind: KindSettled, Round: round, Amount: 3600, Body: settled},
		}
		rounds, err := roundsOf(rs, n)
		if err != nil {
			if !strings.Contains(err.Error(), "recall: record ") {
				t.Fatalf("error without the record it is about: %v", err)
			}
			return
		}
		for _, r := range rounds {
			if err := r.Verify(); err != nil && !strings.HasPrefix(err.Error(), "recall: ") && !errors.Is(err, ErrLuckyBall) {
				t.Fatalf("verify: an error that does not say where: %v", err)
			}
			bets, per, err := r.Bets()
			if err == nil && len(bets) != len(per) {
				t.Fatalf("%d bets, %d stakes", len(bets), len(per))
			}
		}
		printed, accepted := ticketsOf(rs, n)
		if n > 0 && (len(printed) > n || len(accepted) > n) {
			t.Fatalf("asked for %d, got %d printed and %d accepted", n, len(printed), len(accepted))
		}
		_ = fmt.Sprint(printed, accepted)
	})
}
