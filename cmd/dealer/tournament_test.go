package main

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tablegames/ats/app/roulette"
	pb "github.com/tablegames/ats/proto/ats/table/v1"
	"github.com/tablegames/ats/server"
	"github.com/tablegames/ats/server/pki"
)

var update = flag.Bool("update", false, "rewrite the golden print of the tournament results")

// A tournament run from the console's commands against a real table over mutual TLS: the
// Director configures and opens it, the dealer deals two rounds (the players' slips go to the
// table as a terminal's would), standings print, and the results print as the operator keeps
// them (testdata/results.txt, checked line by line). Worked by hand: 2 rounds, minimum 100,
// 500 chips each, entry 20.00, pool 3 × 2000 = 6000, prizes 70/30.
//
//	round 1, 17:  T1 straight 17 100 → 500−100+3600 = 4000;  T2 red 200 → 300;  T3 black 100 → 600
//	round 2, 2:   T1 red 100 → 3900;  T2 even 300 → 600;  T3 odd 100 → 500
//
// Places: T1 3900 (42.00), T2 600 (18.00), T3 500.
func TestTournamentCommands(t *testing.T) {
	lt := newLiveTable(t, server.DefaultConfig())
	tbl := lt.Table
	client := func(role, id string) pb.DealerServiceClient {
		return lt.dealer(role, id)
	}
	director, dealer := client(pki.RoleSupervisor, "TD1"), client(pki.RoleDealer, "D1")
	for _, id := range []string{"T1", "T2", "T3"} {
		if err := tbl.RegisterTerminal(id); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	terms := filepath.Join(t.TempDir(), "terms.txt")
	os.WriteFile(terms, []byte("Entry 20.00. Two rounds.\nDecisions of the Tournament Director are final."), 0o644)
	var out bytes.Buffer
	do := func(d pb.DealerServiceClient, args ...string) string {
		t.Helper()
		out.Reset()
		if err := tournamentCommand(ctx, d, args, &out); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		return out.String()
	}
	if err := tournamentCommand(ctx, dealer, []string{"configure", "-id", "X"}, &out); err == nil || !strings.Contains(err.Error(), "PermissionDenied") {
		t.Fatalf("the dealer configured a tournament: %v", err)
	}
	if err := tournamentCommand(ctx, director, []string{"configure", "-id", "CUP", "-min", "1,x"}, &out); err == nil {
		t.Fatal("a bad minimum was taken")
	}
	do(director, "configure", "-id", "CUP-7", "-name", "Tuesday Cup", "-terms-file", terms, "-entry", "2000",
		"-chips", "500", "-rounds", "2", "-min", "100", "-max", "300", "-prizes", "70,30", "-players", "2-6")
	s := do(director, "open", "T1", "T2", "T3")
	if !strings.Contains(s, "Round 1 of 2  minimum 1  maximum 3  prize pool 60.00") {
		t.Fatalf("standings after open:\n%s", s)
	}
	if _, err := command(ctx, dealer, []string{"open"}); err != nil {
		t.Fatal(err)
	}
	bet := func(name string, nums ...string) roulette.BetSpec { return roulette.BetSpec{Name: name, Numbers: nums} }
	for _, round := range []struct {
		outcome string
		slips   map[string]server.SlipWager
	}{
		{"17", map[string]server.SlipWager{"T1": {Spec: bet("straight", "17"), Amount: 100}, "T2": {Spec: bet("red"), Amount: 200}, "T3": {Spec: bet("black"), Amount: 100}}},
		{"2", map[string]server.SlipWager{"T1": {Spec: bet("red"), Amount: 100}, "T2": {Spec: bet("even"), Amount: 300}, "T3": {Spec: bet("odd"), Amount: 100}}},
	} {
		st, err := dealer.StartRound(ctx, &pb.StartRoundRequest{})
		if err != nil {
			t.Fatal(err)
		}
		for id, w := range round.slips {
			if _, err := tbl.UpdateSlip(id, st.RoundId, 1, []server.SlipWager{w}); err != nil {
				t.Fatalf("%s: %v", id, err)
			}
		}
		if s := do(dealer, "standings"); !strings.Contains(s, "T2") {
			t.Fatalf("standings:\n%s", s)
		}
		if _, err := command(ctx, dealer, []string{"drop"}); err != nil {
			t.Fatal(err)
		}
		if _, err := command(ctx, dealer, []string{"outcome", round.outcome}); err != nil {
			t.Fatal(err)
		}
	}
	got := do(dealer, "results", "CUP-7")
	golden := filepath.Join("testdata", "tournament-results.txt")
	if *update {
		os.MkdirAll("testdata", 0o755)
		os.WriteFile(golden, []byte(got), 0o644)
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Fatalf("results print:\n%s\nwant:\n%s", got, want)
	}
	for _, line := range []string{"  1      T1    39     playing  42.00", "  2      T2    6      playing  18.00", "  3      T3    5      playing  0.00"} {
		if !strings.Contains(got, line) {
			t.Fatalf("results lack %q:\n%s", line, got)
		}
	}
	// Closing a finished tournament is refused; the results stay printable.
	if err := tournamentCommand(ctx, director, []string{"close"}, &out); err == nil {
		t.Fatal("closed a finished tournament")
	}
}
