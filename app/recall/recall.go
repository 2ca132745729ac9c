// Package recall keeps and reads back a terminal's game records (001 §9.7–9.9 and the labs'
// last-game recall): every slip the table server acknowledged and every settlement, written to
// the terminal journal before the screen shows them, and read back as rounds — the wagers, the
// outcome, the balance before and after, the amount won, and the money in and out during the
// round. Verify recomputes every recorded settlement with the rules engine, so a record that
// disagrees with the rules is found, not trusted.
package recall

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/tablegames/ats/app/table"

	"github.com/tablegames/ats/app/journal"
	"github.com/tablegames/ats/app/roulette"
)

// Record kinds this package writes.
const (
	KindSlip    = "slip-acked"
	KindSettled = "settled"
)

// Money record kinds (written by app/cashier) counted as money in or out of a round.
var (
	moneyIn  = map[string]bool{"credited": true, KindBuyInConfirmed: true}
	moneyOut = map[string]bool{"ticket-confirmed": true, "handpay": true, KindDealerCashOut: true}
)

// Wager is one recorded wager: the bet as written (so a reader needs no Go types) and the
// amount the server accepted for it, in total over its pieces.
type Wager struct {
	Bet      roulette.BetSpec `json:"bet"`
	Tried    int64            `json:"tried"` // per piece, as the player placed it
	Accepted int64            `json:"accepted"`
	Card     string           `json:"card,omitempty"` // the player card it was placed with (003 §3.4, §9.1)
}

type slipBody struct {
	Wheel   string `json:"wheel"`
	Profile string `json:"profile"`
	// Asian is the table's Asian racetrack (002 §3.2), so a recorded Asian Neighbour reads
	// back as the group it was; absent for a table without one.
	Asian   [][]string `json:"asian_groups,omitempty"`
	Version uint64     `json:"version"`
	Wagers  []Wager    `json:"wagers"`
}

type settledBody struct {
	Number     string `json:"number"`
	Recognised bool   `json:"recognised"`
	Staked     int64  `json:"staked"`
	Returned   int64  `json:"returned"`
	Balance    int64  `json:"balance"`
	Correction bool   `json:"correction,omitempty"`
	Version    uint64 `json:"slip_version"`
}

// Writer writes game records to a journal; it is the app.Recorder of a real terminal.
type Writer struct{ J *journal.Journal }

// SlipAcked records a slip the server acknowledged, before the screen shows it as accepted.
func (w Writer) SlipAcked(ctx context.Context, layout roulette.Layout, ack table.SlipAck) error {
	b := slipBody{Wheel: layout.Wheel.String(), Profile: layout.Profile.String(), Asian: layout.Asian.Strings(), Version: ack.Version}
	for i, sb := range ack.Bets {
		wg := Wager{Bet: sb.Bet.Spec(), Tried: sb.Amount, Card: sb.Card}
		if i < len(ack.Results) {
			wg.Accepted = ack.Results[i].Accepted
		}
		b.Wagers = append(b.Wagers, wg)
	}
	body, err := json.Marshal(b)
	if err != nil {
		return err
	}
	_, err = w.J.Append(ctx, journal.Record{Kind: KindSlip, Round: ack.RoundID, Amount: ack.Total, Body: body})
	return err
}

// Settled records this terminal's settlement of a round, before the screen shows it.
func (w Writer) Settled(ctx context.Context, s table.Settled) error {
	body, err := json.Marshal(settledBody{Number: s.Number.String(), Recognised: s.Recognised, Staked: s.Staked,
		Returned: s.Returned, Balance: s.Balance, Correction: s.Correction, Version: s.SlipVersion})
	if err != nil {
		return err
	}
	_, err = w.J.Append(ctx, journal.Record{Kind: KindSettled, Round: s.RoundID, Amount: s.Returned, Body: body})
	return err
}

