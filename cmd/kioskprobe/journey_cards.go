package main

import "time"

// The carded play journeys (SPEC §10, issue 31): the demo kiosk at a carded table
// (-demo-carded), the demo's cards in the seat's reader (internal/demo/cards.go): setting the
// limits, the live strip, the reality check, a limit reached, a break, a barred card.
//
// Together they take five minutes and more at one size, in one design and language (a look
// after a tap waits for tesseract's reads, 10–20 s each on the loaded build machine): over
// packaging/test.sh's two-minute budget for them, so they run with -pending:
//
//	JOURNEY_ARGS="-pending -only carded -designs A -langs en,zh_Hans" bash packaging/journeys.sh build/ats
var cardJourneys = withPending(cardPending, []journey{
	{
		name: "carded-set-limits",
		args: []string{"-demo-carded"},
		steps: []step{
			{
				name: "a card without limits: the limits screen comes first",
				want: func(t translation) [][]string {
					return [][]string{{t.T("SET YOUR LIMITS")}, {t.T("Loss limit")}, {t.T("Bar period")}}
				},
				wait: time.Minute,
			},
			{
				name: "Set these limits: the screen goes, the strip shows the limits",
				do:   func(k *kioskRun) error { return k.tapWords(k.tr.T("Set these limits")) },
				want: func(t translation) [][]string {
					return [][]string{{t.T("Loss left"), "50.00"}, {t.T("Time left"), "30m"}}
				},
				gone: func(t translation) []string { return []string{t.T("SET YOUR LIMITS")} },
				wait: time.Minute, // the first look after the tap may come before the answer, and take 20 s to read
			},
		},
	},
	{
		name:    "carded-live-strip",
		designs: "A",
		args:    []string{"-demo-carded"},
		steps: []step{
			buyIn,
			{
				name: "limits set",
				do:   func(k *kioskRun) error { return k.tapWords(k.tr.T("Set these limits")) },
				want: func(t translation) [][]string { return [][]string{{t.T("Loss left"), "50.00"}} },
				wait: time.Minute,
			},
			{
				// Five chips of 1: the table's minimum per spin, so they are a wager whatever
				// the wheel does (a lone 1.00 is returned unrecognised at the result).
				name: "five chips of 1 on 17: loss left 45.00, at once",
				do: func(k *kioskRun) error {
					for range 5 {
						if err := k.tapNumber(17); err != nil {
							return err
						}
					}
					return nil
				},
				want: func(t translation) [][]string { return [][]string{{t.T("Loss left"), "45.00"}, {t.T("Time played")}} },
				wait: time.Minute,
			},
		},
	},
	{
		name: "carded-reality-check",
		args: []string{"-demo-carded", "-demo-reality-check", "90s"},
		steps: []step{
			{
				name: "limits set",
				do:   func(k *kioskRun) error { return k.tapWords(k.tr.T("Set these limits")) },
				want: func(t translation) [][]string { return [][]string{{t.T("Loss left"), "50.00"}} },
				wait: time.Minute,
			},
			{
				name: "the reality check comes between rounds",
				want: func(t translation) [][]string {
					return [][]string{{t.T("REALITY CHECK")}, {before(t.T("Your session result is %s."))}, {t.T("Continue playing")}}
				},
				wait: 150 * time.Second,
			},
			{
				name: "Continue playing acknowledges it",
				do:   func(k *kioskRun) error { return k.tapWords(k.tr.T("Continue playing")) },
				gone: func(t translation) []string { return []string{t.T("REALITY CHECK")} },
				wait: time.Minute,
			},
		},
	},
	{
		name: "carded-limit-reached",
		args: []string{"-demo-carded", "-demo-card", "1000002"},
		steps: []step{
			{
				name: "the loss limit reached: what, until when, the countdown, Cash out",
				want: func(t translation) [][]string {
					return [][]string{{t.T("PLAY STOPPED")}, {before(t.T("Your loss limit of %s is reached: play is barred until %s")), "20.00"},
						{before(t.T("Play may resume in %s"))}, {t.T("Cash out")}}
				},
				wait: time.Minute,
			},
		},
	},
	{
		name: "carded-break",
		args: []string{"-demo-carded", "-demo-card", "1000003"},
		steps: []step{
			{
				name: "the break: when play may resume, counted down",
				want: func(t translation) [][]string {
					return [][]string{{t.T("TIME FOR A BREAK")}, {before(t.T("Time for a break: play may resume at %s"))}, {before(t.T("Play may resume in %s"))}}
				},
				wait: time.Minute,
			},
		},
	},
	{
		name: "carded-barred-card",
		args: []string{"-demo-carded", "-demo-card", "1000004"},
		steps: []step{
			{
				name: "a barred card is refused at the pad, in words the player reads",
				want: func(t translation) [][]string {
					return [][]string{{t.T("PLAYER CARD NOT ACCEPTED")}, {"1000004"}}
				},
				wait: time.Minute,
			},
		},
	},
})

// cardPending is why the carded journeys are not in test.sh's run.
const cardPending = "not a fix awaited: the carded journeys take over test.sh's budget (issue 31); run them with -pending -only carded"

// withPending marks every journey of js pending for why.
func withPending(why string, js []journey) []journey {
	for i := range js {
		js[i].pending = why
	}
	return js
}

func init() { journeys = append(journeys, cardJourneys...) }
