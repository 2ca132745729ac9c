package table

import (
	"time"

	"github.com/tablegames/ats/app/roulette"
)

// DisplayHistory is how many outcomes a winning number display shows: "the outcome of at least
// the most recent spin" (001 §2.2.4) is the first of them, the rest the strip beside it.
const DisplayHistory = 20

// DisplayHotCold is how many hot and how many cold numbers a display names (from
// HotColdMinSpins outcomes on): a TV across the table has the room for five of each.
const DisplayHotCold = 5

// Display is what a winning number display and jackpot meter display show (issue 29): what the
// table may tell everyone in the pit, and nothing of any one player's — no balance, no account,
// no card.
type Display struct {
	TableID, Venue, Currency string
	Wheel                    roulette.Wheel
	Phase                    Phase
	// History holds the outcomes that stand, newest first (the latest is History[0]), at most
	// DisplayHistory: an invalidated round's number is left out.
	History   []Outcome
	Hot, Cold []NumberCount // none under HotColdMinSpins outcomes
	Splits    Splits
	Limits    roulette.Limits
	ClosingAt time.Time // the announced closure (zero: none)
	// Jackpot: the table has a jackpot; JackpotMeter is its meter in cents.
	Jackpot      bool
	JackpotMeter int64
	Promotion    string      // the operator's promotional text
	JackpotWin   *JackpotWin // the winning jackpot message while it is shown, nil otherwise
	At           time.Time   // the server's time when the state was taken
}

// JackpotWin is the winning jackpot message: the amount won, the seat that won it, and until
// when the display shows it.
type JackpotWin struct {
	RoundID, Seat string
	Amount        int64
	Until         time.Time
}

// Latest is the most recent outcome that stands, and false before the first.
func (d Display) Latest() (Outcome, bool) {
	if len(d.History) == 0 {
		return Outcome{}, false
	}
	return d.History[0], true
}

// DisplayOf is what a display shows of a table: h its history (newest first, as the table holds
// it); the statistics are app/table's own (HotCold, SplitsOf), as the kiosk's board counts them.
func DisplayOf(d Display, h []Outcome) Display {
	d.History = make([]Outcome, 0, min(len(h), DisplayHistory))
	for _, o := range h {
		if len(d.History) == DisplayHistory {
			break
		}
		if !o.Invalidated && d.Wheel.Has(o.Number) {
			d.History = append(d.History, o)
		}
	}
	d.Splits = SplitsOf(d.History, d.Wheel)
	d.Hot, d.Cold = nil, nil
	if d.Splits.Sample >= HotColdMinSpins {
		d.Hot, d.Cold, _ = HotCold(d.History, d.Wheel, DisplayHotCold)
	}
	return d
}