// LastSlip is the round and total of the last acknowledged slip recorded (app.SlipHistory).
func (w Writer) LastSlip(ctx context.Context) (round string, total int64, ok bool, err error) {
	rs, err := w.J.Last(ctx, KindSlip, 1)
	if err != nil || len(rs) == 0 {
		return "", 0, false, err
	}
	return rs[0].Round, rs[0].Amount, true, nil
}

// KindDealerCashOut records an account the dealer closed and paid at the table.
const KindDealerCashOut = "dealer-cashout"

// DealerCashOut records an account the dealer closed, once per close (app.Recorder): the close
// is told live and then again in every snapshot, and its id keys a flow opened and closed by
// the one record, which the journal will not write twice. A close without an id (a server that
// names none) is recorded as told.
func (w Writer) DealerCashOut(ctx context.Context, c table.AccountClosed) error {
	if c.Amount < 0 {
		return fmt.Errorf("recall: dealer cash-out of %d cents", c.Amount)
	}
	r := journal.Record{Kind: KindDealerCashOut, Amount: c.Amount, Body: []byte(c.Reason)}
	if c.ID != "" {
		r.Key, r.Flow = "dealer-cashout:"+c.ID, journal.Done
		if _, ok, err := w.J.FlowOf(ctx, r.Key); err != nil || ok {
			return err // recorded already, or the journal cannot say
		}
	}
	_, err := w.J.Append(ctx, r)
	return err
}

// Dealer buy-in records: the player's acceptance opens a flow (its body is the idempotency key
// the table is asked with), the table's answer closes it — confirmed with the amount credited
// (the money in that meters and rounds count), or refused.
const (
	KindBuyInAccepted  = "buy-in-accepted"
	KindBuyInConfirmed = "buy-in-confirmed"
	KindBuyInRefused   = "buy-in-refused"
	// BuyInOpen is the state of an accepted buy-in whose answer is not yet recorded. The name
	// is its own: the cashier's recovery acts on its own states only.
	BuyInOpen journal.FlowState = "buy-in-accepted"
)

func buyInFlow(id string) string { return "buy-in:" + id }

// BuyInAccepted journals the player's acceptance before the table is told (app.Recorder). A
// second acceptance of a buy-in still open (a second touch, a retry) is the same flow.
func (w Writer) BuyInAccepted(ctx context.Context, b table.AcceptedBuyIn) error {
	if b.ID == "" || b.Key == "" {
		return errors.New("recall: a buy-in without an id or an idempotency key")
	}
	f, ok, err := w.J.FlowOf(ctx, buyInFlow(b.ID))
	switch {
	case err != nil:
		return err
	case ok && f.State == BuyInOpen:
		return nil
	case ok:
		return fmt.Errorf("recall: buy-in %s is already %s", b.ID, f.State)
	}
	_, err = w.J.Append(ctx, journal.Record{Kind: KindBuyInAccepted, Key: buyInFlow(b.ID), Amount: b.Amount,
		Body: []byte(b.Key), Flow: BuyInOpen})
	return err
}

// BuyInDone records the table's answer to an accepted buy-in, once (app.Recorder): the journal
// refuses to close a flow twice, and an answer already recorded is not an error.
func (w Writer) BuyInDone(ctx context.Context, b table.AcceptedBuyIn, credited int64, refused string) error {
	f, ok, err := w.J.FlowOf(ctx, buyInFlow(b.ID))
	switch {
	case err != nil:
		return err
	case !ok:
		return fmt.Errorf("recall: buy-in %s was never recorded as accepted", b.ID)
	case f.State == journal.Done || f.State == journal.Reversed:
		return nil // recorded already (the player's touch and the start-up recovery both asked)
	}
	r := journal.Record{Kind: KindBuyInConfirmed, Key: buyInFlow(b.ID), Amount: credited, Flow: journal.Done}
	if refused != "" {
		r = journal.Record{Kind: KindBuyInRefused, Key: buyInFlow(b.ID), Body: []byte(refused), Flow: journal.Reversed}
	}
	_, err = w.J.Append(ctx, r)
	return err
}

