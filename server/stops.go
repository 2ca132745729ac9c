package server

// The stop list (issue 33 point 1). A ticket is money its bearer holds, and most of the time
// whoever presents it is paid. Two kinds of ticket must not be:
//
//   - one whose money a correction found was not the player's: the round was corrected after
//     the player cashed out, so the overpaid balance left in the cash-out ticket (overpay.go).
//     The overpayment names the ticket and stops it; resolving the overpayment (recovered or
//     written off, ResolveOverpayment) releases the stop.
//   - one a supervisor stops: reported lost or stolen, or disputed. A reason is required;
//     who and when are recorded, and so is the release.
//
// A stop is a floor row (ledger.Stop in cage_stops), so a ticket stopped at one table is held
// at the cage and every terminal of every table of the floor. The cage's look-up says why and
// whom to see; PayTicket refuses (STOPPED); a terminal's RedeemTicket refuses with words the
// player reads. A stop and a payment of one ticket read and write under the ticket's row lock
// (Tx.Ticket), so one of them wins: the ticket is paid, or stopped, never both.
//
// A hold a terminal took before the stop may still be committed: the ticket is in that
// acceptor's escrow, perhaps in its cash box, and CommitRedeem credits what was stacked. The
// stop's answer says when the ticket is held.

import (
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	pb "github.com/tablegames/ats/proto/ats/table/v1"

	"github.com/tablegames/ats/app/money"
	"github.com/tablegames/ats/app/table"
	"github.com/tablegames/ats/server/ledger"
)

// maxStopText bounds a stop's reason and a release's note.
const maxStopText = 200

// openStops reads the stops in force on a ticket, checked against their seals.
func openStops(tx *ledger.Tx, validation string) ([]ledger.Stop, error) {
	all, err := tx.Stops(validation)
	if err != nil {
		return nil, err
	}
	var out []ledger.Stop
	for _, s := range all {
		if s.Open() {
			out = append(out, s)
		}
	}
	return out, nil
}

// stopText is a stop as the cashier reads it: what, who made it, and whom to see.
func stopText(s ledger.Stop) string {
	switch s.Kind {
	case ledger.StopOverpayment:
		return fmt.Sprintf("held: %s — see the supervisor (overpayment %s at %s)", s.Reason, s.Overpayment, s.Table)
	default:
		return fmt.Sprintf("stopped by supervisor %s at %s on %s: %s — see the supervisor", bareID(s.By), s.Table,
			s.At.UTC().Format("2006-01-02 15:04:05 UTC"), s.Reason)
	}
}

// bareID is an actor without its role: "S1" of "supervisor:S1".
func bareID(actor string) string {
	if i := strings.IndexByte(actor, ':'); i >= 0 {
		return actor[i+1:]
	}
	return actor
}

func stopPB(s ledger.Stop) *pb.TicketStop {
	out := &pb.TicketStop{Id: s.ID, ValidationNumber: s.Validation, Kind: s.Kind, Reason: s.Reason, Amount: s.Amount,
		TableId: s.Table, OverpaymentId: s.Overpayment, StoppedBy: s.By, StoppedAtUnixNanos: s.At.UnixNano(),
		ReleasedBy: s.ReleasedBy, ReleaseNote: s.ReleaseNote}
	if !s.Released.IsZero() {
		out.ReleasedAtUnixNanos = s.Released.UnixNano()
	}
	return out
}

// inCurrency is an amount as the cage's messages write it: "A$10,040.00".
func (t *Table) inCurrency(cents int64) string { return money.InCurrency(t.cfg.Currency, cents) }

