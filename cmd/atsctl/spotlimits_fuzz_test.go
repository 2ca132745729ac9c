package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tablegames/ats/app"
	"github.com/tablegames/ats/app/apptest"
	"github.com/tablegames/ats/app/clock/clocktest"
	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
	"github.com/tablegames/ats/internal/testwait"
	pb "github.com/tablegames/ats/proto/ats/table/v1"
	"github.com/tablegames/ats/server"
	"github.com/tablegames/ats/server/ledger"
)

// SPEC §3.7: the terminal's slip, the table's pricing of a hostile terminal's slip and atsctl
// settle agree exactly. The fuzz target makes slips with repeated spots and overlapping call
// bets (straight 17, neighbours of 17, orphelins and voisins share spots), under three sets of
// limits, and checks that
//   - the table (a real server.Table on a SQLite ledger) and atsctl settle accept the same
//     amount with the same reason for every wager of the raw slip;
//   - the same wagers touched one by one on a real terminal (app.Terminal) leave a slip whose
//     total is the raw slip's total, and which the table accepts exactly as the screen shows it.

// spotFuzzBets are the bets the fuzzer draws from: many of them land on straight 17, split
// 14/17 or split 17/20, or on each other's spots.
var spotFuzzBets = []roulette.BetSpec{
	{Name: "straight", Numbers: []string{"17"}},
	{Name: "straight", Numbers: []string{"2"}},
	{Name: "straight", Numbers: []string{"1"}},
	{Name: "straight", Numbers: []string{"26"}},
	{Name: "split", Numbers: []string{"17", "20"}},
	{Name: "split", Numbers: []string{"14", "17"}},
	{Name: "split", Numbers: []string{"12", "15"}},
	{Name: "street", Numbers: []string{"0", "2", "3"}},
	{Name: "neighbours", Numbers: []string{"17"}, Spread: ptr(1)},
	{Name: "neighbours", Numbers: []string{"17"}, Spread: ptr(2)},
	{Name: "neighbours", Numbers: []string{"26"}, Spread: ptr(2)},
	{Name: "orphelins"},
	{Name: "voisins"},
	{Name: "zero-game"},
	{Name: "red"},
	{Name: "dozen", Which: ptr(2)},
	{Name: "lucky-ball", Colour: "green"},
	{Name: "asian-neighbour", Numbers: []string{"25", "17", "34"}},
}

// spotFuzzAmounts are the attempts: chips, and amounts off the unit or below a minimum.
var spotFuzzAmounts = []int64{100, 500, 2500, 50, 150, 250, 777, 1000}

func ptr(i int) *int { return &i }

// spotFuzzTable is one set of limits with its table, terminal and balance.
type spotFuzzTable struct {
	name    string
	limits  roulette.Limits
	balance int64
	tbl     *server.Table
	round   string
	version uint64
	term    *app.Terminal
}

func spotFuzzTables(t testing.TB) []*spotFuzzTable {
	sets := []*spotFuzzTable{
		{name: "sign", balance: 10_000_000, limits: roulette.Limits{
			Default: roulette.Limit{Min: 100, Max: 50000, Unit: 100},
			PerKind: map[roulette.Kind]roulette.Limit{roulette.Straight: {Min: 100, Max: 2500, Unit: 100}},
		}},
		{name: "odd-minimums", balance: 10_000_000, limits: roulette.Limits{
			Default: roulette.Limit{Min: 150, Max: 3000, Unit: 100},
			PerKind: map[roulette.Kind]roulette.Limit{
				roulette.Straight:       {Min: 100, Max: 1000, Unit: 50},
				roulette.Split:          {Min: 200, Max: 1500, Unit: 100},
				roulette.LuckyBall:      {Min: 100, Max: 600, Unit: 100},
				roulette.AsianNeighbour: {Min: 300, Max: 900, Unit: 300},
			},
		}},
		{name: "cents-balance-table-max", balance: 9000, limits: roulette.Limits{
			Default:  roulette.Limit{Min: 100, Max: 4000},
			PerKind:  map[roulette.Kind]roulette.Limit{roulette.Straight: {Min: 100, Max: 777}},
			TableMax: 8000,
		}},
	}
	for _, s := range sets {
		s.tbl, s.round = spotFuzzServer(t, s)
		s.term = spotFuzzTerminal(t, s)
	}
	return sets
}

