package main

import (
	"fmt"
	"image"
	"image/color"
	"strconv"
	"strings"
	"time"
)

// The carded play journeys (SPEC §10, issue 31): the demo kiosk at a carded table
// (-demo-carded), the demo's cards in the seat's reader (internal/demo/cards.go). Two kiosk runs
// walk the six things a player must be able to read:
//
//   - carded-session: a card without limits — setting the limits, the live strip as chips go
//     on, the reality check between rounds and its acknowledgement — in one session;
//   - carded-stops: the stopping cards presented in turn at one seat (the demo's "pad card"
//     command) — a limit reached, a break, a barred card.
//
// A kiosk started for each of the six cost a start and a first read each, and a reality check
// waited 90 s for its interval: 7½ minutes together on the loaded build machine. Each step
// reads only where its words are (cardLook): the card screen's box and the side panel, cut
// from the screenshot and read in one tesseract run, not the whole screen's four reads.
//
// set-limits is carded-session's first two steps alone (its name not matched by -only carded):
// the limits screen in a second language at a fraction of the session's cost.
var cardJourneys = cardSteps([]journey{
	{
		name:    "carded-session",
		designs: "A", // the felt's geometry is design A's (tapNumber)
		// A period long enough for the chips to be tapped in it, and short enough that the
		// round they are in settles soon after: the reality check waits for it (between
		// rounds) and comes at 60 s, after the chips are read on the strip (a wagering
		// period waited for, up to 33 s, and Chinese reads of 10–20 s at 1920×1080 first).
		args: []string{"-demo-carded", "-demo-period", "25s", "-demo-reality-check", "60s"},
		steps: append(setLimits(),
			step{
				// Five chips of 1: the table's minimum per spin, so they are a wager whatever
				// the wheel does (a lone 1.00 is returned unrecognised at the result). Tapped
				// in a wagering period with time left for the five.
				name: "five chips of 1 on 17: loss left 45.00, at once",
				do: func(k *kioskRun) error {
					if err := k.waitBetting(8); err != nil {
						return err
					}
					for range 5 {
						if err := k.tapNumber(17); err != nil {
							return err
						}
					}
					return nil
				},
				want: func(t translation) [][]string { return [][]string{{t.T("Loss left"), "45.00"}, {t.T("Time played")}} },
				wait: 30 * time.Second,
			},
			step{
				name: "the reality check comes between rounds",
				want: func(t translation) [][]string {
					return [][]string{{t.T("REALITY CHECK")}, {literal(t.T("Your session result is %s."))}, {t.T("Continue playing")}}
				},
				wait: 90 * time.Second,
			},
			step{
				name: "Continue playing acknowledges it",
				do:   func(k *kioskRun) error { return k.tapCard(k.tr.T("Continue playing")) },
				gone: func(t translation) []string { return []string{t.T("REALITY CHECK")} },
				wait: 30 * time.Second,
			},
		),
	},
	{name: "set-limits", args: []string{"-demo-carded"}, steps: setLimits()},
	{
		name: "carded-stops",
		args: []string{"-demo-carded", "-demo-card", "1000002"},
		steps: []step{
			{
				name: "the loss limit reached: what, until when, the countdown, Cash out",
				want: func(t translation) [][]string {
					return [][]string{{t.T("PLAY STOPPED")}, {literal(t.T("Your loss limit of %s is reached: play is barred until %s")), "20.00"},
						{literal(t.T("Play may resume in %s"))}, {t.T("Cash out")}}
				},
				wait: time.Minute,
			},
			{
				name: "a card on its break: when play may resume, counted down",
				do:   func(k *kioskRun) error { return k.device("pad card 1000003 1") },
				want: func(t translation) [][]string {
					return [][]string{{t.T("TIME FOR A BREAK")}, {literal(t.T("Time for a break: play may resume at %s"))}, {literal(t.T("Play may resume in %s"))}}
				},
				gone: func(t translation) []string {
					return []string{t.T("PLAY STOPPED"), literal(t.T("Your loss limit of %s is reached: play is barred until %s"))}
				},
				wait: 30 * time.Second,
			},
			{
				name: "a barred card is refused at the pad, in words the player reads",
				do:   func(k *kioskRun) error { return k.device("pad card 1000004 1") },
				want: func(t translation) [][]string {
					return [][]string{{t.T("PLAYER CARD NOT ACCEPTED")}, {"1000004"}}
				},
				gone: func(t translation) []string { return []string{t.T("TIME FOR A BREAK")} },
				wait: 30 * time.Second,
			},
		},
	},
})

