package app

import (
	"strings"
	"testing"
	"time"

	"github.com/tablegames/ats/app/table"
)

// Issue 32 point 16: what the tournament player reads on their own screen, on a fake table.

// tournamentHarness is a terminal "T02" at a table running a tournament of 1,000 chips each
// (100000 in the chip tray's units), minimum 10 (1000) in round 1, one undisclosed wager and one
// pass card each; the table's chips are 1, 5 and 25.
func tournamentHarness(t *testing.T) (*harness, *table.Tournament) {
	h := startHarness(t, nil)
	tr := &table.Tournament{
		Terms: table.TournamentTerms{ID: "SPRING-1", Name: "Spring Cup", Terms: "T&C", StartingChips: 100000, Rounds: 3,
			Minimums: []int64{1000}, SecretWagers: 1, PassCards: 1, Prizes: []int64{60, 40}},
		Status: table.TournamentRunning, Round: 1, PrizePool: 10000,
		Standings: []table.TournamentStanding{
			{Terminal: "T01", Rank: 1, Chips: 100000, State: table.PlayerPlaying, SecretsLeft: 1, PassesLeft: 1},
			{Terminal: "T02", Rank: 1, Chips: 100000, State: table.PlayerPlaying, SecretsLeft: 1, PassesLeft: 1},
		},
	}
	h.link.Push(table.Snapshot{
		TerminalID: "T02",
		Config:     table.TableConfig{Layout: layout, Chips: []int64{100, 500, 2500}},
		Phase:      table.PhaseWagering, RoundID: "R1",
		Deadline: h.clk.Now().Add(2 * time.Second).Add(30 * time.Second),
		Limits:   limits, Balance: 10000, AccountOpen: true, Tournament: tr,
	})
	h.waitFor(func(v View) bool { return v.RoundID == "R1" && v.Tournament.Playing })
	return h, tr
}

// A chip below the round's minimum can never be placed (001 §4.3.1: no chips appear for a
// wager below the minimum, and every wager is in units of the minimum, 003 §10.6.14): the tray
// does not offer it, and the chosen chip is one that can be placed. Out of the tournament the
// table's chips are all offered again.
func TestTournamentChipsBelowTheMinimumAreNotOffered(t *testing.T) {
	h, tr := tournamentHarness(t)
	v := h.term.View()
	if len(v.Chips) != 1 || v.Chips[0] != 2500 || v.Chip != 2500 {
		t.Fatalf("minimum 1000: the tray offers %v, chosen %d; want [2500], 2500", v.Chips, v.Chip)
	}
	over := *tr
	over.Status = table.TournamentFinished
	h.link.Push(table.TournamentChanged{Tournament: &over})
	v = h.waitFor(func(v View) bool { return v.Tournament.Status == table.TournamentFinished })
	if len(v.Chips) != 3 {
		t.Fatalf("after the tournament the tray offers %v, want the table's three chips", v.Chips)
	}
}

// 003 §10.7: a pass card played in lieu of a wager is shown to the player who had it, with the
// round, until a later round settles.
func TestTournamentPassCardUsedIsShown(t *testing.T) {
	h, tr := tournamentHarness(t)
	next := *tr
	next.Round, next.Played = 2, 1
	next.Standings = append([]table.TournamentStanding(nil), tr.Standings...)
	next.Standings[1].PassesLeft = 0
	h.link.Push(table.TournamentChanged{Tournament: &next})
	v := h.waitFor(func(v View) bool { return v.Tournament.Played == 1 })
	if v.Tournament.PassUsed != 1 {
		t.Fatalf("a pass card played for round 1: PassUsed %d", v.Tournament.PassUsed)
	}
	later := next
	later.Round, later.Played = 3, 2
	h.link.Push(table.TournamentChanged{Tournament: &later})
	v = h.waitFor(func(v View) bool { return v.Tournament.Played == 2 })
	if v.Tournament.PassUsed != 0 {
		t.Fatalf("a round later the pass is still shown: %d", v.Tournament.PassUsed)
	}
}

// The undisclosed-wager box that cannot be ticked says why (issue 32 point 16): after the
// period ends, and with none left.
func TestTournamentUndisclosedBoxSaysWhyItCannotBeTicked(t *testing.T) {
	h, tr := tournamentHarness(t)
	if v := h.term.View(); !v.Tournament.SecretWhy.IsZero() {
		t.Fatalf("while the period is open the box is refused: %q", v.Tournament.SecretWhy)
	}
	h.link.Push(table.PhaseChanged{Phase: table.PhaseNoMoreBets, RoundID: "R1"})
	v := h.waitFor(func(v View) bool { return v.Phase == table.PhaseNoMoreBets })
	if !strings.Contains(v.Tournament.SecretWhy.String(), "o more bets") {
		t.Fatalf("no more bets: the box's reason is %q", v.Tournament.SecretWhy)
	}
	none := *tr
	none.Standings = append([]table.TournamentStanding(nil), tr.Standings...)
	none.Standings[1].SecretsLeft = 0
	h.link.Push(table.TournamentChanged{Tournament: &none})
	h.link.Push(table.PhaseChanged{Phase: table.PhaseWagering, RoundID: "R2", Deadline: h.link.ServerNow().Add(30 * time.Second)})
	v = h.waitFor(func(v View) bool { return v.RoundID == "R2" })
	if v.Tournament.SecretWhy.String() != ErrNoSecretLeft.Error() {
		t.Fatalf("none left: the box's reason is %q", v.Tournament.SecretWhy)
	}
}

// The console's results give T02 second place and a prize; the player's own screen says so,
// on the message line too, even though T02 was eliminated before the end (issue 32 point 16).
func TestTournamentPrizeIsToldToAnEliminatedPlayer(t *testing.T) {
	h, tr := tournamentHarness(t)
	over := *tr
	over.Status, over.Played = table.TournamentFinished, 3
	over.Standings = []table.TournamentStanding{
		{Terminal: "T01", Rank: 1, Chips: 250000, State: table.PlayerPlaying, Prize: 6000},
		{Terminal: "T02", Rank: 2, Chips: 0, State: table.PlayerEliminated, Eliminated: 2, Prize: 4500},
	}
	h.link.Push(table.TournamentChanged{Tournament: &over})
	v := h.waitFor(func(v View) bool { return v.Tournament.Status == table.TournamentFinished })
	if s := v.Message.String(); !strings.Contains(s, "place 2") || !strings.Contains(s, "45.00") {
		t.Fatalf("the message line says %q, want the place and the prize", s)
	}
}
