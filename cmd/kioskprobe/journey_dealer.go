package main

import (
	"bufio"
	"errors"
	"fmt"
	"image"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/tablegames/ats/app/money"
)

// The journeys that need the dealer (issue 32 points 15, 16, 18): an outcome chosen, a
// result corrected, a tournament run. The demo's dealer takes its orders on the kiosk's stdin
// beside the device commands (internal/demo/dealer.go: outcome, spin, hold, deal, correct, draw,
// tournament) and answers each on its stderr, which the journey reads back from the kiosk's log.
// A round is driven by the orders, not waited for: "hold" keeps the result on the screen while
// it is read, "spin" ends the wagering period when the chips are down.

// dealer types a dealer's command on the kiosk's stdin and waits for the demo's answer ("ok: …"
// or "error: …" in the kiosk's log): the answer's words, or an error with the refusal.
func (k *kioskRun) dealer(line string) (string, error) {
	before := len(k.replies())
	if _, err := fmt.Fprintln(k.stdin, line); err != nil {
		return "", err
	}
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		if r := k.replies(); len(r) > before {
			answer := r[before]
			if rest, ok := strings.CutPrefix(answer, "error: "); ok {
				return "", fmt.Errorf("the demo's dealer refused %q: %s", line, rest)
			}
			return strings.TrimPrefix(answer, "ok: "), nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return "", fmt.Errorf("the demo's dealer did not answer %q within 15 s", line)
}

// replies are the demo's answers to the commands typed so far, in order.
func (k *kioskRun) replies() []string {
	f, err := os.Open(k.logPath)
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for sc.Scan() {
		if t := sc.Text(); strings.HasPrefix(t, "ok: ") || strings.HasPrefix(t, "error: ") {
			out = append(out, t)
		}
	}
	return out
}

// orders types the dealer's commands in turn, stopping at the first refused.
func (k *kioskRun) orders(lines ...string) error {
	for _, l := range lines {
		if _, err := k.dealer(l); err != nil {
			return err
		}
	}
	return nil
}

// tapNumberTimes taps number n of design A's felt times times, a finger's pace apart.
func (k *kioskRun) tapNumberTimes(n, times int) error {
	for range times {
		if err := k.tapNumber(n); err != nil {
			return err
		}
		time.Sleep(400 * time.Millisecond)
	}
	return nil
}

// takesBets is the step that waits for the round's wagering period.
var takesBets = step{name: "the table takes bets", want: func(t translation) [][]string { return [][]string{{t.T("PLACE YOUR BETS")}} }, wait: time.Minute, area: sidePanel}

// luckyWin is what a Lucky Ball win of the journey's must show, once the draw's odds are known.
type luckyWin struct {
	won, tab string // "30.00", "+25"
}

// oddsOf reads a colour's odds from the dealer's draw answer ("red 14 at 5:1, green …").
func oddsOf(draw, colour string) (int64, error) {
	m := regexp.MustCompile(colour + ` \S+ at (\d+):1`).FindStringSubmatch(draw)
	if m == nil {
		return 0, fmt.Errorf("no %s odds in the draw %q", colour, draw)
	}
	return strconv.ParseInt(m[1], 10, 64)
}

// dealerJourneys are issue 32's journeys that needed a dealer (part of journeys).
func dealerJourneys() []journey {
	lucky := &luckyWin{}
	return []journey{
		{
			// Point 15: a correction takes a win away in words: what the result was and is, the
			// win and the balance before and after.
			name:    "correction-notice",
			designs: "A",
			args:    []string{"-demo-period", "120s"},
			steps: []step{
				buyIn,
				takesBets,
				{
					name: "five chips of 1 on 17",
					do:   func(k *kioskRun) error { return k.tapNumberTimes(17, 5) },
					want: func(translation) [][]string { return [][]string{{"495.00"}} },
					area: sidePanel,
				},
				{
					name: "the dealer spins and the wheel reads 17: a win of 180.00, held on the screen",
					do:   func(k *kioskRun) error { return k.orders("hold", "outcome 17", "spin") },
					want: func(t translation) [][]string { return [][]string{{t.T("WON"), "180.00"}, {"675.00"}} },
					area: sidePanel,
				},
				{
					name: "the supervisor corrects 17 to 20: the notice says from what to what, the win and the balance before and after",
					do:   func(k *kioskRun) error { return k.orders("correct 20") },
					want: func(t translation) [][]string {
						return [][]string{{before(t.T("Result of round %s corrected from %s to %s: your win of %s is now %s, your balance of %s is now %s"))},
							{"17", "20", "180.00"}, {"675.00", "495.00"}}
					},
					area: messageBar,
				},
			},
		},
		{
			// Point 18: a Lucky Ball win shows its amount and the colour's payout tab. The star
			// demo's Lucky Ball (design L on The Star's double-zero table): five chips of 1 on
			// the red ball (the table's minimum a spin is 5.00), the wheel reads red's number.
			name:    "lucky-ball-win",
			designs: "L",
			args:    []string{"-demo-period", "120s", "-wheel", "double-zero", "-profile", "star"},
			steps: []step{
				buyIn,
				takesBets,
				{
					name: "five chips of 1 on the red ball",
					do: func(k *kioskRun) error {
						// Found once, tapped five times: a look between taps costs seconds, and
						// the period may end meanwhile.
						p, err := k.leftmostLowest(k.tr.T("Bet"), sidePanel(k))
						if err != nil {
							return err
						}
						for range 5 {
							if err := k.tap(p); err != nil {
								return err
							}
							time.Sleep(400 * time.Millisecond)
						}
						return nil
					},
					area: sidePanel,
					want: func(translation) [][]string { return [][]string{{"495.00"}} },
				},
				{
					name: "the wheel reads red's number: the win, and red's tab with what it paid",
					do: func(k *kioskRun) error {
						if err := k.orders("hold", "outcome red", "spin"); err != nil {
							return err
						}
						draw, err := k.dealer("draw")
						if err != nil {
							return err
						}
						odds, err := oddsOf(draw, "red")
						if err != nil {
							return err
						}
						// Five chips of 1 (cents): the win is stake and odds, the tab what they paid.
						lucky.won = money.Grouped(500 * (odds + 1))
						lucky.tab = "+" + money.Chips(500*odds)
						return nil
					},
					want: func(t translation) [][]string { return [][]string{{t.T("WON"), lucky.won}, {lucky.tab}} },
					area: sidePanel,
				},
			},
		},
		{
			// Point 16: a tournament's prize is shown to the player who won it. The demo's
			// tournament of one round on this seat alone: the whole pool of 100.00 is the prize.
			name:    "tournament-prize",
			designs: "A",
			args:    []string{"-demo-period", "120s"},
			steps: []step{
				buyIn,
				{
					name: "the Director opens the demo's tournament between rounds",
					do: func(k *kioskRun) error {
						if err := k.orders("hold"); err != nil {
							return err
						}
						_, _ = k.dealer("spin") // the round open ends now (refused if none is)
						if err := k.retry("tournament open", 30*time.Second); err != nil {
							return err
						}
						return k.orders("deal")
					},
					want: func(t translation) [][]string { return [][]string{{t.T("TOURNAMENT")}, {t.T("PLACE YOUR BETS")}} },
					wait: time.Minute,
					area: sidePanel,
				},
				{
					name: "a wager of tournament chips on 17",
					do:   func(k *kioskRun) error { return k.tapNumber(17) },
					want: func(t translation) [][]string { return [][]string{{t.T("BET"), "10"}} },
					area: sidePanel,
				},
				{
					name: "the last round: the place and the prize on the tournament's panel",
					// Held: the final results stand until the next round opens.
					do: func(k *kioskRun) error { return k.orders("hold", "outcome 17", "spin") },
					// The panel's words, which stand until the next round (the message line's
					// "Tournament over: your place 1, prize A$100.00" gives way in seconds).
					want: func(t translation) [][]string {
						return [][]string{{t.T("FINAL RESULTS")}, {fmt.Sprintf(t.T("Place %d"), 1), before(t.T("prize %s")), "100.00"}}
					},
					wait: time.Minute,
					area: sidePanel,
				},
			},
		},
	}
}

// leftmostLowest looks at area of the screen and finds the word w (alone, compared folded) in
// its lowest row, the leftmost of that row: the red ball's Bet of the four.
func (k *kioskRun) leftmostLowest(w string, area image.Rectangle) (point, error) {
	deadline := time.Now().Add(k.o.timeout)
	for {
		if err := k.lookIn(area, nil); err != nil {
			return point{}, err
		}
		var found []word
		for _, l := range k.last.lines {
			for _, x := range l {
				if fold(x.Text) == fold(w) {
					found = append(found, x)
				}
			}
		}
		if len(found) > 0 {
			best := found[0]
			for _, x := range found[1:] {
				switch {
				case x.Y > best.Y+x.H: // a lower row
					best = x
				case x.Y >= best.Y-x.H && x.X < best.X: // the same row, further left
					best = x
				}
			}
			return best.centre(), nil
		}
		if time.Now().After(deadline) {
			return point{}, fmt.Errorf("no %q read; screenshot %s; read:\n%s", w, k.shot, k.last.summary())
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// retry types a dealer's command until the demo takes it (a tournament opens only between
// rounds), or within has passed.
func (k *kioskRun) retry(line string, within time.Duration) error {
	deadline := time.Now().Add(within)
	for {
		_, err := k.dealer(line)
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return errors.Join(fmt.Errorf("%q not taken within %v", line, within), err)
		}
		time.Sleep(500 * time.Millisecond)
	}
}

func init() { journeys = append(journeys, dealerJourneys()...) }
