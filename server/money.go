package server

import (
	"fmt"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	pb "github.com/tablegames/ats/proto/ats/table/v1"
	"github.com/tablegames/ats/proto/wire"

	"github.com/tablegames/ats/app/money"
	"github.com/tablegames/ats/app/table"
	"github.com/tablegames/ats/server/ledger"
)

// The money calls take and answer protobuf messages, unlike the rest of the engine: a reply is
// stored in the ledger as its wire bytes, in the transaction that moves the money, and a retry
// with the same idempotency key is answered with exactly those bytes — so the wire form is
// the record here, not a view of it. Their events are model events like every other.

// moneyCall runs one money movement exactly once per (caller, key). The movement, its audit
// record and the stored reply commit in one transaction; a retry with the same key gets the
// stored reply and moves nothing; the same key with a different request is refused.
// fn returns the reply and a function that applies the change to memory once committed.
func moneyCall[R proto.Message](t *Table, caller, key, request string, fresh func() R,
	fn func(tx *ledger.Tx, now time.Time) (R, func(), error)) (R, bool, error) {
	var zero R
	if err := checkIdempotencyKey(key); err != nil {
		return zero, false, err
	}
	now := t.now()
	var reply R
	var apply func()
	replayed := false
	ctx := t.bg()
	if t.actor == "" { // a terminal's own call: the terminal is its actor
		ctx = ledger.WithActor(ctx, "terminal:"+caller)
	}
	err := t.led.Update(ctx, now, func(tx *ledger.Tx) error {
		stored, seen, err := tx.Idempotent(caller, key, request)
		if err != nil {
			return err
		}
		if seen {
			reply = fresh()
			replayed = true
			return proto.Unmarshal(stored, reply)
		}
		reply, apply, err = fn(tx, now)
		if err != nil {
			return err
		}
		b, err := proto.Marshal(reply)
		if err != nil {
			return err
		}
		return tx.Remember(caller, key, request, b)
	})
	if err != nil {
		return zero, false, ledgerErr(err)
	}
	if apply != nil {
		apply()
	}
	return reply, replayed, nil
}

func (t *Table) account(id string) *account {
	a := t.accounts[id]
	if a == nil {
		a = &account{}
		t.accounts[id] = a
	}
	return a
}

func (t *Table) balanceEvent(now time.Time, terminal string, delta int64, reason string) {
	t.emit(now, terminal, table.BalanceChanged{Balance: t.accounts[terminal].balance, Delta: delta, Reason: reason})
}

// moneyInAllowed refuses money in while the table cannot take it (closed, frozen).
func (t *Table) moneyInAllowed() error {
	if !t.open {
		return failed("the table is closed")
	}
	if t.frozen {
		return failed("accounts are frozen while a result is corrected")
	}
	return nil
}

// terminalCashAllowed refuses a money path of the terminal's own — a note, a ticket in, a
// ticket printed — at a table whose rules take and pay money only through the dealer: the
// Victorian ATS (004 §6.2 buy-in by tendering to the dealer, §6.6 the balance paid in chips)
// and the TouchTable Player Display (000 §11.7.2, §11.7.6). There the dealer buys in
// (CreditPlayer, confirmed on the screen) and cashes out (ClosePlayerAccount). The check runs
// after the idempotency lookup, so a retry of money already moved is answered the same.
func (t *Table) terminalCashAllowed(what string) error {
	if !t.config.DealerCashOnly {
		return nil
	}
	return failed("%s refused: under the %s rules money is taken and paid only by the dealer — buy in at the dealer, cash out in chips at the dealer (004 §6.2, §6.6; 000 §11.7)",
		what, t.config.RulesProfile)
}