// setLimits are a card's first steps at a seat: the limits screen before play, the limits set
// on it by touch, and the strip that shows them.
func setLimits() []step {
	return []step{
		{
			name: "a card without limits: the limits screen comes first",
			want: func(t translation) [][]string {
				return [][]string{{t.T("SET YOUR LIMITS")}, {t.T("Loss limit")}, {t.T("Time limit")}, {t.T("Bar period")}, {t.T("Set these limits")}}
			},
			wait: time.Minute,
		},
		{
			name: "Set these limits: the screen goes, the strip shows the limits and the buy-in",
			do:   func(k *kioskRun) error { return k.tapCard(k.tr.T("Set these limits")) },
			want: func(t translation) [][]string {
				return [][]string{{t.T("Loss left"), "50.00"}, {t.T("Time left"), "30m"}, {"500.00"}}
			},
			// "YOUR LIMITS" is in "SET YOUR LIMITS" too, in both languages: neither the
			// limits screen nor the confirmation of limits just set may stay.
			gone: func(t translation) []string { return []string{t.T("YOUR LIMITS")} },
			wait: time.Minute,
		},
	}
}

// literal is the longest run of a translated format string's own words, between its verbs:
// what the player reads whatever the amounts. The part before the first verb (before) is
// empty where the language puts the amount first ("%s 后可恢复游戏"), and an empty part is
// read on every line.
func literal(format string) string {
	best := ""
	for i, p := range strings.Split(format, "%") {
		if i > 0 && len(p) > 0 {
			p = p[1:] // the verb's letter
		}
		if p = strings.TrimSpace(strings.Trim(p, " .。:：")); len([]rune(p)) > len([]rune(best)) {
			best = p
		}
	}
	return best
}

// cardSteps makes every step of js read the screen as a player at a carded seat does
// (expectCard): the step's do, then its words looked for in the card screen and the side panel.
// The step left to walk has no words of its own, so walk's look after it reads nothing.
func cardSteps(js []journey) []journey {
	for i := range js {
		for j, s := range js[i].steps {
			js[i].steps[j] = step{name: s.name, do: func(k *kioskRun) error {
				if s.do != nil {
					if err := s.do(k); err != nil {
						return err
					}
				}
				return k.expectCard(s)
			}}
		}
	}
	return js
}

