package ui

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
	"github.com/tablegames/ats/diagrams"
	"github.com/tablegames/ats/internal/testwait"
)

// tournamentTerms are the screens' tournament: 1,000 chips each, 3 rounds at minimums 10, 10,
// 20 and a maximum of 500 a round (chip units, as the tray's), one undisclosed wager each.
var tournamentTerms = table.TournamentTerms{ID: "SPRING-1", Name: "Spring Cup", EntryFee: 5000, AddedPrize: 5000,
	StartingChips: 100000, Rounds: 3, Minimums: []int64{1000, 1000, 2000}, Maximum: 50000, SecretWagers: 1,
	Prizes: []int64{60, 30, 10}}

// tournamentCase is a tournament state on Diagram A: the table's tournament and this seat's
// snapshot of it.
type tournamentCase struct {
	name string
	size fyne.Size
	snap func(t *testing.T, l roulette.Layout) table.Snapshot
	must []string      // what the screen must show
	then []table.Event // what the table says after the snapshot
}

func tournamentCases() []tournamentCase {
	round := []table.TournamentStanding{
		{Terminal: "T01", Rank: 1, Chips: 420000, State: table.PlayerPlaying, SecretsLeft: 1},
		{Terminal: "T02", Rank: 2, Chips: 130000, State: table.PlayerPlaying, Secret: true},
		{Terminal: "T03", Rank: 3, Chips: 120000, State: table.PlayerPlaying, RoundStake: 20000, SecretsLeft: 1},
		{Terminal: "T05", Rank: 4, Chips: 10000, State: table.PlayerEliminated, Eliminated: 2, SecretsLeft: 1},
		{Terminal: "T04", Chips: 100000, State: table.PlayerDisqualified, Eliminated: 2, SecretsLeft: 1},
	}
	tour := func(status table.TournamentStatus, round int, st []table.TournamentStanding) *table.Tournament {
		return &table.Tournament{Terms: tournamentTerms, Status: status, Round: round, Played: round - 1, RoundID: "R42",
			PrizePool: 30000, Standings: st}
	}
	snap := func(phase table.Phase, tr *table.Tournament, slip bool) func(t *testing.T, l roulette.Layout) table.Snapshot {
		return func(t *testing.T, l roulette.Layout) table.Snapshot {
			s := tableSnap(l, phase)
			s.Balance, s.AccountOpen, s.Tournament = 0, false, tr
			if slip {
				s.Slip = ackedSlip(t, l, "R42", inside(t, l, roulette.Straight, 1000, 17), outside(t, l, roulette.Red, 0, 5000))
			}
			return s
		}
	}
	// Round 2 of 3, wagering, 12 s left: T01 has 60 on the layout; T02's wager is undisclosed.
	// The scheduled rounds over, T02 and T03 tied on 1,300 play off for 2nd.
	playoff := []table.TournamentStanding{
		{Terminal: "T01", Rank: 1, Chips: 370000, State: table.PlayerPlaying, Secret: false},
		{Terminal: "T02", Rank: 2, Chips: 130000, State: table.PlayerPlaying, InPlayoff: true},
		{Terminal: "T03", Rank: 2, Chips: 130000, State: table.PlayerPlaying, InPlayoff: true, SecretsLeft: 1},
		{Terminal: "T05", Rank: 4, Chips: 10000, State: table.PlayerEliminated, Eliminated: 2},
		{Terminal: "T04", Chips: 100000, State: table.PlayerDisqualified, Eliminated: 2},
	}
	final := []table.TournamentStanding{
		{Terminal: "T01", Rank: 1, Chips: 370000, State: table.PlayerPlaying, Prize: 18000},
		{Terminal: "T02", Rank: 2, Chips: 150000, State: table.PlayerPlaying, Prize: 9000},
		{Terminal: "T03", Rank: 3, Chips: 110000, State: table.PlayerPlaying, Prize: 3000},
		{Terminal: "T05", Rank: 4, Chips: 10000, State: table.PlayerEliminated, Eliminated: 2},
		{Terminal: "T04", Chips: 100000, State: table.PlayerDisqualified, Eliminated: 2},
	}
	finalOut := append([]table.TournamentStanding(nil), final...)
	finalOut[1].State, finalOut[1].Eliminated = table.PlayerEliminated, 2
	passed := func(left int) []table.TournamentStanding {
		st := append([]table.TournamentStanding(nil), round...)
		st[0].PassesLeft = left
		return st
	}
	asSeat := func(id string, f func(*testing.T, roulette.Layout) table.Snapshot) func(*testing.T, roulette.Layout) table.Snapshot {
		return func(t *testing.T, l roulette.Layout) table.Snapshot {
			s := f(t, l)
			s.TerminalID = id
			return s
		}
	}
	// An order of wagering (003 §10.9): the marker on T02's box, T02 has wagered (undisclosed),
	// T03's turn; T01 and T05 wait.
	ordered := func(turn string) *table.Tournament {
		st := append([]table.TournamentStanding(nil), round...)
		st[1].WageredInTurn = true
		st[2].RoundStake, st[2].PassesLeft = 0, 1
		tr := tour(table.TournamentRunning, 2, st)
		tr.Terms.OrderOfWagering, tr.Marker, tr.Turn = true, "T02", turn
		return tr
	}
	big, small := fyne.NewSize(1920, 1080), fyne.NewSize(1280, 800)
	return []tournamentCase{
		{"tournament_round", big, snap(table.PhaseWagering, tour(table.TournamentRunning, 2, round), true),
			[]string{"TOURNAMENT · Spring Cup", "ROUND 2 OF 3", "4,200", "BET 60", "Minimum 10 · maximum 500", "undisclosed", "Undisclosed wager (1 left)", "bet 200", "out", "DQ"}, nil},
		{"tournament_round_1280", small, snap(table.PhaseWagering, tour(table.TournamentRunning, 2, round), true),
			[]string{"ROUND 2 OF 3", "4,200"}, nil},
		{"tournament_playoff", big, asSeat("T03", snap(table.PhaseWagering, tour(table.TournamentPlayoff, 4, playoff), false)),
			[]string{"PLAYOFF · ROUND 1", "1,300", "playoff", "Minimum 20"}, nil},
		{"tournament_eliminated", big, asSeat("T05", snap(table.PhaseWagering, tour(table.TournamentRunning, 3, round), false)),
			[]string{"ROUND 3 OF 3", "Eliminated", "100", "out", "Minimum 20 · maximum 500"}, nil},
		{"tournament_not_seated", big, asSeat("T09", snap(table.PhaseWagering, tour(table.TournamentRunning, 2, round), false)),
			[]string{"This table is reserved for the tournament", "T01", "4,200"}, nil},
		{"tournament_turn", big, asSeat("T03", snap(table.PhaseWagering, ordered("T03"), true)),
			[]string{"YOUR TURN TO WAGER", "END TURN", "M", "to wager", "BET 60"}, nil},
		{"tournament_wait", big, snap(table.PhaseWagering, ordered("T03"), false),
			[]string{"Wait your turn: T03 wagers now", "M", "to wager"}, nil},
		{"tournament_final", big, asSeat("T02", snap(table.PhaseResult, &table.Tournament{Terms: tournamentTerms,
			Status: table.TournamentFinished, Round: 4, Played: 4, PrizePool: 30000, Standings: final}, false)),
			[]string{"FINAL RESULTS", "Place 2 · prize 90.00", "180.00", "Prize pool 300.00"}, nil},
		// Issue 32 point 16: T02 went out in round 2 yet placed second on the final count; the
		// console gave the prize, the screen said only "Eliminated".
		{"tournament_final_eliminated", big, asSeat("T02", snap(table.PhaseResult, &table.Tournament{Terms: tournamentTerms,
			Status: table.TournamentFinished, Round: 4, Played: 3, PrizePool: 30000, Standings: finalOut}, false)),
			[]string{"FINAL RESULTS", "Place 2 · prize 90.00", "90.00"}, nil},
		// The undisclosed-wager box after the period ended: greyed, and why beneath it.
		{"tournament_secret_closed", big, snap(table.PhaseNoMoreBets, tour(table.TournamentRunning, 2, round), true),
			[]string{"Undisclosed wager (1 left)", "No more bets: the wagering period has ended"}, nil},
		// The table played T01's pass card for round 1 (it wagered nothing): the panel says so.
		{"tournament_pass_used", big, snap(table.PhaseWagering, tour(table.TournamentRunning, 1, passed(1)), false),
			[]string{"Pass card used for round 1 (0 left)"}, []table.Event{table.TournamentChanged{Tournament: tour(table.TournamentRunning, 2, passed(0))}}},
	}
}