// RequestDealerCashOut is the player selecting Cash out where the dealer pays the balance in
// chips (004 §6.6; 000 §11.7.6: "he/she selects Cash-Out … the Dealer must pay out the full
// value … by tendering chips"): it moves no money, it asks the dealer, whose status shows the
// request until the dealer closes the account (ClosePlayerAccount). Asking again is harmless.
// Elsewhere the terminal prints a ticket, so the request is refused.
func (t *Table) RequestDealerCashOut(terminal string) (int64, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	defer t.actAs("terminal:" + terminal)()
	if !t.config.DealerCashOnly {
		return 0, failed("at this table Cash out prints a ticket: there is no cash-out at the dealer to ask for")
	}
	a := t.accounts[terminal]
	if a == nil || !a.open || a.balance <= 0 {
		return 0, failed("nothing to cash out")
	}
	if t.cashOutAsked[terminal] {
		return a.balance, nil
	}
	err := t.led.Update(t.bg(), t.now(), func(tx *ledger.Tx) error {
		return tx.Event("dealer-cash-out-requested", terminal, "", a.balance, "the player selected Cash out: the dealer pays in chips (004 §6.6, 000 §11.7.6)")
	})
	if err != nil {
		return 0, ledgerErr(err)
	}
	t.cashOutAsked[terminal] = true
	return a.balance, nil
}

// CreditNote credits a note the acceptor has stacked (001 §6.2.2). The server checks what the
// terminal reports: the note code must be one of the table's currency table (Config.Notes) and
// the amount that code's value, and the new balance must fit the table's maximum. The checks
// run after the idempotency lookup, so a retry of a note already credited is answered the same
// even if the table's configuration changed in between.
func (t *Table) CreditNote(terminal string, req *pb.CreditNoteRequest) (*pb.MoneyResponse, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	request := fmt.Sprintf("note %d %s", req.Amount, req.NoteCode)
	res, replayed, err := moneyCall(t, terminal, req.IdempotencyKey, request, func() *pb.MoneyResponse { return &pb.MoneyResponse{} },
		func(tx *ledger.Tx, now time.Time) (*pb.MoneyResponse, func(), error) {
			if err := t.terminalCashAllowed("a note credit"); err != nil {
				return nil, nil, err
			}
			if err := t.checkNote(req.NoteCode, req.Amount); err != nil {
				return nil, nil, err
			}
			if err := t.moneyInAllowed(); err != nil {
				return nil, nil, err
			}
			bal, _, err := tx.Account(terminal)
			if err != nil {
				return nil, nil, err
			}
			if bal, err = t.moneyInCapped(terminal, bal, req.Amount); err != nil {
				return nil, nil, err
			}
			if err := claimNote(tx, terminal, req); err != nil { // anchor.go: only a note reported in escrow
				return nil, nil, err
			}
			if err := tx.SetAccount(terminal, bal, true); err != nil {
				return nil, nil, err
			}
			if _, err := tx.AddMeter(ledger.MeterMoneyIn, req.Amount); err != nil {
				return nil, nil, err
			}
			if err := tx.Event("note-in", terminal, "", req.Amount, req.NoteCode); err != nil {
				return nil, nil, err
			}
			return &pb.MoneyResponse{Balance: bal, Amount: req.Amount}, func() {
				a := t.account(terminal)
				a.balance, a.open = bal, true
				t.balanceEvent(now, terminal, req.Amount, "note")
			}, nil
		})
	if res != nil {
		res.Replayed = replayed
	}
	return res, err
}

// checkNote refuses a note the table's currency table does not know at that value.
func (t *Table) checkNote(code string, amount int64) error {
	value, ok := t.cfg.Notes[code]
	switch {
	case !ok:
		return invalid("%s: note code %q is not a note this table accepts", table.NoteNotAccepted, code)
	case amount != value:
		return invalid("%s: note %s is worth %s, not %s", table.NoteNotAccepted, code, money.Decimal(value), money.Decimal(amount))
	}
	return nil
}

