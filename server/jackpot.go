package server

import (
	"context"
	"fmt"
	"time"

	pb "github.com/tablegames/ats/proto/ats/table/v1"

	"github.com/tablegames/ats/app/money"
	"github.com/tablegames/ats/app/table"
	"github.com/tablegames/ats/server/ledger"
)

// JackpotConfig is a stand-alone mystery progressive jackpot (001 §8). Every recognised wager
// qualifies (§3.13) and adds RateBP basis points of its stake to the meter, exactly (fractions
// of a cent are carried, not rounded away). The meter starts at, and is reset to, Seed — the
// minimum jackpot value (§8.4.1, §8.5). At each reset a hidden trigger is drawn uniformly
// above Seed and up to Ceiling with crypto/rand; the round whose contributions take the meter to
// it is the jackpot round, and one of its qualifying terminals, drawn at random, wins the whole
// meter. The hit is shown at once and credited to the winner's chip account when the pit boss
// confirms it (§8.3.9); a confirmed jackpot is never voided (§9.10).
type JackpotConfig struct {
	Seed    int64 // cents
	Ceiling int64 // cents: the meter hits by here
	RateBP  int64 // contribution per recognised stake, in basis points (100 = 1 %)
}

func (c JackpotConfig) validate() error {
	if c.Seed <= 0 || c.Ceiling <= c.Seed || c.RateBP <= 0 || c.RateBP > 10000 {
		return fmt.Errorf("server: jackpot: need 0 < seed < ceiling and 0 < rate <= 10000 bp, have %+v", c)
	}
	return nil
}

// jackpotState is the jackpot in memory; the ledger's meters and jackpots table are its record.
type jackpotState struct {
	meter, frac, trigger int64
	pending              []ledger.Jackpot // hits waiting for the pit boss, oldest first
	closure              *jackpotClosure  // closed (jackpotclose.go): no contribution, no hit
}

// drawTrigger picks the next hidden hit value in (Seed, Ceiling]: above the seed, so a reset
// meter never hits on the next wager.
func (c JackpotConfig) drawTrigger() int64 { return c.Seed + 1 + randInt(c.Ceiling-c.Seed) }

// loadJackpot restores the jackpot from the ledger, seeding it the first time.
func (t *Table) loadJackpot(ctx context.Context, st *ledger.State) error {
	c := t.cfg.Jackpot
	if c == nil {
		return nil
	}
	if err := c.validate(); err != nil {
		return err
	}
	j := &jackpotState{meter: st.Meters[ledger.MeterJackpot], frac: st.Meters[ledger.MeterJackpotFrac],
		trigger: st.Meters[ledger.MeterJackpotTrigger], pending: st.Jackpots}
	closure, err := t.loadJackpotClosure(ctx, st)
	if err != nil {
		return err
	}
	if j.closure = closure; closure != nil {
		t.jackpot = j // closed: never seeded again (its meter stays at zero)
		return nil
	}
	if j.meter < c.Seed || j.trigger < c.Seed || j.trigger > c.Ceiling {
		// First start, or the configuration changed: meter at no less than the minimum, and
		// a trigger inside the new range.
		meter, trigger := max(j.meter, c.Seed), c.drawTrigger()
		err := t.led.Update(ctx, t.now(), func(tx *ledger.Tx) error {
			if _, err := tx.AddMeter(ledger.MeterJackpot, meter-j.meter); err != nil {
				return err
			}
			if _, err := tx.AddMeter(ledger.MeterJackpotTrigger, trigger-j.trigger); err != nil {
				return err
			}
			return tx.Event("jackpot-seeded", "", "", meter, "")
		})
		if err != nil {
			return err
		}
		j.meter, j.trigger = meter, trigger
	}
	t.jackpot = j
	return nil
}

// contribute adds a settled round's recognised stakes to the meter, in the settlement's
// transaction, and decides a hit. It returns the hit, if any, to announce once committed.
func (t *Table) contribute(tx *ledger.Tx, roundID string, settled []settledFor) (next jackpotState, hit *ledger.Jackpot, err error) {
	j, c := *t.jackpot, t.cfg.Jackpot
	if j.closure != nil {
		return j, nil, nil // a closed jackpot takes nothing (jackpotclose.go)
	}
	var staked int64
	var qualifying []string
	for _, s := range settled {
		if s.ev.Recognised && s.ev.Staked > 0 {
			staked += s.ev.Staked
			qualifying = append(qualifying, s.terminal)
		}
	}
	if staked == 0 {
		return j, nil, nil
	}
	units := j.frac + staked*c.RateBP // in 1/10 000 of a cent
	add := units / 10000
	j.meter += add
	j.frac = units % 10000
	if _, err := tx.AddMeter(ledger.MeterJackpot, add); err != nil {
		return j, nil, err
	}
	if _, err := tx.AddMeter(ledger.MeterJackpotFrac, j.frac-t.jackpot.frac); err != nil {
		return j, nil, err
	}
	if j.meter < j.trigger {
		return j, nil, nil
	}
	hit = &ledger.Jackpot{Round: roundID, Terminal: qualifying[randInt(int64(len(qualifying)))], Amount: j.meter}
	if err := tx.PutJackpot(*hit); err != nil {
		return j, nil, err
	}
	if err := tx.Event("jackpot-hit", hit.Terminal, roundID, hit.Amount, "waiting for the pit boss"); err != nil {
		return j, nil, err
	}
	trigger := c.drawTrigger()
	if _, err := tx.AddMeter(ledger.MeterJackpot, c.Seed-j.meter); err != nil {
		return j, nil, err
	}
	if _, err := tx.AddMeter(ledger.MeterJackpotTrigger, trigger-j.trigger); err != nil {
		return j, nil, err
	}
	j.meter, j.trigger = c.Seed, trigger
	j.pending = append(append([]ledger.Jackpot(nil), j.pending...), *hit)
	return j, hit, nil
}

