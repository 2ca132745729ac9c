package station_test

import (
	"context"
	"errors"
	"log/slog"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/tablegames/ats/app"
	"github.com/tablegames/ats/app/meters"
	"github.com/tablegames/ats/app/recall"
	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/station"
	"github.com/tablegames/ats/app/table"
	"github.com/tablegames/ats/client"
	"github.com/tablegames/ats/internal/testwait"
	pb "github.com/tablegames/ats/proto/ats/table/v1"
	"github.com/tablegames/ats/server"
	"github.com/tablegames/ats/server/ledger"
	"github.com/tablegames/ats/server/pki"
)

// A tournament played on the kiosks' terminals (app.Terminal in its station: journal, client
// over mutual TLS to the real table server on loopback), by touches on the layout, worked by
// hand. Terms: 1000 tournament chips each, 2 rounds, minimum 100, one undisclosed wager each,
// entry 10.00, all the pool (2 × 1000 = 2000) to the winner.
//
//	round 1, 17 (black):  T01 red 500 → 500;  T02 straight 17 100, undisclosed → 1000−100+3600 = 4500
//	round 2, 2 (black):   T01 black 500 → 500−500+1000 = 1000;  T02 red 100 → 4400
//
// T02 wins (4400 chips, prize 20.00), T01 second (1000). T01 holds a chip account of 50.00
// (a dealer buy-in) all along: it, the terminal's meters and the table's books do not move; a
// tournament slip is not journalled as a game; T03, at the table but not in the tournament,
// may not wager.
func TestTournamentOnTheTerminals(t *testing.T) {
	dir := t.TempDir()
	tbl, m, addr := tournamentTable(t, dir)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sts := map[string]*station.Station{}
	for _, id := range []string{"T01", "T02", "T03"} {
		if err := tbl.RegisterTerminal(id); err != nil {
			t.Fatal(err)
		}
		tls, _ := m.ClientTLS(pki.RoleTerminal, id)
		st, err := station.Start(ctx, station.Config{ID: id, Journal: filepath.Join(dir, id+".db"),
			Client: client.Config{Addr: addr, TLS: tls, BaseBackoff: 20 * time.Millisecond, MaxBackoff: 200 * time.Millisecond}})
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		<-st.Recovered()
		sts[id] = st
	}
	wait := func(id, what string, ok func(app.View) bool) app.View {
		t.Helper()
		var v app.View
		if !testwait.For(10*time.Second, func() bool { v = sts[id].Terminal.View(); return ok(v) }) {
			t.Fatalf("%s: never %s: %+v", id, what, v)
		}
		return v
	}
	for id := range sts {
		wait(id, "had the table's snapshot", func(v app.View) bool { return v.Connected && v.Config.Layout.Wheel != 0 })
	}
	// T01's money: a dealer buy-in of 50.00, accepted on the terminal.
	if _, err := tbl.CreditPlayer("dealer:D1", &pb.CreditPlayerRequest{IdempotencyKey: "b1", TerminalId: "T01", Amount: 5000}); err != nil {
		t.Fatal(err)
	}
	wait("T01", "been offered the buy-in", func(v app.View) bool { return v.BuyIn != nil })
	if err := sts["T01"].Terminal.ConfirmBuyIn(ctx, true); err != nil {
		t.Fatal(err)
	}
	wait("T01", "had the buy-in", func(v app.View) bool { return v.Balance == 5000 })
	metersBefore, err := meters.Read(ctx, sts["T01"].Journal)
	if err != nil {
		t.Fatal(err)
	}
	booksBefore, _ := tbl.Conservation()
	slipsBefore := countKind(t, sts["T01"], recall.KindSlip)

	terms := table.TournamentTerms{ID: "KIOSK-1", Name: "Kiosk Cup", Terms: "Two rounds; decisions of the Director are final.", EntryFee: 1000, StartingChips: 1000, Rounds: 2,
		Minimums: []int64{100}, SecretWagers: 1, Prizes: []int64{100}}
	if _, err := tbl.ConfigureTournament("supervisor:TD", terms); err != nil {
		t.Fatal(err)
	}
	if _, err := tbl.OpenTournament("supervisor:TD", []string{"T01", "T02"}); err != nil {
		t.Fatal(err)
	}
	v := wait("T01", "seen the tournament open", func(v app.View) bool {
		return v.Tournament.Tournament != nil && v.Tournament.Status == table.TournamentOpen
	})
	if v.Tournament.Me == nil || v.Tournament.Me.Chips != 1000 || v.Tournament.Round != 1 || v.Tournament.Minimum() != 100 {
		t.Fatalf("T01's tournament: %+v", v.Tournament)
	}
	layout := v.Config.Layout
	outside := func(k roulette.Kind) roulette.Bet {
		s, err := layout.Outside(k, 0)
		if err != nil {
			t.Fatal(err)
		}
		return roulette.Bet{Spot: s}
	}
	straight := func(n string) roulette.Bet {
		num, _ := roulette.ParseNumber(n)
		s, err := layout.Inside(roulette.Straight, []roulette.Number{num})
		if err != nil {
			t.Fatal(err)
		}
		return roulette.Bet{Spot: s}
	}
	place := func(id string, chip int64, b roulette.Bet) {
		t.Helper()
		sts[id].Terminal.SelectChip(chip)
		if fb, err := sts[id].Terminal.Place(b); err != nil || fb.Accepted != chip {
			t.Fatalf("%s placing %d: %+v %v", id, chip, fb, err)
		}
		wait(id, "had the slip acknowledged", func(v app.View) bool { return v.Acked && v.SlipTotal == chip })
	}
	round := func(n int, outcome string, bets func()) {
		t.Helper()
		st, err := tbl.StartRound("dealer:D1")
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range []string{"T01", "T02", "T03"} {
			wait(id, "seen the round open", func(v app.View) bool {
				return v.RoundID == st.RoundId && v.Phase == table.PhaseWagering && v.Tournament.Round == n
			})
		}
		bets()
		if _, err := tbl.BallDropping("dealer:D1", st.RoundId); err != nil {
			t.Fatal(err)
		}
		if _, err := tbl.EnterOutcome("dealer:D1", st.RoundId, outcome); err != nil {
			t.Fatal(err)
		}
	}
	round(1, "17", func() {
		// The seat not in the tournament is refused on the touch.
		if _, err := sts["T03"].Terminal.Place(outside(roulette.Red)); !errors.Is(err, app.ErrTournamentOnly) {
			t.Fatalf("T03's touch: %v", err)
		}
		place("T01", 500, outside(roulette.Red))
		// The wager draws on tournament chips: 500 of them left; the chip account is as it was.
		if v := sts["T01"].Terminal.View(); v.Available != 500 || v.Balance != 5000 {
			t.Fatalf("T01 with a tournament wager: available %d, balance %d", v.Available, v.Balance)
		}
		if err := sts["T02"].Terminal.SetSecret(true); err != nil {
			t.Fatal(err)
		}
		place("T02", 100, straight("17"))
		// T01 sees that T02 wagers, not how much (003 §10.8).
		v := wait("T01", "seen T02's undisclosed wager", func(v app.View) bool {
			s := v.Tournament.Standing("T02")
			return s != nil && s.Secret
		})
		if s := v.Tournament.Standing("T02"); s.RoundStake != 0 {
			t.Fatalf("T02's undisclosed wager shown to T01: %+v", s)
		}
	})
	v = wait("T01", "seen round 1 settled", func(v app.View) bool { return v.Tournament.Played == 1 })
	if me, t2 := v.Tournament.Me, v.Tournament.Standing("T02"); me.Chips != 500 || t2.Chips != 4500 || t2.RoundStake != 100 || t2.Rank != 1 || me.Rank != 2 {
		t.Fatalf("after round 1: T01 %+v, T02 %+v", me, t2)
	}
	if v.SlipTotal != 0 || v.Balance != 5000 || len(v.Result) != 1 {
		t.Fatalf("T01's layout after round 1: slip %d balance %d result %+v", v.SlipTotal, v.Balance, v.Result)
	}
	round(2, "2", func() {
		if err := sts["T02"].Terminal.SetSecret(true); !errors.Is(err, app.ErrNoSecretLeft) {
			t.Fatalf("a second undisclosed wager: %v", err)
		}
		place("T01", 500, outside(roulette.Black))
		place("T02", 100, outside(roulette.Red))
	})
	v = wait("T02", "seen the tournament finished", func(v app.View) bool { return v.Tournament.Status == table.TournamentFinished })
	if me, t1 := v.Tournament.Me, v.Tournament.Standing("T01"); me.Chips != 4400 || me.Rank != 1 || me.Prize != 2000 || t1.Chips != 1000 || t1.Rank != 2 || t1.Prize != 0 {
		t.Fatalf("final: T02 %+v, T01 %+v", me, t1)
	}

	// Tournament chips are not money.
	metersAfter, err := meters.Read(ctx, sts["T01"].Journal)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(metersAfter, metersBefore) {
		t.Fatalf("T01's meters moved: %+v → %+v", metersBefore, metersAfter)
	}
	if booksAfter, _ := tbl.Conservation(); booksAfter != booksBefore {
		t.Fatalf("the table's books moved: %+v → %+v", booksBefore, booksAfter)
	}
	if n := countKind(t, sts["T01"], recall.KindSlip); n != slipsBefore {
		t.Fatalf("tournament slips journalled as games: %d → %d", slipsBefore, n)
	}
	if v := sts["T01"].Terminal.View(); v.Balance != 5000 || !v.AccountOpen {
		t.Fatalf("T01's chip account: %d", v.Balance)
	}
}