// RedeemTicket holds a ticket for this terminal while the acceptor keeps it in escrow
// (001 §6.2.3). It is credited only by CommitRedeem, once stacked. A hold stands for the
// table's hold time (Config.TicketHold); after it another terminal may take the ticket. A
// terminal holds one ticket at a time, within the table's maximum balance (holdFits). A
// terminal with too many failed validations is refused for a while (redeem.go).
func (t *Table) RedeemTicket(terminal string, req *pb.RedeemTicketRequest) (*pb.RedeemTicketResponse, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := t.guessAhead(terminal); err != nil {
		return nil, err
	}
	res, _, err := moneyCall(t, terminal, req.IdempotencyKey, "redeem "+req.ValidationNumber, func() *pb.RedeemTicketResponse { return &pb.RedeemTicketResponse{} },
		func(tx *ledger.Tx, now time.Time) (*pb.RedeemTicketResponse, func(), error) {
			if err := t.terminalCashAllowed("a ticket buy-in"); err != nil {
				return nil, nil, err
			}
			if err := t.moneyInAllowed(); err != nil {
				return nil, nil, err
			}
			if err := t.tournamentMoneyRefusal("a ticket buy-in"); err != nil {
				return nil, nil, err
			}
			tk, err := t.ticket(tx, req.ValidationNumber)
			if err != nil {
				return nil, nil, err
			}
			// Only a ticket confirmed printed is money its bearer holds. One still printing may
			// yet be reported unprintable, and one reported unprintable is paid by hand: a copy
			// that came out anyway must not be paid a second time.
			lapsed := ""
			switch tk.State {
			case ledger.TicketPrinted:
			case ledger.TicketRedeemed:
				return nil, nil, failed("ticket %s has already been redeemed (%s)", tk.Validation, redeemedWhere(tk))
			case ledger.TicketHandpaid, ledger.TicketPrintFailed:
				return nil, nil, failed("ticket %s could not be printed and is paid by hand: this copy is void", tk.Validation)
			case ledger.TicketIssued:
				return nil, nil, failed("ticket %s is not confirmed printed", tk.Validation)
			case ledger.TicketRedeeming:
				if !t.holds(tk, terminal) {
					if !t.holdLapsed(tk, now) {
						return nil, nil, failed("ticket %s is being redeemed at another terminal (%s; its hold lapses at %s)",
							tk.Validation, holderName(tk), tk.HeldAt.Add(t.cfg.TicketHold).Format(time.TimeOnly))
					}
					lapsed = holderName(tk)
				}
			default:
				return nil, nil, failed("ticket %s is %s", tk.Validation, tk.State)
			}
			if now.After(tk.Expires) {
				return nil, nil, failed("ticket %s expired on %s", tk.Validation, tk.Expires.Format(time.DateOnly))
			}
			stops, err := openStops(tx, tk.Validation)
			if err != nil {
				return nil, nil, err
			}
			if len(stops) > 0 {
				return nil, nil, stopRefusal(tk.Validation, stops)
			}
			bal, _, err := tx.Account(terminal)
			if err != nil {
				return nil, nil, err
			}
			held, err := tx.HeldBy(t.cfg.TableID, terminal)
			if err != nil {
				return nil, nil, err
			}
			if err := t.holdFits(terminal, bal, tk, held, now); err != nil {
				return nil, nil, err
			}
			if lapsed != "" {
				if err := tx.Event("ticket-hold-lapsed", t.qualified(tk.HolderTable, tk.Holder), "", tk.Amount,
					fmt.Sprintf("%s: held by %s since %s, taken by %s at %s", tk.Validation, lapsed, tk.HeldAt.Format(time.RFC3339), terminal, t.cfg.TableID)); err != nil {
					return nil, nil, err
				}
			}
			tk.State, tk.HolderTable, tk.Holder, tk.HeldAt = ledger.TicketRedeeming, t.cfg.TableID, terminal, now
			if err := tx.PutTicket(tk); err != nil {
				return nil, nil, err
			}
			return &pb.RedeemTicketResponse{Amount: tk.Amount}, nil, tx.Event("ticket-hold", terminal, "", tk.Amount, tk.Validation+issuedAt(tk, t.cfg.TableID))
		})
	return res, t.guessAfter(terminal, req.ValidationNumber, err)
}