// OpenBuyIns are the accepted buy-ins whose answer was never recorded (app.Recorder), each with
// the idempotency key its acceptance recorded.
func (w Writer) OpenBuyIns(ctx context.Context) ([]table.AcceptedBuyIn, error) {
	fs, err := w.J.Pending(ctx)
	if err != nil {
		return nil, err
	}
	var out []table.AcceptedBuyIn
	for _, f := range fs {
		if f.State != BuyInOpen {
			continue
		}
		rs, err := w.J.Records(ctx, f.Opened-1, 1)
		if err != nil {
			return nil, err
		}
		if len(rs) != 1 || rs[0].Kind != KindBuyInAccepted || len(rs[0].Body) == 0 {
			return nil, fmt.Errorf("recall: record %d does not open buy-in flow %s", f.Opened, f.Key)
		}
		out = append(out, table.AcceptedBuyIn{ID: strings.TrimPrefix(f.Key, "buy-in:"), Key: string(rs[0].Body), Amount: f.Amount})
	}
	return out, nil
}

// Round is one round as the terminal recorded it.
type Round struct {
	ID            string
	At            time.Time // when the terminal last recorded the round (its settlement, else its slip)
	Layout        roulette.Layout
	Wagers        []Wager // the last acknowledged slip recorded
	SlipVersion   uint64
	SettledSlip   uint64 // the slip version the server settled
	Settled       bool
	Number        roulette.Number
	Recognised    bool
	Corrected     bool // settled again after a correction of the outcome
	Staked        int64
	Returned      int64 // the amount won, stakes back included
	BalanceBefore int64
	BalanceAfter  int64
	MoneyIn       int64 // credited during the round (notes, tickets, dealer buy-ins)
	MoneyOut      int64 // cashed out during the round (tickets, handpays)
	FirstSeq      int64
	LastSeq       int64
}

// Rounds reads the last n rounds from the journal, newest first (n <= 0: all). Each record is
// checked against the hash chain as it is read; a record this package wrote that does not parse
// is an error naming it.
func Rounds(ctx context.Context, j *journal.Journal, n int) ([]Round, error) {
	rs, err := j.Records(ctx, 0, 0)
	if err != nil {
		return nil, err
	}
	return roundsOf(rs, n)
}

// roundsOf reads rounds from records already checked against the chain. Their bodies are
// still only bytes from a file: anything that does not parse is an error naming the record.
func roundsOf(rs []journal.Record, n int) ([]Round, error) {
	var order []string
	byID := map[string]*Round{}
	var in, out int64 // money since the last settlement
	get := func(id string, seq int64) *Round {
		r := byID[id]
		if r == nil {
			r = &Round{ID: id, FirstSeq: seq}
			byID[id] = r
			order = append(order, id)
		}
		r.LastSeq = seq
		return r
	}
	for _, rec := range rs {
		switch {
		case moneyIn[rec.Kind]:
			in += rec.Amount
		case moneyOut[rec.Kind]:
			out += rec.Amount
		case rec.Kind == KindSlip:
			var b slipBody
			if err := json.Unmarshal(rec.Body, &b); err != nil {
				return nil, fmt.Errorf("recall: record %d (%s): %w", rec.Seq, rec.Kind, err)
			}
			l, err := layoutOf(b.Wheel, b.Profile, b.Asian)
			if err != nil {
				return nil, fmt.Errorf("recall: record %d (%s): %w", rec.Seq, rec.Kind, err)
			}
			// The latest record is the slip that stands, whatever its version: after a restart
			// that voided the round's wagers the terminal's versions begin again from 1.
			r := get(rec.Round, rec.Seq)
			r.Layout, r.Wagers, r.SlipVersion, r.At = l, b.Wagers, b.Version, rec.At
		case rec.Kind == KindSettled:
			var b settledBody
			if err := json.Unmarshal(rec.Body, &b); err != nil {
				return nil, fmt.Errorf("recall: record %d (%s): %w", rec.Seq, rec.Kind, err)
			}
			num, err := roulette.ParseNumber(b.Number)
			if err != nil {
				return nil, fmt.Errorf("recall: record %d (%s): %w", rec.Seq, rec.Kind, err)
			}
			r := get(rec.Round, rec.Seq)
			if r.Settled && !b.Correction {
				continue // the same settlement told twice (a resubscription): already counted
			}
			r.At = rec.At
			r.Corrected = r.Settled && b.Correction
			r.Settled, r.Number, r.Recognised = true, num, b.Recognised
			r.Staked, r.Returned, r.BalanceAfter, r.SettledSlip = b.Staked, b.Returned, b.Balance, b.Version
			// The server debits stakes and credits returns at settlement (stakes were never
			// taken before), so the balance before is recovered from the one after.
			r.BalanceBefore = b.Balance - b.Returned + b.Staked
			if !r.Corrected {
				r.MoneyIn, r.MoneyOut = in, out
				in, out = 0, 0
			}
		}
	}
	var rounds []Round
	for i := len(order) - 1; i >= 0 && (n <= 0 || len(rounds) < n); i-- {
		rounds = append(rounds, *byID[order[i]])
	}
	return rounds, nil
}