// The tournament states of the kiosk (round n of N with the player's chips, wager, the round's
// limits, the standings with an undisclosed wager; the playoff; a seat not in the tournament;
// the final places and prizes), each matched against its golden markup and render in
// testdata/tournament (-update rewrites them: look at the PNGs).
func TestTournamentScreens(t *testing.T) {
	test.NewTempApp(t)
	fyne.CurrentApp().Settings().SetTheme(darkTheme{theme.DefaultTheme()})
	if T("BALANCE") != "BALANCE" {
		t.Skip("the tournament screens are in English; run with LANG=en_US.UTF-8 (or unset)")
	}
	update := *updateReference || os.Getenv("UPDATE_REFERENCE") == "1"
	single := roulette.Layout{Wheel: roulette.SingleZero}
	for _, c := range tournamentCases() {
		t.Run(c.name, func(t *testing.T) {
			sc := stateCase{file: c.name, design: diagrams.DiagramA, layout: single,
				events: func(t *testing.T, l roulette.Layout) []table.Event {
					return append([]table.Event{up, c.snap(t, l)}, c.then...)
				}}
			_, w := stateScreen(t, sc)
			w.Resize(c.size)
			texts := shownTexts(test.RenderToMarkup(w.Canvas()))
			for _, want := range c.must {
				if !shows(texts, want) {
					t.Errorf("%s does not show %q (shows %q)", c.name, want, texts)
				}
			}
			assertMarkup(t, filepath.Join("tournament", c.name+".xml"), w.Canvas())
			got := w.Canvas().Capture()
			path := filepath.Join("testdata", "tournament", c.name+".png")
			if update {
				writeReference(t, path, got)
				return
			}
			want, err := readPNG(path)
			if err != nil {
				t.Fatalf("%v\nregenerate with: go test ./ui -run TestTournamentScreens -update", err)
			}
			if msg := compareImages(got, want, referenceTolerance); msg != "" {
				writeReference(t, filepath.Join("testdata", "failed", "tournament", c.name+".png"), got)
				t.Errorf("%s is stale: %s", path, msg)
			}
		})
	}
}