// spotFuzzServer is a real table on a SQLite ledger, with terminal T1's account holding the
// set's balance and a round whose wagering period never ends (its clock stands still).
func spotFuzzServer(t testing.TB, s *spotFuzzTable) (*server.Table, string) {
	led, err := ledger.Open(filepath.Join(t.TempDir(), s.name+".db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { led.Close() })
	cfg := server.DefaultConfig()
	cfg.Limits, cfg.LuckyBall = s.limits, true
	cfg.AsianGroups = roulette.DefaultAsianGroups(roulette.SingleZero)
	cfg.Notes = map[string]int64{"load": s.balance}
	cfg.MaxBalance = 10_000_000
	now := time.Date(2026, 11, 27, 1, 0, 0, 0, time.UTC)
	tbl, err := server.NewTable(context.Background(), cfg, led, func() time.Time { return now }, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tbl.OpenTable("dealer:fuzz", false); err != nil {
		t.Fatal(err)
	}
	if err := tbl.RegisterTerminal("T1"); err != nil {
		t.Fatal(err)
	}
	if _, err := tbl.ReportNoteEscrow("T1", &pb.NoteEscrowRequest{IdempotencyKey: "in", Amount: s.balance, NoteCode: "load"}); err != nil {
		t.Fatal(err)
	}
	if _, err := tbl.CreditNote("T1", &pb.CreditNoteRequest{IdempotencyKey: "in", Amount: s.balance, NoteCode: "load"}); err != nil {
		t.Fatal(err)
	}
	st, err := tbl.StartRound("dealer:fuzz")
	if err != nil {
		t.Fatal(err)
	}
	return tbl, st.RoundId
}

// spotFuzzTerminal is a real terminal in the wagering period on a fake link that refuses every
// slip, so that what the screen shows is the terminal's own pricing, never a table's answer.
func spotFuzzTerminal(t testing.TB, s *spotFuzzTable) *app.Terminal {
	layout := roulette.Layout{Wheel: roulette.SingleZero, Profile: roulette.CrownRapid, Asian: roulette.DefaultAsianGroups(roulette.SingleZero)}
	clk := clocktest.New(time.Date(2026, 11, 27, 1, 0, 0, 0, time.UTC))
	link := apptest.NewLink(clk.Now, 0, time.Millisecond, layout, s.limits)
	link.Refuse = errors.New("the screen's slip is judged by the real table")
	term := app.New(app.Config{Link: link, Clock: clk, Log: slog.New(slog.DiscardHandler)})
	ctx, cancel := context.WithCancel(context.Background())
	ran := make(chan struct{})
	go func() { term.Run(ctx); close(ran) }()
	go func() { // the fake link waits for each slip it answers to be counted
		for ctx.Err() == nil {
			link.WaitSlip(100 * time.Millisecond)
		}
	}()
	t.Cleanup(func() { cancel(); term.Close(); <-ran })
	link.Push(table.Connection{Up: true})
	link.Push(table.Snapshot{
		Config: table.TableConfig{Layout: layout, LuckyBall: true, Racetrack: true, Chips: []int64{100}},
		Phase:  table.PhaseWagering, RoundID: "R1", Deadline: clk.Now().Add(time.Hour),
		Limits: s.limits, Balance: s.balance, AccountOpen: true,
	})
	if !testwait.For(5*time.Second, func() bool { v := term.View(); return v.RoundID == "R1" && v.Connected }) {
		t.Fatal("the terminal never joined the round")
	}
	return term
}

// settleInputFor writes the raw slip as atsctl settle's input.
func settleInputFor(s *spotFuzzTable, specs []roulette.BetSpec, amounts []int64) []byte {
	type wager struct {
		Bet     string   `json:"bet"`
		Numbers []string `json:"numbers,omitempty"`
		Which   *int     `json:"which,omitempty"`
		Spread  *int     `json:"spread,omitempty"`
		Colour  string   `json:"colour,omitempty"`
		Amount  int64    `json:"amount"`
	}
	perBet := map[string]limitInput{}
	for k, l := range s.limits.PerKind {
		perBet[k.String()] = limitInput{Min: l.Min, Max: l.Max, Unit: l.Unit}
	}
	in := map[string]any{
		"wheel": "single-zero", "outcome": "17", "balance": s.balance,
		"limits":     map[string]any{"min": s.limits.Default.Min, "max": s.limits.Default.Max, "unit": s.limits.Default.Unit, "per_bet": perBet, "table_max": s.limits.TableMax},
		"lucky_ball": map[string]any{"version": "standard", "numbers": map[string]string{"red": "7", "green": "17", "blue": "22", "yellow": "30"}},
	}
	ws := make([]wager, len(specs))
	for i, sp := range specs {
		ws[i] = wager{Bet: sp.Name, Numbers: sp.Numbers, Which: sp.Which, Spread: sp.Spread, Colour: sp.Colour, Amount: amounts[i]}
	}
	in["wagers"] = ws
	data, _ := json.Marshal(in)
	return data
}

func FuzzSpotTotalsAgree(f *testing.F) {
	f.Add(uint8(0), []byte{0, 2, 0, 2, 9, 2})                                           // the lab's settle case
	f.Add(uint8(0), []byte{0, 2, 0, 2, 0, 2, 0, 2, 0, 2, 0, 2, 0, 2, 0, 2, 0, 2, 0, 2}) // ten straights
	f.Add(uint8(1), []byte{9, 0, 0, 4, 11, 4, 5, 3, 4, 6, 17, 7, 17, 5, 16, 1, 16, 3})
	f.Add(uint8(2), []byte{12, 7, 13, 3, 0, 6, 8, 5, 0, 6, 14, 7, 14, 7, 11, 6, 10, 2})
	f.Add(uint8(1), []byte{7, 1, 12, 4, 13, 0, 6, 4, 4, 3, 5, 3, 9, 1, 8, 4})
	sets := spotFuzzTables(f)
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		s := sets[int(which)%len(sets)]
		if len(data) > 60 {
			data = data[:60]
		}
		var specs []roulette.BetSpec
		var amounts []int64
		for i := 0; i+1 < len(data); i += 2 {
			specs = append(specs, spotFuzzBets[int(data[i])%len(spotFuzzBets)])
			amounts = append(amounts, spotFuzzAmounts[int(data[i+1])%len(spotFuzzAmounts)])
		}

		// A hostile terminal's raw slip at the table, and the same slip through atsctl settle.
		raw := make([]server.SlipWager, len(specs))
		for i := range specs {
			raw[i] = server.SlipWager{Spec: specs[i], Amount: amounts[i]}
		}
		s.version++
		ack, err := s.tbl.UpdateSlip("T1", s.round, s.version, raw)
		if err != nil {
			t.Fatalf("%s: the table refused the raw slip: %v", s.name, err)
		}
		var stdout, stderr bytes.Buffer
		if code := run([]string{"settle"}, bytes.NewReader(settleInputFor(s, specs, amounts)), &stdout, &stderr); code != 0 {
			t.Fatalf("%s: settle exit %d: %s", s.name, code, stderr.String())
		}
		var out settleOutput
		if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
			t.Fatal(err)
		}
		var why strings.Builder
		for i := range specs {
			fmt.Fprintf(&why, "\n  %d %s %v %d: table %d %q, settle %d %q", i, specs[i].Name, specs[i].Numbers, amounts[i],
				ack.Results[i].Accepted, ack.Results[i].Reason, out.Wagers[i].Accepted, out.Wagers[i].Reason)
		}
		for i := range specs {
			if ack.Results[i].Accepted != out.Wagers[i].Accepted || ack.Results[i].Reason != out.Wagers[i].Reason {
				t.Fatalf("%s: the table and atsctl settle differ at wager %d:%s", s.name, i, why.String())
			}
		}
		if ack.Total != out.TotalAccepted {
			t.Fatalf("%s: table total %d, settle total %d:%s", s.name, ack.Total, out.TotalAccepted, why.String())
		}

		// The same wagers touched one by one on the screen.
		if err := s.term.Clear(); err != nil {
			t.Fatal(err)
		}
		layout := s.term.View().Config.Layout
		for i := range specs {
			bet, err := roulette.ParseBet(layout, specs[i])
			if err != nil {
				t.Fatal(err)
			}
			s.term.SelectChip(amounts[i])
			if _, err := s.term.Place(bet); err != nil {
				t.Fatalf("%s: touch %d: %v", s.name, i, err)
			}
		}
		stakes := s.term.View().Stakes
		var screen int64
		shown := make([]server.SlipWager, len(stakes))
		for i, st := range stakes {
			ps, _ := st.Bet.Pieces(layout)
			screen += st.Amount * roulette.Units(ps)
			shown[i] = server.SlipWager{Spec: st.Bet.Spec(), Amount: st.Amount}
		}
		if screen != ack.Total {
			t.Fatalf("%s: the screen shows %d on the layout, the table accepts %d of the same wagers: screen %+v%s", s.name, screen, ack.Total, stakes, why.String())
		}
		s.version++
		got, err := s.tbl.UpdateSlip("T1", s.round, s.version, shown)
		if err != nil {
			t.Fatalf("%s: the table refused the screen's slip: %v", s.name, err)
		}
		for i, r := range got.Results {
			ps, _ := stakes[i].Bet.Pieces(layout)
			if r.Accepted != stakes[i].Amount*roulette.Units(ps) || r.Reason != "" {
				t.Fatalf("%s: the table changed the screen's wager %d (%v at %d): accepted %d %q; screen %+v%s", s.name, i,
					stakes[i].Bet, stakes[i].Amount, r.Accepted, r.Reason, stakes, why.String())
			}
		}
	})
}
