package main

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/tablegames/ats/app/roulette"
	pb "github.com/tablegames/ats/proto/ats/table/v1"
	"github.com/tablegames/ats/proto/wire"
	"github.com/tablegames/ats/server"
	"github.com/tablegames/ats/server/pki"
)

// An order of wagering (003 §10.9) from the console: `tournament configure -order`, the
// standings showing the marker and whose turn it is, and `dealer status`'s tournament line.
// Three seats T1–T3 entered in that order: round 1's marker is on T1, so T1 wagers first; once
// T1's slip is taken it is T2's turn, T1 "wagered"; after round 1 the marker moves to T2.
func TestTournamentOrderOfWageringCommands(t *testing.T) {
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
	if l := tournamentStatusLine(ctx, dealer); l != "" {
		t.Fatalf("no tournament on record, yet status says %q", l)
	}
	var out bytes.Buffer
	do := func(d pb.DealerServiceClient, args ...string) string {
		t.Helper()
		out.Reset()
		if err := tournamentCommand(ctx, d, args, &out); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		return out.String()
	}
	do(director, "configure", "-id", "ORDER-2", "-terms", "Order of wagering.", "-chips", "500", "-rounds", "2", "-min", "100", "-prizes", "100", "-players", "2-6", "-order")
	if l := tournamentStatusLine(ctx, dealer); l != "TOURNAMENT ORDER-2: round 1 of 2, configured" {
		t.Fatalf("status line when configured: %q", l)
	}
	s := do(director, "open", "T1", "T2", "T3")
	if !strings.Contains(s, "Order of wagering: marker on T1\n") {
		t.Fatalf("standings after open:\n%s", s)
	}
	if _, err := command(ctx, dealer, []string{"open"}); err != nil {
		t.Fatal(err)
	}
	st, err := dealer.StartRound(ctx, &pb.StartRoundRequest{})
	if err != nil {
		t.Fatal(err)
	}
	s = do(dealer, "standings")
	if !strings.Contains(s, "Order of wagering: marker on T1, T1 to wager") || !lineWith(s, "T1", "marker, to wager") {
		t.Fatalf("standings at the start of round 1:\n%s", s)
	}
	red := server.SlipWager{Spec: roulette.BetSpec{Name: "red"}, Amount: 100}
	if _, err := tbl.UpdateSlip("T2", st.RoundId, 1, []server.SlipWager{red}); err == nil || !strings.Contains(err.Error(), "wait your turn: T1") {
		t.Fatalf("T2 out of turn: %v", err)
	}
	if _, err := tbl.UpdateSlip("T1", st.RoundId, 1, []server.SlipWager{red}); err != nil {
		t.Fatal(err)
	}
	s = do(dealer, "standings")
	if !lineWith(s, "T1", "marker, wagered") || !lineWith(s, "T2", "to wager") {
		t.Fatalf("standings after T1 wagered:\n%s", s)
	}
	if l := tournamentStatusLine(ctx, dealer); l != "TOURNAMENT ORDER-2: round 1 of 2, running; order of wagering: marker on T1, T2 to wager" {
		t.Fatalf("status line in round 1: %q", l)
	}
	for _, c := range [][]string{{"drop"}, {"outcome", "17"}} {
		if _, err := command(ctx, dealer, c); err != nil {
			t.Fatal(err)
		}
	}
	// T2 had the turn and did not wager (no pass card: disqualified); T3 was not reached.
	if l := tournamentStatusLine(ctx, dealer); l != "TOURNAMENT ORDER-2: round 2 of 2, running; order of wagering: marker on T3" {
		t.Fatalf("status line after round 1: %q", l)
	}
	r := do(dealer, "results")
	if !strings.Contains(r, "Order of wagering: the marker's player first") || !lineWith(r, "  T3", "not reached") || !lineWith(r, "  T2", "disqualified") {
		t.Fatalf("results:\n%s", r)
	}
}

// lineWith reports whether a line of s starts with prefix and contains want.
func lineWith(s, prefix, want string) bool {
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(strings.TrimLeft(l, "0123456789- "), strings.TrimLeft(prefix, " ")) && strings.Contains(l, want) {
			return true
		}
	}
	return false
}

// FuzzParseTerms: configure's flags, -order among them, never panic; what parses makes the
// wire round trip unchanged, and -order after it sets the order of wagering (a stray word,
// which once made every flag after it silently dropped, is refused).
func FuzzParseTerms(f *testing.F) {
	f.Add("-id CUP -chips 500 -rounds 2 -min 100,200 -prizes 70,30 -players 2-6 -order")
	f.Add("-id X -order=false -min 1,x")
	f.Add("-players 9-")
	f.Fuzz(func(t *testing.T, line string) {
		args := strings.Fields(line)
		terms, err := parseTerms(args)
		if err != nil {
			return
		}
		if back := wire.TournamentTermsPB(wire.TournamentTermsOf(terms)); !proto.Equal(back, terms) {
			t.Fatalf("%q: round trip %v → %v", line, terms, back)
		}
		// Every word was a flag or its value (a stray word is refused): -order added after
		// them is the order of wagering.
		if slices.Contains(args, "--") {
			return // the end of the flags: nothing after it is one
		}
		if ordered, err := parseTerms(append(args, "-order")); err != nil || !ordered.OrderOfWagering {
			t.Fatalf("%q -order: %v %v", line, ordered, err)
		}
	})
}
