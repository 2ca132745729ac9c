package station_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/tablegames/ats/app"
	"github.com/tablegames/ats/app/msg"
	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/station"
	"github.com/tablegames/ats/app/table"
	"github.com/tablegames/ats/client"
	"github.com/tablegames/ats/internal/testwait"
	"github.com/tablegames/ats/server/pki"
)

// An order of wagering (003 §10.9) played on the kiosks' terminals (stations over mutual TLS
// to the real table server). Terms: 1000 chips each, 2 rounds, minimum 100, one pass card each;
// seats entered T01, T02, T03, so the marker starts on T01 and "to the left" is T02 then T03.
// Worked by hand (17 is black):
//
//	round 1, marker T01: T02's touch refused ("wait your turn: T01 wagers now"); T01 puts
//	        100 + 100 on red — kept on the screen, not sent — then ends the turn: the table takes
//	        200, T02's turn; T01's further touches refused (§10.9.5). T02 ends its turn with
//	        nothing: a pass card. T03 black 100, ends its turn. 17: T01 800, T02 1000, T03 1100.
//	round 2, marker T02: T02 may not pass (no pass card left) and never wagers: disqualified
//	        (003 §10.6.4); T03 and T01, never reached, keep their chips and places.
//
// Final: T03 1st (1100), T01 2nd (800), T02 disqualified.
func TestRule003_10_9_OrderOfWageringOnTheTerminals(t *testing.T) {
	dir := t.TempDir()
	tbl, m, addr := tournamentTable(t, dir)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ids := []string{"T01", "T02", "T03"}
	sts := map[string]*station.Station{}
	for _, id := range ids {
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
			t.Fatalf("%s: never %s: %+v", id, what, v.Tournament)
		}
		return v
	}
	for _, id := range ids {
		wait(id, "had the table's snapshot", func(v app.View) bool { return v.Connected && v.Config.Layout.Wheel != 0 })
	}
	terms := table.TournamentTerms{ID: "ORDER-K", Terms: "Order of wagering; one pass card.", StartingChips: 1000, Rounds: 2, Minimums: []int64{100}, PassCards: 1,
		Prizes: []int64{100}, OrderOfWagering: true}
	if _, err := tbl.ConfigureTournament("supervisor:TD", terms); err != nil {
		t.Fatal(err)
	}
	if _, err := tbl.OpenTournament("supervisor:TD", ids); err != nil {
		t.Fatal(err)
	}
	layout := wait("T01", "seen the tournament open", func(v app.View) bool { return v.Tournament.Tournament != nil }).Config.Layout
	outside := func(k roulette.Kind) roulette.Bet {
		s, err := layout.Outside(k, 0)
		if err != nil {
			t.Fatal(err)
		}
		return roulette.Bet{Spot: s}
	}
	myTurn := func(id string) {
		t.Helper()
		wait(id, "had its turn", func(v app.View) bool { return v.Tournament.MyTurn && v.Tournament.Turn == id })
	}
	start := func(n int) string {
		t.Helper()
		st, err := tbl.StartRound("dealer:D1")
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range ids {
			wait(id, "seen the round open", func(v app.View) bool {
				return v.RoundID == st.RoundId && v.Phase == table.PhaseWagering && v.Tournament.Round == n
			})
		}
		return st.RoundId
	}
	spin := func(round, outcome string) {
		t.Helper()
		if _, err := tbl.BallDropping("dealer:D1", round); err != nil {
			t.Fatal(err)
		}
		if _, err := tbl.EnterOutcome("dealer:D1", round, outcome); err != nil {
			t.Fatal(err)
		}
	}

	// Round 1.
	r1 := start(1)
	myTurn("T01")
	if v := sts["T01"].Terminal.View(); v.Tournament.Marker != "T01" {
		t.Fatalf("marker in round 1: %q", v.Tournament.Marker)
	}
	_, err := sts["T02"].Terminal.Place(outside(roulette.Red))
	if m := msg.Of(err); m.Key != "wait your turn: %s wagers now" || len(m.Args) != 1 || m.Args[0] != "T01" {
		t.Fatalf("T02's touch out of turn: %v", err)
	}
	for i := range int64(2) {
		sts["T01"].Terminal.SelectChip(100)
		if fb, err := sts["T01"].Terminal.Place(outside(roulette.Red)); err != nil || fb.Accepted != 100*(i+1) {
			t.Fatalf("T01's touch in turn: %+v %v", fb, err)
		}
	}
	// Kept on the screen until the turn ends: the table has no wager from T01 yet.
	time.Sleep(100 * time.Millisecond)
	if tr, _ := tbl.Tournament(""); tr.Turn != "T01" || tr.Standing("T01").RoundStake != 0 || sts["T01"].Terminal.View().Acked {
		t.Fatalf("T01's chips sent before its turn ended: turn %q, %+v", tr.Turn, tr.Standing("T01"))
	}
	if err := sts["T01"].Terminal.EndTurn(); err != nil {
		t.Fatal(err)
	}
	myTurn("T02")
	v := wait("T01", "had its wager taken", func(v app.View) bool {
		return v.Acked && v.Tournament.Me != nil && v.Tournament.Me.WageredInTurn && v.Tournament.Me.RoundStake == 200
	})
	if v.Tournament.MyTurn {
		t.Fatal("T01's turn after it ended")
	}
	if _, err := sts["T01"].Terminal.Place(outside(roulette.Black)); !errors.Is(err, app.ErrWageredInTurn) {
		t.Fatalf("T01 altering its wager: %v", err)
	}
	if err := sts["T01"].Terminal.Clear(); !errors.Is(err, app.ErrWageredInTurn) {
		t.Fatalf("T01 removing its wager: %v", err)
	}
	if err := sts["T02"].Terminal.EndTurn(); err != nil { // a pass card
		t.Fatal(err)
	}
	myTurn("T03")
	sts["T03"].Terminal.SelectChip(100)
	if _, err := sts["T03"].Terminal.Place(outside(roulette.Black)); err != nil {
		t.Fatal(err)
	}
	if err := sts["T03"].Terminal.EndTurn(); err != nil {
		t.Fatal(err)
	}
	wait("T01", "seen every turn taken", func(v app.View) bool {
		s := v.Tournament.Standing("T03")
		return v.Tournament.Turn == "" && s != nil && s.WageredInTurn
	})
	spin(r1, "17")
	v = wait("T01", "seen round 1 settled", func(v app.View) bool { return v.Tournament.Played == 1 })
	for id, chips := range map[string]int64{"T01": 800, "T02": 1000, "T03": 1100} {
		if s := v.Tournament.Standing(id); s.Chips != chips {
			t.Fatalf("after round 1, %s: %+v, want %d chips", id, s, chips)
		}
	}
	if v.Tournament.Marker != "T02" || v.Tournament.Standing("T02").PassesLeft != 0 {
		t.Fatalf("after round 1: marker %q, T02 %+v", v.Tournament.Marker, v.Tournament.Standing("T02"))
	}

	// Round 2: the marker on T02, which has no pass card left and never wagers.
	r2 := start(2)
	myTurn("T02")
	if err := sts["T02"].Terminal.EndTurn(); !errors.Is(err, app.ErrNoPassLeft) {
		t.Fatalf("a pass without a pass card: %v", err)
	}
	_, err = sts["T03"].Terminal.Place(outside(roulette.Red))
	if m := msg.Of(err); m.Key != "wait your turn: %s wagers now" || m.Args[0] != "T02" {
		t.Fatalf("T03 out of turn: %v", err)
	}
	spin(r2, "17")
	v = wait("T03", "seen the tournament finished", func(v app.View) bool { return v.Tournament.Status == table.TournamentFinished })
	if s := v.Tournament.Standing("T02"); s.State != table.PlayerDisqualified {
		t.Fatalf("T02 had the turn and never wagered: %+v", s)
	}
	if me, t1 := v.Tournament.Me, v.Tournament.Standing("T01"); me.Rank != 1 || me.Chips != 1100 || t1.Rank != 2 || t1.State != table.PlayerPlaying {
		t.Fatalf("final: T03 %+v, T01 %+v", me, t1)
	}
}