func countKind(t *testing.T, st *station.Station, kind string) int {
	t.Helper()
	rs, err := st.Journal.Records(context.Background(), 0, 100000)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, r := range rs {
		if r.Kind == kind {
			n++
		}
	}
	return n
}

// tournamentTable is a real table server for the tournament tests: a 30 s wagering period, its
// ledger in dir, mutual TLS on loopback, running and open; stopped when the test ends.
func tournamentTable(t *testing.T, dir string) (tbl *server.Table, m *pki.Memory, addr string) {
	t.Helper()
	led, err := ledger.Open(filepath.Join(dir, "table.db"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cfg := server.DefaultConfig()
	cfg.Period = 30 * time.Second
	tbl, err = server.NewTable(ctx, cfg, led, time.Now, slog.New(slog.DiscardHandler))
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	m, _ = pki.NewMemory()
	srvTLS, _ := m.ServerTLS()
	addr, stop, err := server.Listen(tbl, srvTLS, "127.0.0.1:0")
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	ran := make(chan struct{})
	go func() { defer close(ran); tbl.Run(ctx) }()
	t.Cleanup(func() { cancel(); stop(); <-ran; led.Close() })
	if _, err := tbl.OpenTable("dealer:D1", false); err != nil {
		t.Fatal(err)
	}
	return tbl, m, addr
}