// expectCard looks (cardLook) until the step's words are read and its stale words are not, or
// the step's wait (-timeout when none).
func (k *kioskRun) expectCard(s step) error {
	timeout, want, gone := k.stepWords(s)
	deadline := time.Now().Add(timeout)
	for {
		if err := k.cardLook(func(r reading) bool { m, _ := r.check(want, nil); return len(m) == 0 && len(gone) == 0 }); err != nil {
			return err
		}
		missing, stale := k.last.check(want, gone)
		if len(missing) == 0 && len(stale) == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return k.notRead(missing, stale, timeout)
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// tapCard taps the centre of words read in the card screen (cardLook), the lowest line holding
// them: a card screen's button sits below the text it answers.
func (k *kioskRun) tapCard(words ...string) error {
	deadline := time.Now().Add(k.o.timeout)
	for {
		if err := k.cardLook(func(r reading) bool { _, _, ok := r.find(words...); return ok }); err != nil {
			return err
		}
		var found *word
		for _, l := range k.last.lines {
			if _, ws, ok := (reading{lines: []line{l}}).find(words...); ok {
				if u := union(ws); found == nil || u.Y > found.Y {
					found = &u
				}
			}
		}
		if found != nil {
			return k.tap(found.centre())
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("nothing to tap: no line reads %q; screenshot %s; read:\n%s", strings.Join(words, " … "), k.shot, k.last.summary())
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// waitBetting waits until the side panel counts down a wagering period with at least secs
// seconds left (the big number under PLACE YOUR BETS), so taps that follow land in it. The
// number is the screenshot's: the seconds the read took (10 and more on a loaded machine) are
// gone from it.
func (k *kioskRun) waitBetting(secs int) error {
	deadline := time.Now().Add(2 * time.Minute)
	for {
		shot := time.Now()
		if err := k.shoot(); err != nil {
			return err
		}
		img, err := decodePNG(k.shot)
		if err != nil {
			return err
		}
		// The phase's two crops alone: a read of the whole card screen took 15 s and more in
		// Chinese at 1920×1080, more than a 25 s period leaves.
		lines, err := readCrops(img, phaseCrops(img.Bounds()), k.languages(), "6")
		if err != nil {
			return err
		}
		k.last = reading{lines: lines}
		if secondsLeft(k.last, k.tr)-int(time.Since(shot).Seconds()) >= secs {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("no wagering period with %d s left within 2 minutes; screenshot %s; read:\n%s", secs, k.shot, k.last.summary())
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// secondsLeft is the wagering period's countdown read in r: the number on the line after the
// one reading PLACE YOUR BETS (-1 when not read).
func secondsLeft(r reading, t translation) int {
	for i, l := range r.lines {
		if !strings.Contains(fold(l.text()), fold(t.T("PLACE YOUR BETS"))) || i+1 >= len(r.lines) {
			continue
		}
		if n, err := strconv.Atoi(strings.TrimSpace(r.lines[i+1].text())); err == nil {
			return n
		}
	}
	return -1
}

// cardBoxPlate is the card screen's box (Fyne's overlay background in the kiosk's dark theme:
// ui/cardplay.go's show).
var cardBoxPlate = color.RGBA{R: 0x18, G: 0x1d, B: 0x25, A: 0xff}

// selectedPlate is a selected choice's plate (ui's selectedChip: the limits screen's choices).
var selectedPlate = color.RGBA{R: 0xf2, G: 0xc1, B: 0x2e, A: 0xff}

// sidePanelWidth is design A's side panel at both screen sizes, from the screen's right edge
// (its phase, countdown and balance at the top, the carded strip at the bottom).
const sidePanelWidth = 306

// phaseHeight is the side panel's top: the phase's words (phaseWords high) and the wagering
// period's countdown under them.
const phaseHeight, phaseWords = 140, 45

// cardLook takes the step's screenshot and reads what a player at a carded seat reads on it
// (readCardScreen).
func (k *kioskRun) cardLook(enough func(reading) bool) error {
	if err := k.shoot(); err != nil {
		return err
	}
	img, err := decodePNG(k.shot)
	if err != nil {
		return err
	}
	r, err := readCardScreen(img, k.languages(), enough)
	if err != nil {
		return err
	}
	k.last = r
	return nil
}

// readCardScreen reads the card screen's box (the largest region of cardBoxPlate, when one is
// up) and then the side panel, cut from img, as uniform blocks (--psm 6), a tesseract run each:
// the box as it is and with its light words made dark (its buttons are white words on blue,
// which tesseract reads only so: 设定这些限额 at 1280×800), the panel's top (the phase and the
// countdown) and the rest of it in bands (the strip's rows, each name and figure on one line,
// which a whole-screen read splits), and whole with light words made dark (已玩时间 under the
// table limits' yellow frame was read only so). Unless enough is content with that, the box
// again in bands of 110 px stepped by 55.
func readCardScreen(img image.Image, languages string, enough func(reading) bool) (reading, error) {
	b := img.Bounds()
	if b.Dx() <= sidePanelWidth || b.Dy() <= phaseHeight {
		return reading{}, fmt.Errorf("a screen of %v is too small for a side panel", b)
	}
	panel := image.Rect(b.Max.X-sidePanelWidth, b.Min.Y, b.Max.X, b.Max.Y)
	rest := image.Rect(panel.Min.X, panel.Min.Y+phaseHeight, panel.Max.X, panel.Max.Y)
	crops := append(phaseCrops(b), crop{r: rest, dark: true})
	// The rest in bands of 200 px stepped by 100 (every line whole in one): read as one block,
	// 940 px of the panel at 1920×1080 lost the balance's A$500.00 under BALANCE.
	for y := rest.Min.Y; y < rest.Max.Y; y += 100 {
		crops = append(crops, crop{r: image.Rect(rest.Min.X, y, rest.Max.X, min(y+200, rest.Max.Y))})
		if y+200 >= rest.Max.Y {
			break
		}
	}
	box, boxUp := cardBox(img)
	var boxCrops []crop
	if boxUp {
		boxCrops = []crop{{r: box}, {r: box, dark: true}}
		// and, on the limits screen, the column of its rows' names alone (from the box's left
		// edge to the first selected choice): each name beside a row of bold choices, one bright,
		// is read there and nowhere else (Time limit, 禁玩期).
		left := box.Max.X
		for _, c := range plates(img, selectedPlate, 24) {
			if c.In(box) {
				left = min(left, c.Min.X)
			}
		}
		if left < box.Max.X && left > box.Min.X+24 {
			boxCrops = append(boxCrops, crop{r: image.Rect(box.Min.X, box.Min.Y, left, box.Max.Y)})
		}
	}
	// The box first, then the panel, each read only if what was read is not enough: a card
	// screen's words are all in its box, the strip's in the panel (a run of tesseract in
	// Chinese on a loaded machine costs 10 s and more).
	var lines []line
	for _, part := range [][]crop{boxCrops, crops} {
		more, err := readCrops(img, part, languages, "6")
		if err != nil {
			return reading{}, err
		}
		lines = append(lines, more...)
		if enough != nil && enough(reading{lines: lines}) {
			return reading{lines: lines}, nil
		}
	}
	if !boxUp {
		return reading{lines: lines}, nil
	}
	const band = 110
	var bands []crop
	for y := box.Min.Y; y < box.Max.Y; y += band / 2 {
		bands = append(bands, crop{r: image.Rect(box.Min.X, y, box.Max.X, min(y+band, box.Max.Y))})
		if y+band >= box.Max.Y {
			break
		}
	}
	more, err := readCrops(img, bands, languages, "6")
	if err != nil {
		return reading{}, err
	}
	return reading{lines: append(lines, more...)}, nil
}

// phaseCrops are the side panel's top on a screen of bounds b: the phase's words and its
// countdown apart (read together, a lone digit under them was lost: 8 at 1920×1080).
func phaseCrops(b image.Rectangle) []crop {
	x := b.Max.X - sidePanelWidth
	return []crop{{r: image.Rect(x, b.Min.Y, b.Max.X, b.Min.Y+phaseWords)},
		{r: image.Rect(x, b.Min.Y+phaseWords, b.Max.X, b.Min.Y+phaseHeight)}}
}

// cardBox is the box of the card screen over the play area, if one is up: the largest region of
// its plate's colour.
func cardBox(img image.Image) (image.Rectangle, bool) {
	var best image.Rectangle
	for _, r := range plates(img, cardBoxPlate, 100) {
		if r.Dx()*r.Dy() > best.Dx()*best.Dy() {
			best = r
		}
	}
	return best, !best.Empty()
}

func init() { journeys = append(journeys, cardJourneys...) }