// holdFits refuses a hold the terminal's acceptor could not be in, or whose commit could take
// its balance above the table's maximum (issue 34, attack 4). The acceptor has one ticket in
// escrow at a time, so a second unlapsed hold is refused; and every ticket the terminal may
// still commit (heldBy: a lapsed or released hold too) counts against the maximum, since
// CommitRedeem cannot refuse a ticket already in the cash box. held is what tx.HeldBy read;
// tk itself among it is a retry of its own hold, not a second ticket.
func (t *Table) holdFits(terminal string, balance int64, tk ledger.Ticket, held []ledger.Ticket, now time.Time) error {
	total, err := money.Add(balance, tk.Amount)
	if err != nil {
		return invalid("ticket %s: %v", tk.Validation, err)
	}
	for _, h := range held {
		if h.Validation == tk.Validation {
			continue
		}
		if h.State == ledger.TicketRedeeming && !t.holdLapsed(h, now) {
			return failed("%s: terminal %s holds ticket %s for %s in its acceptor; it takes one ticket at a time",
				table.TicketAlreadyInEscrow, terminal, h.Validation, money.Decimal(h.Amount))
		}
		if total, err = money.Add(total, h.Amount); err != nil {
			return invalid("ticket %s: %v", tk.Validation, err)
		}
	}
	if total > t.cfg.MaxBalance {
		return failed("%s: ticket %s for %s would take terminal %s to %s (balance %s and tickets held %s), above the table's maximum balance of %s",
			table.TicketAboveMaximum, tk.Validation, money.Decimal(tk.Amount), terminal, money.Decimal(total),
			money.Decimal(balance), money.Decimal(total-balance-tk.Amount), money.Decimal(t.cfg.MaxBalance))
	}
	return nil
}

// heldBy reports whether terminal of table may commit or cancel a ticket: it holds it, or it
// held it last and the hold was released or lapsed with nobody else taking it since (its
// acceptor may have stacked the ticket while the dealer released it, and that must still be
// credited once). A hold is a table's and a terminal's: terminal ids repeat from table to
// table, so T01 of another table holding the ticket is not this T01.
func heldBy(tk ledger.Ticket, table, terminal string) bool {
	return sameHolder(tk, table, terminal) && (tk.State == ledger.TicketRedeeming || tk.State == ledger.TicketPrinted)
}

// sameHolder reports whether a ticket's holder is terminal of table. A hold with no table was
// taken before holds recorded one, when the ticket could only be held at this table.
func sameHolder(tk ledger.Ticket, table, terminal string) bool {
	return tk.Holder == terminal && (tk.HolderTable == table || tk.HolderTable == "")
}

// holds reports whether this table's terminal is the ticket's holder.
func (t *Table) holds(tk ledger.Ticket, terminal string) bool {
	return sameHolder(tk, t.cfg.TableID, terminal)
}

// holderName is a ticket's holder as the audit log and a refusal name it: "T01 at T2".
func holderName(tk ledger.Ticket) string {
	if tk.HolderTable == "" {
		return tk.Holder
	}
	return tk.Holder + " at " + tk.HolderTable
}

// redeemedWhere says where and when a redeemed ticket was redeemed, for a refusal.
func redeemedWhere(tk ledger.Ticket) string {
	if tk.RedeemedWhere == "" {
		return "at this table"
	}
	s := "at " + tk.RedeemedWhere
	if tk.RedeemedWhere == ledger.RedeemedAtCage {
		s = "at the cage"
	}
	if tk.RedeemedBy != "" {
		s += " by " + tk.RedeemedBy
	}
	if !tk.RedeemedAt.IsZero() {
		s += " on " + tk.RedeemedAt.UTC().Format("2006-01-02 15:04:05 UTC")
	}
	return s
}

// issuedAt is the audit log's note of a ticket printed at another table: " (issued at T1)".
func issuedAt(tk ledger.Ticket, here string) string {
	if tk.IssuerTable == "" || tk.IssuerTable == here {
		return ""
	}
	return " (issued at " + tk.IssuerTable + ")"
}

func (t *Table) ticket(tx *ledger.Tx, validation string) (ledger.Ticket, error) {
	if len(validation) != 18 {
		return ledger.Ticket{}, invalid("validation number %q: must be 18 digits", validation)
	}
	tk, ok, err := tx.Ticket(validation)
	if err != nil {
		return tk, err
	}
	if !ok {
		return tk, status.Errorf(codes.NotFound, "no ticket %s", validation)
	}
	return tk, nil
}