// stopOverpaid stops the tickets an overpayment's money left in (still payable ones: one
// already paid is beyond the cage's reach, and the overpayment says so by naming it).
func (t *Table) stopOverpaid(tx *ledger.Tx, o ledger.Overpayment, change string, now time.Time) error {
	for _, vn := range o.Tickets {
		tk, ok, err := tx.Ticket(vn)
		if err != nil {
			return err
		}
		if !ok || !ledger.TicketOpen(tk.State) {
			continue
		}
		s := ledger.Stop{Validation: vn, ID: o.ID, Kind: ledger.StopOverpayment,
			Reason: fmt.Sprintf("overpayment of %s after %s", t.inCurrency(o.Amount), change),
			Amount: o.Amount, Table: t.cfg.TableID, Overpayment: o.ID, By: t.actorName(), At: now}
		if err := tx.PutStop(s); err != nil {
			return err
		}
		if err := tx.Event("ticket-stopped", tk.Terminal, o.Round, tk.Amount, fmt.Sprintf("%s: %s", vn, s.Reason)); err != nil {
			return err
		}
	}
	return nil
}

// actorName is who is acting now, as a stop records it ("system" when the table acts itself).
func (t *Table) actorName() string {
	if t.actor == "" {
		return "system"
	}
	return t.actor
}

// changeOf is what found an overpayment, as a stop says it: "the correction of round R7
// 17→20", "the invalidation of round R7 (wheel fault)".
func changeOf(round, why string) string {
	var from, to string
	if n, _ := fmt.Sscanf(why, "correction %s -> %s", &from, &to); n == 2 {
		return fmt.Sprintf("the correction of round %s %s→%s", round, from, to)
	}
	if r, ok := strings.CutPrefix(why, "invalidated: "); ok {
		return fmt.Sprintf("the invalidation of round %s (%s)", round, r)
	}
	return fmt.Sprintf("round %s: %s", round, why)
}

// releaseOverpaid releases the stops an overpayment made, as it is resolved.
func (t *Table) releaseOverpaid(tx *ledger.Tx, o ledger.Overpayment, actor, note string, now time.Time) error {
	stops, err := tx.StopsOf(t.cfg.TableID, o.ID)
	if err != nil {
		return err
	}
	for _, s := range stops {
		if !s.Open() {
			continue
		}
		s.ReleasedBy, s.Released, s.ReleaseNote = actor, now, fmt.Sprintf("overpayment %s %s: %s", o.ID, o.State, note)
		if err := tx.PutStop(s); err != nil {
			return err
		}
		if err := tx.Event("ticket-stop-released", "", o.Round, o.Amount, fmt.Sprintf("%s: %s", s.Validation, s.ReleaseNote)); err != nil {
			return err
		}
	}
	return nil
}

// stopRefusal is a terminal's refusal of a stopped ticket, in words the player reads: the
// table's key (table.TicketStopped) first, so the terminal says it in the player's language.
func stopRefusal(vn string, stops []ledger.Stop) error {
	return failed("%s: ticket %s is held for a casino supervisor (%s)", table.TicketStopped, vn, stopText(stops[0]))
}

// text checks a supervisor's free text (a reason, a note): required, one line, bounded.
func text(what, s string) (string, error) {
	s = strings.TrimSpace(s)
	switch {
	case s == "":
		return "", invalid("%s is required", what)
	case len(s) > maxStopText:
		return "", invalid("%s: %d bytes, at most %d", what, len(s), maxStopText)
	case !utf8.ValidString(s):
		return "", invalid("%s is not UTF-8", what)
	case strings.IndexFunc(s, unicode.IsControl) >= 0:
		return "", invalid("%s: one line of text, no control characters", what)
	}
	return s, nil
}

// stopCall runs a supervisor's call on a ticket's stops: under the table's lock, as actor,
// throttled as the supervisor's other ticket calls are, idempotent by key (request names what
// it does), on the ticket read (and, on PostgreSQL, locked) first — so a stop and a payment of
// one ticket happen one after the other.
func (t *Table) stopCall(actor, validation, key, request string, fn func(tx *ledger.Tx, tk ledger.Ticket, now time.Time) (*pb.TicketStop, error)) (*pb.TicketStop, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	defer t.actAs(actor)()
	scope := dealerScope(actor)
	if err := t.guessAhead(scope); err != nil {
		return nil, err
	}
	vn, _ := ParseValidation(validation)
	res, _, err := moneyCall(t, scope, key, request+" "+vn, func() *pb.TicketStop { return &pb.TicketStop{} },
		func(tx *ledger.Tx, now time.Time) (*pb.TicketStop, func(), error) {
			tk, err := t.cageTicket(tx, validation)
			if err != nil {
				return nil, nil, err
			}
			out, err := fn(tx, tk, now)
			return out, nil, err
		})
	return res, t.guessAfter(scope, validation, err)
}