// announceJackpot tells every terminal the meter, and the hit if there was one.
func (t *Table) announceJackpot(now time.Time, hit *ledger.Jackpot) {
	t.emit(now, "", table.JackpotMeter{Amount: t.jackpot.meter})
	if hit != nil {
		t.log.Info("jackpot hit", "round", hit.Round, "terminal", hit.Terminal, "amount", hit.Amount)
		t.emit(now, "", jackpotWon(*hit))
	}
}

// jackpotWon is a ledger jackpot as the terminals are told of it.
func jackpotWon(j ledger.Jackpot) table.JackpotWon {
	return table.JackpotWon{RoundID: j.Round, TerminalID: j.Terminal, Amount: j.Amount, Confirmed: j.Confirmed, Void: j.Void}
}

// ConfirmJackpot is the pit boss confirming a hit (001 §8.3.9(a)): the prize is credited to the
// winner's chip account, paid by the house, exactly once.
func (t *Table) ConfirmJackpot(actor, roundID string) (*pb.TableStatus, error) {
	return t.do(actor, func(now time.Time) error {
		if t.jackpot == nil {
			return failed("this table has no jackpot")
		}
		i := -1
		for k, p := range t.jackpot.pending {
			if p.Round == roundID {
				i = k
			}
		}
		if i < 0 {
			var j ledger.Jackpot
			var found bool
			if err := t.led.Update(t.bg(), now, func(tx *ledger.Tx) (err error) {
				j, found, err = tx.Jackpot(roundID)
				return err
			}); err == nil && found && j.Void {
				return failed("the jackpot of round %s is void: the round was invalidated and its amount went back on the meter (001 §8.8)", roundID)
			}
			return failed("no jackpot hit waiting in round %q", roundID)
		}
		hit := t.jackpot.pending[i]
		hit.Confirmed = true
		var bal int64
		err := t.led.Update(t.bg(), now, func(tx *ledger.Tx) error {
			b, open, err := tx.Account(hit.Terminal)
			if err != nil {
				return err
			}
			bal = b + hit.Amount
			if err := tx.SetAccount(hit.Terminal, bal, open); err != nil {
				return err
			}
			if _, err := tx.AddMeter(ledger.MeterHouseResult, -hit.Amount); err != nil {
				return err
			}
			if err := tx.PutJackpot(hit); err != nil {
				return err
			}
			return tx.Event("jackpot-credited", hit.Terminal, hit.Round, hit.Amount, "confirmed by the pit boss")
		})
		if err != nil {
			return ledgerErr(err)
		}
		t.jackpot.pending = append(t.jackpot.pending[:i:i], t.jackpot.pending[i+1:]...)
		t.account(hit.Terminal).balance = bal
		t.balanceEvent(now, hit.Terminal, hit.Amount, "jackpot")
		t.emit(now, "", jackpotWon(hit))
		return nil
	})
}

// voidJackpot voids the unconfirmed hit of an invalidated round in tx (001 §8.8): "the amount
// of the jackpot prize as displayed on the meter must be re-credited to the meter". At the hit
// the meter was reset to the seed (contribute), so re-crediting takes the reset back: the meter
// shows the prize again, plus what qualifying wagers have added since. The hidden trigger
// stands; a meter now at or past it hits on the next qualifying round. A confirmed hit is not
// pending and is never found here: it stands (§9.10). It returns the jackpot after the void
// and the voided hit (nil if the round had none) to apply and announce once committed.
func (t *Table) voidJackpot(tx *ledger.Tx, roundID string) (next jackpotState, void *ledger.Jackpot, err error) {
	if t.jackpot == nil {
		return jackpotState{}, nil, nil
	}
	j := *t.jackpot
	i := -1
	for k, p := range j.pending {
		if p.Round == roundID {
			i = k
		}
	}
	if i < 0 {
		return j, nil, nil
	}
	hit := j.pending[i]
	back := hit.Amount - t.cfg.Jackpot.Seed
	if back < 0 {
		back = 0 // a prize below the seed never happens (the meter never is); never take the meter down
	}
	meter, err := money.Add(j.meter, back)
	if err != nil {
		return j, nil, fmt.Errorf("voiding the jackpot of %s: %w", roundID, err)
	}
	if _, err := tx.AddMeter(ledger.MeterJackpot, back); err != nil {
		return j, nil, err
	}
	hit.Void = true
	if err := tx.PutJackpot(hit); err != nil {
		return j, nil, err
	}
	if err := tx.Event("jackpot-void", hit.Terminal, roundID, hit.Amount, "round invalidated before the pit boss confirmed it: back on the meter (001 §8.8)"); err != nil {
		return j, nil, err
	}
	j.meter = meter
	j.pending = append(j.pending[:i:i], j.pending[i+1:]...)
	return j, &hit, nil
}