func layoutOf(wheel, profile string, asian [][]string) (roulette.Layout, error) {
	w, err := roulette.ParseWheel(wheel)
	if err != nil {
		return roulette.Layout{}, err
	}
	var p roulette.Profile
	if w == roulette.DoubleZero {
		if p, err = roulette.ParseProfile(profile); err != nil {
			return roulette.Layout{}, err
		}
	}
	g, err := roulette.ParseAsianGroups(w, asian)
	if err != nil {
		return roulette.Layout{}, err
	}
	return roulette.Layout{Wheel: w, Profile: p, Asian: g}, nil
}

// Bets turns the recorded wagers back into bets with their accepted stake per unit (what the
// screen draws as chips).
func (r Round) Bets() ([]roulette.Bet, []int64, error) {
	var bets []roulette.Bet
	var per []int64
	for i, w := range r.Wagers {
		b, err := roulette.ParseBet(r.Layout, w.Bet)
		if err != nil {
			return nil, nil, fmt.Errorf("recall: round %s wager %d: %w", r.ID, i+1, err)
		}
		pieces, err := b.Pieces(r.Layout)
		if err != nil {
			return nil, nil, fmt.Errorf("recall: round %s wager %d: %w", r.ID, i+1, err)
		}
		var units int64
		for _, p := range pieces {
			units += p.Units
		}
		bets = append(bets, b)
		per = append(per, w.Accepted/max(units, 1))
	}
	return bets, per, nil
}

// SlipTotal is the total of the last slip recorded for the round: what the player had on the
// layout. A round not recognised (001 §4.3.3) settles nothing (Staked 0) and returns this.
func (r Round) SlipTotal() int64 {
	var total int64
	for _, w := range r.Wagers {
		total += w.Accepted
	}
	return total
}

// ErrLuckyBall says a round could not be recomputed: its Lucky Ball draw is the server's record.
//
//lint:ignore ST1005 "Lucky Ball" is the side bet's name (003 §7), capitalised wherever it is said
var ErrLuckyBall = errors.New("Lucky Ball wagers settle on the server's draw, not recomputed here")

// ErrSlipNotRecorded says a round could not be recomputed: the server settled a slip version the
// terminal never recorded (it stopped between the server's acknowledgement and its own record,
// so it never showed that version as accepted either).
var ErrSlipNotRecorded = errors.New("the settled slip version was not recorded by this terminal")

