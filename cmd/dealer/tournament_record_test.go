package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	pb "github.com/tablegames/ats/proto/ats/table/v1"
)

// recordOf is a tournament's record as the table returns it, for the print's tests.
func recordOf() *pb.Tournament {
	return &pb.Tournament{Terms: &pb.TournamentTerms{Id: "CUP", Terms: "T&C", Rounds: 2, Minimums: []int64{100}, Prizes: []int64{100}},
		Status: pb.TournamentStatus_TOURNAMENT_STATUS_RUNNING, Round: 2, Played: 1,
		Rounds: []*pb.TournamentRound{
			{N: 1, RoundId: "R000001", Invalidated: "brawl at the table", Plays: []*pb.TournamentPlay{
				{TerminalId: "T1", Staked: 300, Returned: 300, Chips: 1000, Wagers: "red x300"}}},
			{N: 1, RoundId: "R000002", Outcome: "32", Plays: []*pb.TournamentPlay{
				{TerminalId: "T1", Staked: 100, Returned: 200, Chips: 1100, Wagers: "red x100"},
				{TerminalId: "T2", Chips: 1000, Result: "void: terminal lost",
					Decision: "pass card granted by supervisor:TD at 2026-11-22T20:01:00Z: fault confirmed"}}}},
		Standings: []*pb.TournamentStanding{{TerminalId: "T1", Rank: 1, Chips: 1100, State: "playing"}}}
}

// The results print keeps what the record holds (issue 33 point 5): an invalidated round with
// its wagers and why, and a void play as void, with the Director's decision on it, never as
// "pass card".
func TestTournamentResultsPrintInvalidatedRoundAndVoidPlay(t *testing.T) {
	var out bytes.Buffer
	if err := printResults(&out, recordOf()); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{
		"Round 1 (R000001)  INVALIDATED: brawl at the table  every wager returned, not counted",
		"T1    3       3         10     red x300",
		"void: terminal lost; pass card granted by supervisor:TD at 2026-11-22T20:01:00Z: fault confirmed",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the print lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "10             pass card") {
		t.Errorf("a void play printed as a pass card:\n%s", got)
	}
}

// `tournament pass` needs the seat, the round and a reason; it reaches no table without them.
func TestTournamentPassCommandArguments(t *testing.T) {
	for _, args := range [][]string{{"pass"}, {"pass", "T1"}, {"pass", "T1", "x", "why"}, {"pass", "T1", "0", "why"}, {"pass", "T1", "2"}} {
		var out bytes.Buffer
		err := tournamentCommand(context.Background(), nil, args, &out)
		if err == nil || !strings.Contains(err.Error(), "SEAT ROUND REASON") {
			t.Errorf("%v: %v", args, err)
		}
	}
}

// A cancelled tournament's print shows the prize pool and each entry fee owed back, by seat
// (003 §10.3.4), never "prize pool 0.00".
func TestTournamentCancelledPrintListsRefunds(t *testing.T) {
	tr := &pb.Tournament{Terms: &pb.TournamentTerms{Id: "CUP", Terms: "T&C", EntryFee: 5000, AddedPrize: 5000, Rounds: 2, Minimums: []int64{100}, Prizes: []int64{100}},
		Status: pb.TournamentStatus_TOURNAMENT_STATUS_CANCELLED, PrizePool: 15000, Note: "too few players",
		Standings: []*pb.TournamentStanding{{TerminalId: "T1", Chips: 1000, State: "playing", Refund: 5000},
			{TerminalId: "T2", Chips: 1000, State: "playing", Refund: 5000}}}
	var out bytes.Buffer
	if err := printResults(&out, tr); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{"prize pool 150.00", "Entry fees owed back (003 §10.3.4)", "  T1     50.00", "  T2     50.00", "  Total  100.00"} {
		if !strings.Contains(got, want) {
			t.Errorf("the print lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "Final places") {
		t.Errorf("a cancelled tournament printed places:\n%s", got)
	}
}

// A playoff round is numbered within the playoff (003 §10.10.3), never "Round 4 of 3" (issue
// 33 point 9): in the standings, the status line and the results print.
func TestTournamentPlayoffRoundsAreNumberedInThePlayoff(t *testing.T) {
	tr := recordOf()
	tr.Status, tr.Round, tr.Played = pb.TournamentStatus_TOURNAMENT_STATUS_PLAYOFF, 3, 2
	tr.Rounds = append(tr.Rounds, &pb.TournamentRound{N: 3, RoundId: "R000004", Outcome: "7", Playoff: true})
	var out bytes.Buffer
	if err := printStandings(&out, tr); err != nil {
		t.Fatal(err)
	}
	if s := out.String(); !strings.Contains(s, "Playoff round 1 (after 2 rounds)  minimum 1") || strings.Contains(s, "of 2") {
		t.Errorf("standings:\n%s", s)
	}
	out.Reset()
	if err := printResults(&out, tr); err != nil {
		t.Fatal(err)
	}
	if s := out.String(); !strings.Contains(s, "Playoff round 1 (R000004)  outcome 7") {
		t.Errorf("results:\n%s", s)
	}
	if l := tournamentLine(tr); l != "TOURNAMENT CUP: playoff round 1 (after 2 rounds), playoff" {
		t.Errorf("status line %q", l)
	}
}

// Issue 32 point 16: the console, the printed results and the player's screen say the same
// count of tournament chips. The screen counts them in the chip tray's units (100 = a 1 chip:
// 100000 reads "1,000", a minimum of 1000 reads "10"); the console printed the hundredths
// ("100000", "minimum 1000"), so a player and the Director read counts a hundred times apart.
func TestTournamentChipsReadTheSameOnConsoleAndScreen(t *testing.T) {
	tr := &pb.Tournament{Terms: &pb.TournamentTerms{Id: "SPRING-1", Terms: "T&C", StartingChips: 100000, Rounds: 3,
		Minimums: []int64{1000, 1000, 2000}, Maximum: 50000, Prizes: []int64{100}},
		Status: pb.TournamentStatus_TOURNAMENT_STATUS_RUNNING, Round: 1,
		Standings: []*pb.TournamentStanding{{TerminalId: "T02", Rank: 1, Chips: 100000, State: "playing", RoundStake: 2500}}}
	var out bytes.Buffer
	if err := printStandings(&out, tr); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	for _, want := range []string{"minimum 10  maximum 500", "T02   1,000  playing  25"} {
		if !strings.Contains(s, want) {
			t.Errorf("standings lack %q:\n%s", want, s)
		}
	}
	out.Reset()
	if err := printResults(&out, tr); err != nil {
		t.Fatal(err)
	}
	if s := out.String(); !strings.Contains(s, "Starting chips 1,000  rounds 3  minimums 10, 10, 20  maximum 500") {
		t.Errorf("the printed terms:\n%s", s)
	}
}
