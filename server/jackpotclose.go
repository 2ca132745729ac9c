package server

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/tablegames/ats/app/money"
	"github.com/tablegames/ats/app/table"
	pb "github.com/tablegames/ats/proto/ats/table/v1"
	"github.com/tablegames/ats/server/ledger"
	"github.com/tablegames/ats/server/pki"
)

// Closing a jackpot (001 §8.3.4–8.3.6, issue 28). "A jackpot may be closed at any time provided
// that a sign giving notice of the closure is displayed at every table" (§8.3.5), and "an amount
// equal to the value recorded on the jackpot meter must be transferred to the jackpot meter of
// one or more other jackpots" (§8.3.6). The sign is the floor's (a procedure); the table records
// the notice's words with the closure, so the record says what notice was given.
//
// A supervisor closes the table's jackpot naming the jackpot that takes its meter (another
// table's of the floor). In one transaction the meter goes to zero and the same amount onto the
// meter of what this table transferred out (MeterJackpotTransferred): jackpot_meter +
// jackpot_transferred is the same before and after, to the cent; the closure is an audit event
// with the supervisor's identity, and an event in the receiving table's log (a floor event,
// under the floor's key), so both tables' records show the transfer. From then on the jackpot
// takes no contribution and cannot hit, and it stays closed across a restart
// (MeterJackpotClosed). A hit waiting for the pit boss must be confirmed (or its round
// invalidated) first: the closure must not strand a prize, nor a void re-credit a closed meter.
//
// The receiving table credits the transfer to its own meter itself: its meters are sealed under
// its key, which this table's server does not hold (see ledger/floor.go).

// The meters of a closed jackpot.
const (
	MeterJackpotClosed      = "jackpot_closed"      // 1 once the jackpot is closed
	MeterJackpotTransferred = "jackpot_transferred" // cents moved off the meter at the closure
)

// jackpotClosure is a closed jackpot, as recorded (the "jackpot-closed" event).
type jackpotClosure struct {
	At         time.Time `json:"-"`
	By         string    `json:"-"`
	Notice     string    `json:"notice"`
	TransferTo string    `json:"transfer_to"`
	Amount     int64     `json:"-"`
}

// CloseJackpot is the supervisor's closure of the table's jackpot (jackpotclose.go).
func (s *dealerService) CloseJackpot(ctx context.Context, req *pb.CloseJackpotRequest) (*pb.TableStatus, error) {
	return s.t.CloseJackpot(actorOf(ctx), req)
}

func (c *jackpotClosure) pb() *pb.JackpotClosure {
	if c == nil {
		return nil
	}
	return &pb.JackpotClosure{ClosedAtUnixNanos: c.At.UnixNano(), ClosedBy: c.By, Notice: c.Notice,
		TransferTo: c.TransferTo, Transferred: c.Amount}
}

// loadJackpotClosure reads a closed jackpot's record back at a start: nil if it is open.
func (t *Table) loadJackpotClosure(ctx context.Context, st *ledger.State) (*jackpotClosure, error) {
	if st.Meters[MeterJackpotClosed] == 0 {
		return nil, nil
	}
	evs, err := t.led.Events(ctx, "jackpot-closed", 1)
	if err != nil {
		return nil, err
	}
	if len(evs) == 0 {
		return nil, fmt.Errorf("server: the jackpot is closed (meter %s) but its closure is not in the audit log", MeterJackpotClosed)
	}
	c := &jackpotClosure{}
	if err := json.Unmarshal([]byte(evs[0].Detail), c); err != nil {
		return nil, fmt.Errorf("server: the jackpot's closure: %w", err)
	}
	c.At, c.By, c.Amount = evs[0].At, evs[0].Actor, evs[0].Amount
	return c, nil
}

