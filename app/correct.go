package app

import (
	"time"

	"github.com/tablegames/ats/app/money"
	"github.com/tablegames/ats/app/msg"
	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
)

// A corrected result (001 §9.4): the table freezes every account, settles the round again on
// the true outcome and unfreezes them, all in one step, then tells each terminal its new
// settlement. A player who saw a win must read what changed and why: the number it was and the
// number it is, the win and the balance before and after — taken from what this terminal showed
// before the correction's settlement replaced it. The history tile is marked by the table
// (Outcome.Corrected); the frozen state is held on screen for minFrozen, or it would flash by
// unseen.

// minFrozen is how long the screen shows the accounts frozen at the least, however soon the
// table unfreezes them: long enough to read ACCOUNTS FROZEN and why (001 §9.4).
const minFrozen = 3 * time.Second

// correction is the outcome a correction replaces.
type correction struct {
	round string
	from  roulette.Number
}

// correctionFromLocked notes the number a corrected outcome replaces, from the history shown,
// before the history is changed to the new one.
func (t *Terminal) correctionFromLocked(o table.Outcome) {
	t.correcting = nil
	for _, h := range t.view.History {
		if h.RoundID == o.RoundID {
			t.correcting = &correction{round: o.RoundID, from: h.Number}
			return
		}
	}
}

// sayCorrectionLocked tells the player a correction's settlement s, before the view takes its
// figures: as much of before and after as this terminal knows.
func (t *Terminal) sayCorrectionLocked(s table.Settled) {
	before, after := money.Amount(t.view.Balance), money.Amount(s.Balance)
	c := t.correcting
	t.correcting = nil
	won, wonKnown := t.wins.of(s.RoundID)
	var m msg.Msg
	switch {
	case c != nil && c.round == s.RoundID && wonKnown:
		m = msg.New("Result of round %s corrected from %s to %s: your win of %s is now %s, your balance of %s is now %s",
			s.RoundID, c.from, s.Number, money.Amount(won), money.Amount(s.Returned), before, after)
	case c != nil && c.round == s.RoundID:
		m = msg.New("Result of round %s corrected from %s to %s: your balance of %s is now %s",
			s.RoundID, c.from, s.Number, before, after)
	default:
		m = msg.New("Result of round %s corrected to %s: your balance of %s is now %s", s.RoundID, s.Number, before, after)
	}
	t.sayLocked(m, MoneyNews)
}

// frozenLocked follows the table's frozen state: shown at once, and once the table unfreezes,
// still shown until minFrozen after it began.
func (t *Terminal) frozenLocked(frozen bool) {
	t.serverFrozen = frozen
	now := t.clk.Now()
	if frozen {
		if !t.view.Frozen {
			t.frozenAt = now
		}
		t.view.Frozen = true
		t.stopFrozenHoldLocked()
		return
	}
	if !t.view.Frozen || t.frozenHold != nil {
		return
	}
	until := t.frozenAt.Add(minFrozen)
	if !now.Before(until) {
		t.view.Frozen = false
		return
	}
	t.frozenHold = t.clk.AfterFunc(until.Sub(now), t.timerFired(func() {
		t.frozenHold = nil
		t.view.Frozen = t.serverFrozen
	}))
}

// releaseFrozenLocked ends a hold at once (a new round opens, a snapshot restates the table):
// the view says what the table says.
func (t *Terminal) releaseFrozenLocked() {
	t.stopFrozenHoldLocked()
	t.view.Frozen = t.serverFrozen
}

func (t *Terminal) stopFrozenHoldLocked() {
	if t.frozenHold != nil {
		t.frozenHold.Stop()
		t.frozenHold = nil
	}
}

// recentWins are the wins of the last rounds settled here, newest last.
type recentWins []roundWin

type roundWin struct {
	round    string
	returned int64
}

// keptWins bounds recentWins: as many rounds as the history shows.
const keptWins = 50

func (w *recentWins) settled(s table.Settled) {
	for i := range *w {
		if (*w)[i].round == s.RoundID {
			(*w)[i].returned = s.Returned
			return
		}
	}
	*w = append(*w, roundWin{s.RoundID, s.Returned})
	if len(*w) > keptWins {
		*w = (*w)[len(*w)-keptWins:]
	}
}

func (w recentWins) of(round string) (int64, bool) {
	for _, r := range w {
		if r.round == round {
			return r.returned, true
		}
	}
	return 0, false
}