// CommitRedeem credits a held ticket: the acceptor has stacked it. A ticket redeems once, ever.
func (t *Table) CommitRedeem(terminal string, req *pb.TicketRequest) (*pb.MoneyResponse, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	res, replayed, err := moneyCall(t, terminal, req.IdempotencyKey, "commit "+req.ValidationNumber, func() *pb.MoneyResponse { return &pb.MoneyResponse{} },
		func(tx *ledger.Tx, now time.Time) (*pb.MoneyResponse, func(), error) {
			tk, err := t.heldTicket(tx, req.ValidationNumber, terminal)
			if err != nil {
				return nil, nil, err
			}
			tk.State, tk.HolderTable, tk.Holder, tk.HeldAt = ledger.TicketRedeemed, "", "", time.Time{}
			tk.RedeemedWhere, tk.RedeemedBy, tk.RedeemedAt = t.cfg.TableID, terminal, now
			if err := tx.PutTicket(tk); err != nil {
				return nil, nil, err
			}
			bal, _, err := tx.Account(terminal)
			if err != nil {
				return nil, nil, err
			}
			// Stacked already: the cap was checked when the hold was taken, with every other
			// ticket this terminal may commit (holdFits), and refusing now would keep the
			// player's ticket in the cash box uncredited.
			if bal, err = money.Add(bal, tk.Amount); err != nil {
				return nil, nil, invalid("ticket %s: %v", tk.Validation, err)
			}
			if err := tx.SetAccount(terminal, bal, true); err != nil {
				return nil, nil, err
			}
			if err := tx.Event("ticket-in", terminal, "", tk.Amount, tk.Validation+issuedAt(tk, t.cfg.TableID)); err != nil {
				return nil, nil, err
			}
			if err := t.tellIssuer(tx, tk, "ticket-redeemed", "redeemed at table "+t.cfg.TableID+" by its terminal "+terminal, now); err != nil {
				return nil, nil, err
			}
			return &pb.MoneyResponse{Balance: bal, Amount: tk.Amount}, func() {
				a := t.account(terminal)
				a.balance, a.open = bal, true
				t.balanceEvent(now, terminal, tk.Amount, "ticket")
			}, nil
		})
	if res != nil {
		res.Replayed = replayed
	}
	return res, t.guessAfter(terminal, req.ValidationNumber, err)
}

// heldTicket reads a ticket this terminal may commit or cancel (heldBy); any other ticket is
// answered as a number that is no ticket.
func (t *Table) heldTicket(tx *ledger.Tx, validation, terminal string) (ledger.Ticket, error) {
	return t.ownTicket(tx, validation, "held by this terminal", func(tk ledger.Ticket) bool {
		return heldBy(tk, t.cfg.TableID, terminal)
	})
}

// CancelRedeem releases a held ticket that the acceptor gave back to the player.
func (t *Table) CancelRedeem(terminal string, req *pb.TicketRequest) (*pb.MoneyResponse, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	res, replayed, err := moneyCall(t, terminal, req.IdempotencyKey, "cancel "+req.ValidationNumber, func() *pb.MoneyResponse { return &pb.MoneyResponse{} },
		func(tx *ledger.Tx, now time.Time) (*pb.MoneyResponse, func(), error) {
			tk, err := t.heldTicket(tx, req.ValidationNumber, terminal)
			if err != nil {
				return nil, nil, err
			}
			tk.State, tk.HolderTable, tk.Holder, tk.HeldAt = ledger.TicketPrinted, "", "", time.Time{}
			if err := tx.PutTicket(tk); err != nil {
				return nil, nil, err
			}
			bal, _, err := tx.Account(terminal)
			if err != nil {
				return nil, nil, err
			}
			return &pb.MoneyResponse{Balance: bal}, nil, tx.Event("ticket-returned", terminal, "", tk.Amount, tk.Validation)
		})
	if res != nil {
		res.Replayed = replayed
	}
	return res, t.guessAfter(terminal, req.ValidationNumber, err)
}

// slipBlocksCashOut: during the wagering period a cash-out withdraws the slip (the player may
// withdraw wagers until the deadline, rule 3.7); after the deadline the slip is being settled
// and the balance is not final, so cash-out waits for the result.
func (t *Table) slipBlocksCashOut(terminal string) (voidRound string, err error) {
	if t.cur == nil {
		return "", nil
	}
	if sl := t.cur.slip(terminal); sl == nil || sl.total == 0 {
		return "", nil
	}
	switch t.cur.phase {
	case table.PhaseWagering:
		return t.cur.id, nil
	case table.PhaseNoMoreBets:
		return "", failed("wagers are being settled; cash out after the result")
	}
	return "", nil
}