// StopTicket stops a ticket at every cage and terminal of the floor, at a supervisor's word.
func (t *Table) StopTicket(actor string, req *pb.StopTicketRequest) (*pb.TicketStop, error) {
	reason, err := text("a stop's reason (lost, stolen, disputed: …)", req.Reason)
	if err != nil {
		return nil, err
	}
	return t.stopCall(actor, req.ValidationNumber, req.IdempotencyKey, "stop "+reason, func(tx *ledger.Tx, tk ledger.Ticket, now time.Time) (*pb.TicketStop, error) {
		switch tk.State {
		case ledger.TicketRedeemed:
			return nil, failed("ticket %s has already been paid (%s): there is nothing left to stop", tk.Validation, redeemedWhere(tk))
		case ledger.TicketHandpaid, ledger.TicketPrintFailed:
			return nil, failed("ticket %s did not print and is paid by hand at %s: any copy is void already", tk.Validation, issuerOf(tk, t.cfg.TableID))
		}
		s := ledger.Stop{Validation: tk.Validation, ID: newID("S"), Kind: ledger.StopSupervisor, Reason: reason,
			Table: t.cfg.TableID, By: actor, At: now}
		if err := tx.PutStop(s); err != nil {
			return nil, err
		}
		detail := fmt.Sprintf("%s: stopped by %s: %s", tk.Validation, actor, reason)
		if tk.State == ledger.TicketRedeeming {
			detail += fmt.Sprintf(" (held in the acceptor of %s, which may still credit it)", holderName(tk))
		}
		return stopPB(s), tx.Event("ticket-stopped", tk.Terminal, "", tk.Amount, detail)
	})
}

// ReleaseTicketStop releases a supervisor's stop, recording who, when and why.
func (t *Table) ReleaseTicketStop(actor string, req *pb.ReleaseTicketStopRequest) (*pb.TicketStop, error) {
	note, err := text("a release's note (why it may be paid)", req.Note)
	if err != nil {
		return nil, err
	}
	if req.StopId == "" {
		return nil, invalid("the stop's id is required (the look-up lists a ticket's stops)")
	}
	return t.stopCall(actor, req.ValidationNumber, req.IdempotencyKey, "release-stop "+req.StopId, func(tx *ledger.Tx, tk ledger.Ticket, now time.Time) (*pb.TicketStop, error) {
		all, err := tx.Stops(tk.Validation)
		if err != nil {
			return nil, err
		}
		for _, s := range all {
			if s.ID != req.StopId {
				continue
			}
			switch {
			case !s.Open():
				return nil, failed("stop %s of ticket %s was released by %s on %s", s.ID, s.Validation, s.ReleasedBy,
					s.Released.UTC().Format("2006-01-02 15:04:05 UTC"))
			case s.Kind == ledger.StopOverpayment:
				return nil, failed("stop %s of ticket %s is overpayment %s of table %s: it is released when a supervisor of %s resolves the overpayment (recovered or written off)",
					s.ID, s.Validation, s.Overpayment, s.Table, s.Table)
			}
			s.ReleasedBy, s.Released, s.ReleaseNote = actor, now, note
			if err := tx.PutStop(s); err != nil {
				return nil, err
			}
			return stopPB(s), tx.Event("ticket-stop-released", tk.Terminal, "", tk.Amount,
				fmt.Sprintf("%s: stop %s (%s) released by %s: %s", s.Validation, s.ID, s.Reason, actor, note))
		}
		return nil, failed("ticket %s has no stop %s", tk.Validation, req.StopId)
	})
}

// issuerOf is the table that printed a ticket ("" before tables were recorded: this one).
func issuerOf(tk ledger.Ticket, here string) string {
	if tk.IssuerTable == "" {
		return here
	}
	return tk.IssuerTable
}