// CloseJackpot closes the table's jackpot with its notice and transfers its meter to the jackpot
// of table transferTo, as actor (a supervisor).
func (t *Table) CloseJackpot(actor string, req *pb.CloseJackpotRequest) (*pb.TableStatus, error) {
	notice, to := req.GetNotice(), req.GetTransferTo()
	if notice == "" || len(notice) > 500 || !utf8.ValidString(notice) {
		return nil, invalid("notice: the words of the sign displayed at the tables (001 §8.3.5), 1 to 500 bytes of text")
	}
	if err := pki.ValidID(to); err != nil {
		return nil, invalid("transfer_to: the table whose jackpot takes the meter (001 §8.3.6): %v", err)
	}
	return t.do(actor, func(now time.Time) error {
		if to == t.cfg.TableID {
			return invalid("transfer_to %s: this table's own jackpot is the one closing; the meter goes to another jackpot (001 §8.3.6)", to)
		}
		j := t.jackpot
		switch {
		case j == nil:
			return failed("this table has no jackpot")
		case j.closure != nil:
			return failed("the jackpot was closed at %s by %s", j.closure.At.UTC().Format(time.RFC3339), j.closure.By)
		case len(j.pending) > 0:
			return failed("a jackpot hit of round %s waits for the pit boss: confirm it (or invalidate its round) before the jackpot closes", j.pending[0].Round)
		}
		c := &jackpotClosure{At: now, By: actor, Notice: notice, TransferTo: to, Amount: j.meter}
		detail, err := json.Marshal(c)
		if err != nil {
			return err
		}
		err = t.led.Update(t.bg(), now, func(tx *ledger.Tx) error {
			meter, err := tx.AddMeter(ledger.MeterJackpot, -c.Amount)
			if err != nil {
				return err
			}
			if meter != 0 {
				return fmt.Errorf("server: the jackpot meter stands at %d in the ledger, %d in memory", meter+c.Amount, c.Amount)
			}
			if _, err := tx.AddMeter(MeterJackpotTransferred, c.Amount); err != nil {
				return err
			}
			if _, err := tx.AddMeter(MeterJackpotClosed, 1); err != nil {
				return err
			}
			if err := tx.Event("jackpot-closed", "", "", c.Amount, string(detail)); err != nil {
				return err
			}
			return tx.FloorEvent(to, "jackpot-transfer-in", "", "", c.Amount,
				fmt.Sprintf("the jackpot of table %s closed (001 §8.3.6): its meter of %s is this table's to credit to its jackpot meter; notice: %s",
					t.cfg.TableID, money.Decimal(c.Amount), notice))
		})
		if err != nil {
			return ledgerErr(err)
		}
		t.log.Info("jackpot closed", "by", actor, "transferred", c.Amount, "to", to)
		j.meter, j.closure = 0, c
		t.emit(now, "", table.JackpotMeter{Amount: 0})
		return nil
	})
}

// receiveJackpotTransfers credits to this table's jackpot meter the meters of the floor's
// jackpots closed to it (the "jackpot-transfer-in" floor events CloseJackpot writes), each
// exactly once: the floor event's number is the key of an idempotent record in this table's
// own ledger, in the transaction that raises the meter. It runs as a round starts, so a
// transfer is on the meter before the round's wagers contribute. A table with no jackpot, or a
// closed one, takes none (the transfer waits in its log for the operator). Called with t.mu held.
func (t *Table) receiveJackpotTransfers(now time.Time) error {
	j := t.jackpot
	if j == nil || j.closure != nil {
		return nil
	}
	in, err := t.led.FloorEventsFor(context.Background(), "jackpot-transfer-in")
	if err != nil || len(in) == 0 {
		return ledgerErr(err)
	}
	var added int64
	err = t.led.Update(t.bg(), now, func(tx *ledger.Tx) error {
		added = 0
		for _, f := range in {
			key, request := fmt.Sprintf("floor-event-%d", f.Seq), fmt.Sprintf("jackpot from %s %d", f.From, f.Amount)
			if _, seen, err := tx.Idempotent("jackpot-transfer", key, request); err != nil || seen {
				if err != nil {
					return err
				}
				continue
			}
			if _, err := tx.AddMeter(ledger.MeterJackpot, f.Amount); err != nil {
				return err
			}
			if err := tx.Remember("jackpot-transfer", key, request, []byte{}); err != nil {
				return err
			}
			if err := tx.Event("jackpot-transfer-received", "", "", f.Amount,
				fmt.Sprintf("the meter of table %s's jackpot, closed at %s (001 §8.3.6)", f.From, f.At.UTC().Format(time.RFC3339))); err != nil {
				return err
			}
			added += f.Amount
		}
		return nil
	})
	if err != nil {
		return ledgerErr(err)
	}
	if added > 0 {
		meter, err := money.Add(j.meter, added)
		if err != nil {
			return err
		}
		j.meter = meter
		t.log.Info("jackpot transfer received", "amount", added)
		t.emit(now, "", table.JackpotMeter{Amount: meter})
	}
	return nil
}