// CashOut pays the whole balance by ticket and closes the account (001 §6.6.1(b)).
func (t *Table) CashOut(terminal string, req *pb.CashOutRequest) (*pb.CashOutResponse, error) {
	// The player has left: the seat's card is free for another seat (carded.go). Released
	// after the table's lock, which a carded slip takes after the seat's.
	left := false
	defer func() {
		if left {
			t.releaseCard(terminal)
		}
	}()
	t.mu.Lock()
	defer t.mu.Unlock()
	res, _, err := moneyCall(t, terminal, req.IdempotencyKey, "cash-out", func() *pb.CashOutResponse { return &pb.CashOutResponse{} },
		func(tx *ledger.Tx, now time.Time) (*pb.CashOutResponse, func(), error) {
			if err := t.terminalCashAllowed("a ticket cash-out"); err != nil {
				return nil, nil, err
			}
			if err := t.tournamentMoneyRefusal("a ticket cash-out"); err != nil {
				return nil, nil, err
			}
			if t.frozen {
				return nil, nil, failed("accounts are frozen while a result is corrected")
			}
			voidRound, err := t.slipBlocksCashOut(terminal)
			if err != nil {
				return nil, nil, err
			}
			bal, _, err := tx.Account(terminal)
			if err != nil {
				return nil, nil, err
			}
			if bal <= 0 {
				return nil, nil, failed("nothing to cash out")
			}
			if voidRound != "" {
				if err := tx.DeleteSlip(voidRound, terminal); err != nil {
					return nil, nil, err
				}
			}
			// The card's hold of the round: the voided slip's, or the seat's reservation.
			if err := t.voidCardHold(tx, voidRound, terminal); err != nil {
				return nil, nil, err
			}
			num, err := tx.AddMeter(ledger.MeterTicketSeq, 1)
			if err != nil {
				return nil, nil, err
			}
			tk := ledger.Ticket{Number: num, Terminal: terminal, Amount: bal, Issued: now,
				Expires: now.Add(t.cfg.TicketExpiry), State: ledger.TicketIssued, IssuerTable: t.cfg.TableID}
			for {
				tk.Validation = newValidation()
				if _, taken, err := tx.Ticket(tk.Validation); err != nil {
					return nil, nil, err
				} else if !taken {
					break
				}
			}
			if err := tx.PutTicket(tk); err != nil {
				return nil, nil, err
			}
			if err := tx.SetAccount(terminal, 0, false); err != nil {
				return nil, nil, err
			}
			// The epoch ends in this ticket: a later correction that finds it overpaid stops it
			// (overpay.go).
			epoch, err := tx.Epoch(terminal)
			if err != nil {
				return nil, nil, err
			}
			if err := tx.PutCashout(terminal, epoch, tk.Validation); err != nil {
				return nil, nil, err
			}
			// The player has left: a later correction of their rounds is theirs, not the next
			// player's (overpay.go).
			if err := tx.NextEpoch(terminal); err != nil {
				return nil, nil, err
			}
			if err := tx.Event("cash-out", terminal, "", bal, tk.Validation); err != nil {
				return nil, nil, err
			}
			ticket := ticketOf(tk, t.cfg.Venue)
			return &pb.CashOutResponse{Ticket: wire.TicketPB(ticket), Balance: 0}, func() {
				a := t.account(terminal)
				a.balance, a.open = 0, false
				left = true
				if voidRound != "" && t.cur != nil {
					delete(t.cur.slips, terminal)
				}
				t.emit(now, terminal, table.AccountClosed{Reason: "cash-out", Amount: bal, Ticket: ticket})
			}, nil
		})
	return res, err
}

// ticketOf is a ledger ticket as the terminal is told of it.
func ticketOf(tk ledger.Ticket, venue string) *table.Ticket {
	return &table.Ticket{Validation: tk.Validation, Amount: tk.Amount, Number: tk.Number, Issued: tk.Issued,
		Expires: tk.Expires, TerminalID: tk.Terminal, Venue: venue, State: tk.State}
}