// The order of wagering on the screen (003 §10.9): the player whose turn it is places chips,
// which stay on the screen (nothing is sent), then touches END TURN: the slip goes to the table
// once, and a further touch is refused with the reason on the message line. A seat whose turn
// it is not is refused on the touch, told whose turn it is.
func TestTournamentEndTurnOnTheScreen(t *testing.T) {
	test.NewTempApp(t)
	if T("BALANCE") != "BALANCE" {
		t.Skip("in English; run with LANG=en_US.UTF-8 (or unset)")
	}
	l := roulette.Layout{Wheel: roulette.SingleZero}
	s, term, link, _ := screenAt(t, diagrams.DiagramA, l, fyne.NewSize(1920, 1080))
	st := []table.TournamentStanding{
		{Terminal: "T01", Rank: 1, Chips: 100000, State: table.PlayerPlaying},
		{Terminal: "T02", Rank: 1, Chips: 100000, State: table.PlayerPlaying, WageredInTurn: true, RoundStake: 1000},
		{Terminal: "T03", Rank: 1, Chips: 100000, State: table.PlayerPlaying},
	}
	tr := &table.Tournament{Terms: tournamentTerms, Status: table.TournamentRunning, Round: 1, RoundID: "R42", Standings: st}
	tr.Terms.OrderOfWagering, tr.Marker, tr.Turn = true, "T02", "T03"
	seat := func(id string) {
		t.Helper()
		snap := tableSnap(l, table.PhaseWagering)
		snap.TerminalID, snap.Balance, snap.AccountOpen, snap.Tournament = id, 0, false, tr
		link.Push(snap)
		if !testwait.For(5*time.Second, func() bool {
			v := term.View()
			return v.RoundID == "R42" && v.Tournament.Me != nil && v.Tournament.Me.Terminal == id
		}) {
			t.Fatalf("never seated as %s", id)
		}
	}
	red, err := l.Outside(roulette.Red, 0)
	if err != nil {
		t.Fatal(err)
	}

	seat("T01") // T03's turn, not T01's
	term.SelectChip(1000)
	if _, err := term.Place(roulette.Bet{Spot: red}); err == nil {
		t.Fatal("T01 placed out of turn")
	}
	if got := shown(s); got != "Wait your turn: T03 wagers now" {
		t.Fatalf("out of turn the screen says %q", got)
	}

	seat("T03")
	if !term.View().Tournament.MyTurn {
		t.Fatal("T03's turn not seen")
	}
	term.SelectChip(1000) // a chip of the minimum (the table's new state chose the tray's smallest offered)
	if fb, err := term.Place(roulette.Bet{Spot: red}); err != nil || fb.Accepted != 1000 {
		t.Fatalf("T03's touch in turn: %+v %v", fb, err)
	}
	if err := link.WaitSlip(100 * time.Millisecond); err == nil {
		t.Fatal("the chips went to the table before the turn ended")
	}
	shown(s) // the panel drawn for the view: END TURN offered
	test.Tap(findButton(t, s.Content(), "END TURN"))
	if err := link.WaitSlip(5 * time.Second); err != nil {
		t.Fatal(err)
	}
	if sent, _ := link.LastSlip(); len(sent.Bets) != 1 || sent.Bets[0].Amount != 1000 || sent.Round != "R42" {
		t.Fatalf("the turn's slip: %+v", sent)
	}
	if _, err := term.Place(roulette.Bet{Spot: red}); err == nil {
		t.Fatal("a wager made in turn was altered")
	}
	if got := shown(s); got != "Your wager was made in turn: it may not be removed or altered" {
		t.Fatalf("after the turn the screen says %q", got)
	}
}