// Verify recomputes the round's settlement with the rules engine from the recorded wagers and
// outcome and compares it with what the server paid.
func (r Round) Verify() error {
	if !r.Settled || !r.Recognised {
		return nil
	}
	if r.SettledSlip != r.SlipVersion && r.Staked != 0 {
		return fmt.Errorf("recall: round %s: slip %d settled, %d recorded: %w", r.ID, r.SettledSlip, r.SlipVersion, ErrSlipNotRecorded)
	}
	bets, per, err := r.Bets()
	if err != nil {
		return err
	}
	var staked, returned int64
	for i, b := range bets {
		pieces, _ := b.Pieces(r.Layout)
		for _, p := range pieces {
			if p.Spot.Kind == roulette.LuckyBall {
				return fmt.Errorf("recall: round %s: %w", r.ID, ErrLuckyBall)
			}
			w := roulette.Wager{Spot: p.Spot, Amount: per[i] * p.Units}
			staked += w.Amount
			returned += roulette.SettleWager(w, r.Number)
		}
	}
	if staked != r.Staked || returned != r.Returned {
		return fmt.Errorf("recall: round %s on %s: recorded staked %d returned %d, the rules give staked %d returned %d",
			r.ID, r.Number, r.Staked, r.Returned, staked, returned)
	}
	return nil
}

// Ticket is a ticket the terminal printed or accepted, or a note it accepted.
type Ticket struct {
	At         time.Time
	Validation string // "" for a note
	Amount     int64
	State      string // printed: "printed", "handpay", "printing"; accepted: "ticket", "note"
}

// Tickets reads the last n tickets printed (newest first, with whether each was confirmed
// printed or went to handpay) and the last n tickets and notes accepted (n <= 0: all).
func Tickets(ctx context.Context, j *journal.Journal, n int) (printed, accepted []Ticket, err error) {
	rs, err := j.Records(ctx, 0, 0)
	if err != nil {
		return nil, nil, err
	}
	printed, accepted = ticketsOf(rs, n)
	return printed, accepted, nil
}

func ticketsOf(rs []journal.Record, n int) (printed, accepted []Ticket) {
	issued := map[string]int{} // cash-out key → index in printed
	for _, r := range rs {
		switch r.Kind {
		case "ticket-issued":
			issued[r.Key] = len(printed)
			printed = append(printed, Ticket{At: r.At, Validation: string(r.Body), Amount: r.Amount, State: "printing"})
		case "ticket-confirmed", "handpay":
			if i, ok := issued[r.Key]; ok {
				printed[i].State = map[string]string{"ticket-confirmed": "printed", "handpay": "handpay"}[r.Kind]
			}
		case "credited":
			kind, detail, _ := strings.Cut(r.Key, ":")
			t := Ticket{At: r.At, Amount: r.Amount, State: kind}
			if kind == "ticket" {
				t.Validation, _, _ = strings.Cut(detail, ":")
			}
			accepted = append(accepted, t)
		}
	}
	return lastN(printed, n), lastN(accepted, n)
}

// lastN is the last n of ts, newest first (n <= 0: all, as for Rounds; a negative n once
// made a negative capacity and panicked).
func lastN(ts []Ticket, n int) []Ticket {
	if n <= 0 {
		n = len(ts)
	}
	out := make([]Ticket, 0, min(n, len(ts)))
	for i := len(ts) - 1; i >= 0 && len(out) < n; i-- {
		out = append(out, ts[i])
	}
	return out
}

// Reader reads the game records back for the screen (app.Recall).
type Reader struct{ J *journal.Journal }

// Rounds is the last n games, newest first (Rounds).
func (r Reader) Rounds(ctx context.Context, n int) ([]Round, error) { return Rounds(ctx, r.J, n) }

// Tickets is the last n tickets printed and accepted (Tickets).
func (r Reader) Tickets(ctx context.Context, n int) (printed, accepted []Ticket, err error) {
	return Tickets(ctx, r.J, n)
}