// ticketState moves a ticket this terminal issued from issued/print-failed to a new print state.
func (t *Table) ticketState(terminal, key, verb, validation, to string) (*pb.MoneyResponse, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	res, replayed, err := moneyCall(t, terminal, key, verb+" "+validation, func() *pb.MoneyResponse { return &pb.MoneyResponse{} },
		func(tx *ledger.Tx, now time.Time) (*pb.MoneyResponse, func(), error) {
			tk, err := t.ownTicket(tx, validation, "issued by this terminal", func(tk ledger.Ticket) bool {
				return tk.Terminal == terminal && (tk.IssuerTable == "" || tk.IssuerTable == t.cfg.TableID)
			})
			if err != nil {
				return nil, nil, err
			}
			if tk.State != ledger.TicketIssued && tk.State != ledger.TicketPrintFailed {
				return nil, nil, failed("ticket %s is %s", validation, tk.State)
			}
			tk.State = to
			if err := tx.PutTicket(tk); err != nil {
				return nil, nil, err
			}
			return &pb.MoneyResponse{Amount: tk.Amount}, nil, tx.Event("ticket-"+to, terminal, "", tk.Amount, validation)
		})
	if res != nil {
		res.Replayed = replayed
	}
	return res, t.guessAfter(terminal, validation, err)
}

// TicketPrinted records the printer's confirmation. A reprint of a print-failed ticket is the
// same ticket, so it can still only be redeemed or hand-paid once.
func (t *Table) TicketPrinted(terminal string, req *pb.TicketRequest) (*pb.MoneyResponse, error) {
	return t.ticketState(terminal, req.IdempotencyKey, "printed", req.ValidationNumber, ledger.TicketPrinted)
}

// TicketPrintFailed records that the ticket did not print; the dealer may hand-pay it.
func (t *Table) TicketPrintFailed(terminal string, req *pb.TicketPrintFailedRequest) (*pb.MoneyResponse, error) {
	return t.ticketState(terminal, req.IdempotencyKey, "print-failed", req.ValidationNumber, ledger.TicketPrintFailed)
}

// ConfirmBuyIn accepts or declines a dealer buy-in (004 §6.3(c)): the money reaches the chip
// account only when the player accepts on the screen.
func (t *Table) ConfirmBuyIn(terminal string, req *pb.ConfirmBuyInRequest) (*pb.MoneyResponse, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	request := fmt.Sprintf("buy-in %s %v", req.BuyInId, req.Accept)
	res, replayed, err := moneyCall(t, terminal, req.IdempotencyKey, request, func() *pb.MoneyResponse { return &pb.MoneyResponse{} },
		func(tx *ledger.Tx, now time.Time) (*pb.MoneyResponse, func(), error) {
			b, ok, err := tx.BuyIn(req.BuyInId)
			if err != nil {
				return nil, nil, err
			}
			if !ok || b.Terminal != terminal {
				return nil, nil, status.Errorf(codes.NotFound, "no buy-in %s for this terminal", req.BuyInId)
			}
			if b.State != "offered" {
				return nil, nil, failed("buy-in %s is already %s", b.ID, b.State)
			}
			bal, _, err := tx.Account(terminal)
			if err != nil {
				return nil, nil, err
			}
			b.State = "declined"
			if req.Accept {
				b.State = "accepted"
				if bal, err = t.moneyInCapped(terminal, bal, b.Amount); err != nil {
					return nil, nil, err
				}
				if err := tx.SetAccount(terminal, bal, true); err != nil {
					return nil, nil, err
				}
				if _, err := tx.AddMeter(ledger.MeterMoneyIn, b.Amount); err != nil {
					return nil, nil, err
				}
			}
			if err := tx.PutBuyIn(b); err != nil {
				return nil, nil, err
			}
			if err := tx.Event("buy-in-"+b.State, terminal, "", b.Amount, b.ID); err != nil {
				return nil, nil, err
			}
			amount := int64(0)
			if req.Accept {
				amount = b.Amount
			}
			return &pb.MoneyResponse{Balance: bal, Amount: amount}, func() {
				t.buyins[b.ID] = b
				if req.Accept {
					a := t.account(terminal)
					a.balance, a.open = bal, true
					t.balanceEvent(now, terminal, b.Amount, "dealer-buy-in")
				}
			}, nil
		})
	if res != nil {
		res.Replayed = replayed
	}
	return res, err
}
