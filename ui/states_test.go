package ui

import (
	"context"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tablegames/ats/app/clock/clocktest"

	"github.com/tablegames/ats/app/table"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/tablegames/ats/app"
	"github.com/tablegames/ats/app/apptest"
	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/diagrams"
)

// assertMarkup matches what the canvas draws against golden markup in testdata; with -update
// (or UPDATE_REFERENCE=1) it rewrites the golden file instead, as TestReferenceRenders does
// its PNGs. Look at the diff before committing a rewritten golden.
func assertMarkup(t *testing.T, file string, c fyne.Canvas) {
	t.Helper()
	if T("BALANCE") != "BALANCE" {
		t.Skip("the golden markup is in English; run with LANG=en_US.UTF-8 (or unset)")
	}
	if *updateReference || os.Getenv("UPDATE_REFERENCE") == "1" {
		path := filepath.Join("testdata", file)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(test.RenderToMarkup(c)), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if !test.AssertRendersToMarkup(t, file, c) {
		t.Log("if the change is intended, regenerate the golden markup with: go test ./ui -run 'TestScreenStates|TestDiagramAWagering' -update")
	}
}

// stateCase is one design in one state: the events a fake table sends (the first a connection
// up, unless the state is about the connection) and the golden markup they must draw.
type stateCase struct {
	file   string // under testdata/screens
	design diagrams.Design
	layout roulette.Layout
	events func(t *testing.T, l roulette.Layout) []table.Event
}

// tableSnap is the table as a terminal joining it sees it: round R42 in the given phase, with
// 12 s left while wagering, a balance of 1,000.00 and a run of outcomes.
func tableSnap(l roulette.Layout, phase table.Phase) table.Snapshot {
	s := table.Snapshot{TerminalID: "T01",
		Config: table.TableConfig{Layout: l, Chips: []int64{100, 500, 2500, 10000}, Warning: 5 * time.Second},
		Phase:  phase, RoundID: "R42", Limits: testLimits, Balance: 100000, AccountOpen: true,
		History: referenceHistory(l.Wheel)}
	if phase == table.PhaseWagering {
		s.Deadline = t0.Add(12 * time.Second)
	}
	if phase == table.PhaseClosed || phase == table.PhaseIdle {
		s.RoundID = ""
	}
	return s
}

// ackedSlip is the table's acknowledgement of bets as placed (a call bet's amount is per piece).
func ackedSlip(t *testing.T, l roulette.Layout, round string, bets ...table.SlipBet) *table.SlipAck {
	t.Helper()
	ack := &table.SlipAck{RoundID: round, Version: 1, Bets: bets}
	for _, b := range bets {
		pieces, err := b.Bet.Pieces(l)
		if err != nil {
			t.Fatal(err)
		}
		total := b.Amount * roulette.Units(pieces)
		ack.Results = append(ack.Results, table.BetResult{Accepted: total})
		ack.Total += total
	}
	return ack
}

var up = table.Connection{Up: true}

func stateCases() []stateCase {
	single := roulette.Layout{Wheel: roulette.SingleZero}
	asianLayout := roulette.Layout{Wheel: roulette.SingleZero, Asian: roulette.DefaultAsianGroups(roulette.SingleZero)}
	// The same bets in every state of Diagram A: 25 on 17, 1 on the split 17/20, 100 on red.
	aBets := func(t *testing.T, l roulette.Layout) *table.SlipAck {
		return ackedSlip(t, l, "R42", inside(t, l, roulette.Straight, 2500, 17), inside(t, l, roulette.Split, 100, 17, 20),
			outside(t, l, roulette.Red, 0, 10000))
	}
	// 17 wins: 25 × 36 + 1 × 18 back, the 100 on red lost.
	aWin := table.Settled{RoundID: "R42", Number: 17, Recognised: true, Staked: 12600, Returned: 91800, Balance: 179200}
	result := func(s table.Settled) []table.Event {
		return []table.Event{table.OutcomeEntered{Outcome: table.Outcome{RoundID: "R42", Number: s.Number, At: t0}}, s,
			table.PhaseChanged{Phase: table.PhaseResult, RoundID: "R42"}}
	}
	with := func(phase table.Phase, left time.Duration, slip func(*testing.T, roulette.Layout) *table.SlipAck) func(*testing.T, roulette.Layout) table.Snapshot {
		return func(t *testing.T, l roulette.Layout) table.Snapshot {
			s := tableSnap(l, phase)
			if phase == table.PhaseWagering {
				s.Deadline = t0.Add(left)
			}
			if slip != nil {
				s.Slip = slip(t, l)
			}
			return s
		}
	}
	// period is a design's four period states: open, closing (the warning), ended, result.
	period := func(prefix string, d diagrams.Design, l roulette.Layout, bets func(*testing.T, roulette.Layout) *table.SlipAck,
		win table.Settled, lucky func(*table.Snapshot)) []stateCase {
		snap := func(phase table.Phase, left time.Duration, draw bool) func(*testing.T, roulette.Layout) table.Snapshot {
			return func(t *testing.T, l roulette.Layout) table.Snapshot {
				s := with(phase, left, bets)(t, l)
				if lucky != nil {
					lucky(&s)
					if !draw {
						s.LuckyBall = nil
					}
				}
				return s
			}
		}
		var cases []stateCase
		if prefix != "a" { // Diagram A wagering is TestDiagramAWagering's, placed by taps
			cases = append(cases, stateCase{prefix + "_open.xml", d, l, func(t *testing.T, l roulette.Layout) []table.Event {
				return []table.Event{up, snap(table.PhaseWagering, 12*time.Second, false)(t, l)}
			}})
		}
		return append(cases,
			stateCase{prefix + "_closing.xml", d, l, func(t *testing.T, l roulette.Layout) []table.Event {
				return []table.Event{up, snap(table.PhaseWagering, 4*time.Second, true)(t, l)}
			}},
			stateCase{prefix + "_no_more_bets.xml", d, l, func(t *testing.T, l roulette.Layout) []table.Event {
				return []table.Event{up, snap(table.PhaseNoMoreBets, 0, true)(t, l)}
			}},
			stateCase{prefix + "_result.xml", d, l, func(t *testing.T, l roulette.Layout) []table.Event {
				return append([]table.Event{up, snap(table.PhaseNoMoreBets, 0, true)(t, l)}, result(win)...)
			}},
		)
	}

	lucky := func(s *table.Snapshot) {
		s.Config.LuckyBall, s.Config.LuckyBallVersion = true, roulette.LuckyMega
		s.LuckyBall = &roulette.LuckyBallDraw{Version: roulette.LuckyMega, Numbers: [4]roulette.Number{7, 23, 14, 31},
			Mega: roulette.BallBlue, HasMega: true}
	}
	lBets := func(t *testing.T, l roulette.Layout) *table.SlipAck {
		return ackedSlip(t, l, "R42", inside(t, l, roulette.Straight, 500, 14), outside(t, l, roulette.Odd, 0, 1000),
			table.SlipBet{Bet: roulette.Bet{Spot: roulette.LuckyBallSpot(roulette.BallBlue)}, Amount: 500})
	}
	// 14 is the blue ball, Mega: the straight, and the Lucky Ball bet at its Mega odds.
	var mega int64
	{
		d := roulette.LuckyBallDraw{Version: roulette.LuckyMega, Numbers: [4]roulette.Number{7, 23, 14, 31}, Mega: roulette.BallBlue, HasMega: true}
		mega = 500 * (d.Odds(roulette.BallBlue) + 1)
	}
	lWin := table.Settled{RoundID: "R42", Number: 14, Recognised: true, Staked: 2000, Returned: 500*36 + mega,
		Balance: 100000 - 2000 + 500*36 + mega}
	uBets := func(t *testing.T, l roulette.Layout) *table.SlipAck {
		return ackedSlip(t, l, "R42", inside(t, l, roulette.Straight, 500, 32), outside(t, l, roulette.Black, 0, 2500),
			table.SlipBet{Bet: roulette.Bet{Call: roulette.Neighbours, Centre: 17, Spread: 2}, Amount: 100})
	}
	// 32 wins the straight; it is red, so black loses, and it is not among the neighbours of 17
	// (2, 25, 17, 34, 6).
	uWin := table.Settled{RoundID: "R42", Number: 32, Recognised: true, Staked: 3500, Returned: 500 * 36, Balance: 100000 - 3500 + 500*36}

	cases := period("a", diagrams.DiagramA, single, aBets, aWin, nil)
	cases = append(cases, period("l", diagrams.DiagramL, single, lBets, lWin, lucky)...)
	cases = append(cases, period("u", diagrams.DiagramU, single, uBets, uWin, nil)...)

	// The states a player must understand, on Diagram A.
	a := func(file string, events func(*testing.T, roulette.Layout) []table.Event) stateCase {
		return stateCase{file, diagrams.DiagramA, single, events}
	}
	return append(cases,
		a("a_waiting_for_table.xml", func(t *testing.T, l roulette.Layout) []table.Event {
			return []table.Event{up, tableSnap(l, table.PhaseIdle)}
		}),
		a("a_frozen.xml", func(t *testing.T, l roulette.Layout) []table.Event {
			// The dealer corrects the outcome of R42: every account is frozen meanwhile.
			return append(append([]table.Event{up, with(table.PhaseNoMoreBets, 0, aBets)(t, l)}, result(aWin)...),
				table.FrozenChanged{Frozen: true, Reason: "correcting the result of R42"})
		}),
		a("a_reconnecting.xml", func(t *testing.T, l roulette.Layout) []table.Event {
			// Lost before the deadline: the chips go, and the screen says the wagers are void.
			return []table.Event{up, with(table.PhaseWagering, 12*time.Second, aBets)(t, l), table.Connection{Up: false}}
		}),
		a("a_wagers_void.xml", func(t *testing.T, l roulette.Layout) []table.Event {
			// ...and back, after the deadline: the table has no slip of this terminal's.
			return []table.Event{up, with(table.PhaseWagering, 12*time.Second, aBets)(t, l), table.Connection{Up: false},
				up, with(table.PhaseNoMoreBets, 0, nil)(t, l)}
		}),
		stateCase{"u_dealer_wager.xml", diagrams.DiagramU, single, func(t *testing.T, l roulette.Layout) []table.Event {
			// The dealer placed Voisins du Zero for the player, 1.00 a piece (002 §3.2B): beside
			// the player's own neighbours bet, marked as the dealer's, and counted in the bet.
			s := with(table.PhaseWagering, 12*time.Second, uBets)(t, l)
			ack := ackedSlip(t, l, "R42", append(slices.Clone(s.Slip.Bets),
				table.SlipBet{Bet: roulette.Bet{Call: roulette.Voisins}, Amount: 100, PlacedBy: "dealer:D1"})...)
			return []table.Event{up, s, table.DealerWagerPlaced{Slip: *ack}}
		}},
		a("a_closure_announced.xml", func(t *testing.T, l roulette.Layout) []table.Event {
			// The pit boss announced the table's closure 25 minutes ahead (001 §12.7).
			s := with(table.PhaseWagering, 12*time.Second, aBets)(t, l)
			s.ClosingAt = t0.Add(24*time.Minute + 30*time.Second)
			return []table.Event{up, s}
		}),
		a("a_table_closed.xml", func(t *testing.T, l roulette.Layout) []table.Event {
			return []table.Event{up, tableSnap(l, table.PhaseClosed)}
		}),
		a("a_dealer_buy_in.xml", func(t *testing.T, l roulette.Layout) []table.Event {
			s := tableSnap(l, table.PhaseWagering)
			s.Balance, s.PendingBuyIn = 0, &table.BuyInOffered{ID: "B7", Amount: 50000}
			return []table.Event{up, s}
		}),
		a("a_personal_limits.xml", func(t *testing.T, l roulette.Layout) []table.Event {
			// The dealer agreed this player's own limits (000 §4.3, 003 §4.6): the marker and
			// the player's sign; then the supervisor changes them, and the sign follows.
			s := with(table.PhaseWagering, 12*time.Second, aBets)(t, l)
			own := roulette.Limits{Default: roulette.Limit{Min: 500, Max: 100000, Unit: 500}, AggregateMin: 1000}
			s.PlayerLimits = &own
			higher := roulette.Limits{Default: roulette.Limit{Min: 1000, Max: 200000, Unit: 500}, AggregateMin: 2000}
			return []table.Event{up, s, table.PlayerLimitsChanged{Limits: &higher}}
		}),
		stateCase{"u_asian_racetrack.xml", diagrams.DiagramU, asianLayout, func(t *testing.T, l roulette.Layout) []table.Event {
			// The Asian racetrack below the ring with a wager on the group 32-15-19 (002 §3.2).
			s := with(table.PhaseWagering, 12*time.Second, nil)(t, l)
			s.Slip = ackedSlip(t, l, "R42", table.SlipBet{Bet: roulette.Bet{Spot: roulette.Spot{Kind: roulette.AsianNeighbour,
				Mask: roulette.MaskOf(32, 15, 19)}}, Amount: 1000})
			return []table.Event{up, s}
		}},
		a("a_jackpot_won.xml", func(t *testing.T, l roulette.Layout) []table.Event {
			s := with(table.PhaseNoMoreBets, 0, aBets)(t, l)
			s.Config.Jackpot, s.Jackpot = true, 1234500
			return append(append([]table.Event{up, s}, result(aWin)...),
				table.JackpotWon{RoundID: "R42", TerminalID: "T01", Amount: 1234500}, table.JackpotMeter{Amount: 100000})
		}),
	)
}

// stateScreen builds a design's screen on a fake table that has sent the events, once the
// terminal has applied every one of them, and lays it out at 1920×1080.
func stateScreen(t *testing.T, c stateCase) (*Screen, fyne.Window) {
	t.Helper()
	clk := clocktest.New(t0)
	link := apptest.NewLink(clk.Now, 0, time.Millisecond, c.layout, testLimits)
	term := app.New(app.Config{Link: link, Clock: clk, Cashier: printerReady{}})
	var applied atomic.Int64
	changed := make(chan struct{}, 1)
	term.OnChange(func(app.View) { // once per event applied
		applied.Add(1)
		select {
		case changed <- struct{}{}:
		default:
		}
	})
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go term.Run(ctx)
	events := c.events(t, c.layout)
	for _, ev := range events {
		link.Push(ev)
	}
	for timeout := time.After(5 * time.Second); applied.Load() < int64(len(events)); {
		select {
		case <-changed:
		case <-timeout:
			t.Fatalf("the terminal applied %d of %d events", applied.Load(), len(events))
		}
	}
	term.OnChange(nil)
	s, err := NewScreen(term, c.design, c.layout)
	if err != nil {
		t.Fatal(err)
	}
	w := test.NewTempWindow(t, s.Content())
	w.Resize(fyne.NewSize(1920, 1080))
	return s, w
}

// Each screen design in its period states (open, closing, no more bets, result), and on
// Diagram A the states a player must understand, each matched against golden markup in
// testdata/screens. A few facts each state must show are checked here as well, so a golden
// rewritten with -update cannot hide a state that went missing.
func TestScreenStates(t *testing.T) {
	test.NewTempApp(t)
	must := map[string][]string{
		"a_closing.xml":           {"CLOSING", "4"},
		"a_no_more_bets.xml":      {"NO MORE BETS", "126.00"},
		"a_result.xml":            {"RESULT", "17", "WON 918.00", "1,792.00"},
		"l_open.xml":              {"PLACE YOUR BETS", "LUCKY BALL", "?"},
		"l_closing.xml":           {"CLOSING", "MEGA"},
		"l_no_more_bets.xml":      {"NO MORE BETS", "MEGA", "14"},
		"l_result.xml":            {"RESULT", "14", "WON 5,185.00", "MEGA"},
		"u_open.xml":              {"PLACE YOUR BETS", "neighbours 17±2 5"},
		"u_closing.xml":           {"CLOSING", "4"},
		"u_no_more_bets.xml":      {"NO MORE BETS", "35.00"},
		"u_result.xml":            {"RESULT", "32", "AMOUNT WON", "180.00", "1,145.00"}, // U says it on its meter
		"a_waiting_for_table.xml": {"WAITING FOR THE TABLE"},
		"a_frozen.xml":            {"ACCOUNTS FROZEN", "being corrected"},
		"a_reconnecting.xml":      {"RECONNECTING…", "wagers are void"},
		"a_wagers_void.xml":       {"NO MORE BETS", "wagers are void"},
		"a_table_closed.xml":      {"TABLE CLOSED"},
		"u_dealer_wager.xml":      {"voisins 9 placed by the", "The dealer placed voisins for you: 9.00", "44.00"},
		"a_closure_announced.xml": {"This table closes at", "25 min left"},
		"a_dealer_buy_in.xml":     {"The dealer offers a buy-in of 500.00", "Accept", "Decline"},
		"a_jackpot_won.xml":       {"JACKPOT 1,000.00", "JACKPOT! You won 12,345.00"},
		"a_personal_limits.xml":   {"PERSONAL LIMIT", "YOUR LIMITS", "10 – 2,000"},
		"u_asian_racetrack.xml":   {"asian-neighbour 32 15", "19 10"}, // on two lines in the column
	}
	for _, c := range stateCases() {
		t.Run(c.file, func(t *testing.T) {
			_, w := stateScreen(t, c)
			facts, ok := must[c.file]
			if !ok {
				t.Fatalf("no facts to check for %s", c.file)
			}
			texts := shownTexts(test.RenderToMarkup(w.Canvas()))
			for _, want := range facts {
				if !shows(texts, want) {
					t.Errorf("%s does not show %q", c.file, want)
				}
			}
			assertMarkup(t, filepath.Join("screens", c.file), w.Canvas())
		})
	}
}

var markupText = regexp.MustCompile(`<text[^>]*>([^<]*)</text>`)

// shownTexts is every text drawn in a markup, in order.
func shownTexts(markup string) []string {
	var out []string
	for _, m := range markupText.FindAllStringSubmatch(markup, -1) {
		out = append(out, html.UnescapeString(m[1]))
	}
	return out
}

// shows reports whether a text is drawn: a short one exactly (a countdown of "4" is not any
// text with a 4 in it), a longer one anywhere in a text.
func shows(texts []string, want string) bool {
	for _, t := range texts {
		if t == want || len(want) > 4 && strings.Contains(t, want) {
			return true
		}
	}
	return false
}
