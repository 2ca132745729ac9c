package server

// The server's part in keeping the terminals' records honest (app/journal's seal):
//
//   - Anchors. Every money request a terminal makes carries its journal's head (seq and MAC of
//     its last record, field 15). Once the server has acknowledged the request, it keeps that
//     head as the terminal's anchor (ledger journal_anchors, newest first, never moved back);
//     a head that names the anchored record with another MAC is refused before anything moves
//     (two journals speaking for one terminal). A terminal reads its anchor when it starts
//     (GetJournalAnchor) and refuses money if its journal no longer holds that record.
//
//   - Note claims. The one money request whose amount comes from the terminal is CreditNote:
//     after a restart, the terminal's recovery asks for the credits its journal says are owed.
//     A journal record forged to say 10,000.00 is owed would be paid. So a terminal reports
//     each note in escrow (ReportNoteEscrow) before it has it stacked, and CreditNote pays only
//     a reported note, once, for the amount reported. Tickets need no such rule: CommitRedeem
//     already pays only a ticket this terminal holds, for the ticket's own amount. A forger
//     with the terminal's journal key can at most claim a note that really was in escrow and
//     was returned — never more than was put in, and the cash box count shows it.

import (
	"context"
	"errors"
	"strings"
	"unicode"
	"unicode/utf8"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/tablegames/ats/app/table"
	pb "github.com/tablegames/ats/proto/ats/table/v1"
	"github.com/tablegames/ats/server/ledger"
	"github.com/tablegames/ats/server/pki"
)

// headed is a request that carries the terminal journal's head.
type headed interface{ GetJournalHead() *pb.JournalHead }

// checkHead is the head a request carries, checked for form; ok false when it carries none (a
// client from before the anchor, or grpcurl).
func checkHead(h *pb.JournalHead) (ledger.Anchor, bool, error) {
	if h == nil {
		return ledger.Anchor{}, false, nil
	}
	switch {
	case h.Seq < 0:
		return ledger.Anchor{}, false, invalid("journal_head.seq %d: must not be negative", h.Seq)
	case h.Seq == 0 && len(h.Mac) != 0:
		return ledger.Anchor{}, false, invalid("journal_head: an empty journal (seq 0) has no MAC")
	case h.Seq > 0 && len(h.Mac) != 32:
		return ledger.Anchor{}, false, invalid("journal_head.mac: %d bytes, want 32", len(h.Mac))
	case h.Seq == 0:
		return ledger.Anchor{}, false, nil
	}
	return ledger.Anchor{Seq: h.Seq, MAC: h.Mac}, true, nil
}

// anchorHeads is the unary interceptor that anchors the journal head of every terminal request
// that carries one: checked before the call (a malformed head, or one conflicting with the
// anchor, moves nothing), kept once the call has been acknowledged.
func anchorHeads(t *Table) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		r, ok := req.(headed)
		caller, _ := ctx.Value(identityKey{}).(identity) // set by the edge, which runs first
		if !ok || caller.role != pki.RoleTerminal {
			return handler(ctx, req)
		}
		head, ok, err := checkHead(r.GetJournalHead())
		if err != nil || !ok {
			if err != nil {
				return nil, err
			}
			return handler(ctx, req)
		}
		terminal := callerID(ctx)
		if err := t.checkAnchor(terminal, head); err != nil {
			return nil, err
		}
		res, err := handler(ctx, req)
		if err != nil {
			return res, err
		}
		if err := t.putAnchor(terminal, head); err != nil {
			// The call itself is done and acknowledged; the anchor only lags (a later request
			// moves it), which makes the start-up check less strict, never wrong.
			t.log.Error("journal anchor not kept", "terminal", terminal, "seq", head.Seq, "err", err)
		}
		return res, nil
	}
}

func (t *Table) checkAnchor(terminal string, head ledger.Anchor) error {
	return ledgerErr(t.led.Update(context.Background(), t.now(), func(tx *ledger.Tx) error {
		a, err := tx.Anchor(terminal)
		if err != nil {
			return err
		}
		if a.Seq == head.Seq && string(a.MAC) != string(head.MAC) {
			return failed("journal record %d of terminal %s is not the one this server acknowledged: its journal was replaced or rewritten", head.Seq, terminal)
		}
		return nil
	}))
}

func (t *Table) putAnchor(terminal string, head ledger.Anchor) error {
	return t.led.Update(context.Background(), t.now(), func(tx *ledger.Tx) error {
		return tx.PutAnchor(terminal, head)
	})
}

// JournalAnchor is a terminal's anchor; Seq 0 when it has none.
func (t *Table) JournalAnchor(terminal string) (*pb.JournalAnchor, error) {
	var a ledger.Anchor
	err := t.led.Update(context.Background(), t.now(), func(tx *ledger.Tx) error {
		var err error
		a, err = tx.Anchor(terminal)
		return err
	})
	if err != nil {
		return nil, ledgerErr(err)
	}
	return &pb.JournalAnchor{Head: &pb.JournalHead{Seq: a.Seq, Mac: a.MAC}}, nil
}

// maxKeyBytes bounds an idempotency key: a terminal's keys are a few dozen bytes; the ledger
// keeps every key it is given.
const maxKeyBytes = 200

// checkIdempotencyKey refuses a key the ledger cannot keep as a key: empty, longer than
// maxKeyBytes, not UTF-8, or holding a control character. A NUL in a key made two keys one
// in the ledger's seal on SQLite (ledger.ErrKeyText; found by FuzzReleaseTicketHold): the
// ledger refuses it too, and this says so to the caller as bad input, not as a fault.
func checkIdempotencyKey(key string) error {
	switch {
	case key == "":
		return invalid("an idempotency key is required")
	case len(key) > maxKeyBytes:
		return invalid("idempotency key: %d bytes, at most %d", len(key), maxKeyBytes)
	case !utf8.ValidString(key):
		return invalid("idempotency key %q: not UTF-8", key)
	case strings.IndexFunc(key, unicode.IsControl) >= 0:
		return invalid("idempotency key %q: holds a control character", key)
	}
	return nil
}

// ReportNoteEscrow records a note in a terminal's acceptor escrow, before it is stacked: the
// only notes CreditNote pays.
func (t *Table) ReportNoteEscrow(terminal string, req *pb.NoteEscrowRequest) (*pb.NoteEscrowResponse, error) {
	if err := checkIdempotencyKey(req.IdempotencyKey); err != nil {
		return nil, err
	}
	switch {
	case req.Amount <= 0:
		return nil, invalid("note amount %d: must be positive", req.Amount)
	case len(req.NoteCode) > 16:
		return nil, invalid("note code: %d bytes, at most 16", len(req.NoteCode))
	}
	if err := t.checkNote(req.NoteCode, req.Amount); err != nil {
		return nil, err // a note the currency table does not know is refused at escrow already
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	defer t.actAs("terminal:" + terminal)() // the audit log names the terminal that reported it
	err := t.led.Update(t.bg(), t.now(), func(tx *ledger.Tx) error {
		n, ok, err := tx.NoteEscrow(terminal, req.IdempotencyKey)
		if err != nil {
			return err
		}
		if ok {
			if n.Amount != req.Amount || n.Code != req.NoteCode {
				return failed("note %s was reported as %d (%s), not %d (%s)", req.IdempotencyKey, n.Amount, n.Code, req.Amount, req.NoteCode)
			}
			return nil // reported again: harmless
		}
		if err := t.terminalCashAllowed("a note"); err != nil {
			return err // refused in escrow: the acceptor hands the note back
		}
		if err := t.moneyInAllowed(); err != nil {
			return err
		}
		if err := t.tournamentMoneyRefusal("a note"); err != nil {
			return err // refused in escrow: the acceptor hands the note back
		}
		if err := tx.PutNoteEscrow(ledger.NoteEscrow{Terminal: terminal, Key: req.IdempotencyKey, Amount: req.Amount,
			Code: req.NoteCode, State: ledger.NoteEscrowed}); err != nil {
			return err
		}
		return tx.Event("note-escrow", terminal, "", req.Amount, req.NoteCode+" "+req.IdempotencyKey)
	})
	if err != nil {
		return nil, ledgerErr(err)
	}
	return &pb.NoteEscrowResponse{}, nil
}

// errNoteClaim is wrapped by a credit refused because the server has no matching note.
var errNoteClaim = errors.New(table.NoteClaimRefused)

// claimNote checks a note credit against the note the terminal reported in escrow and marks it
// credited, in CreditNote's transaction: a note never reported, reported with another amount,
// or credited already under another key is not paid.
func claimNote(tx *ledger.Tx, terminal string, req *pb.CreditNoteRequest) error {
	n, ok, err := tx.NoteEscrow(terminal, req.IdempotencyKey)
	if err != nil {
		return err
	}
	switch {
	case !ok:
		return status.Errorf(codes.FailedPrecondition, "%v: no note %s of %d was reported in escrow by terminal %s: the server has no record of it, so it is not paid (an attendant checks the cash box)",
			errNoteClaim, req.IdempotencyKey, req.Amount, terminal)
	case n.Amount != req.Amount:
		return status.Errorf(codes.FailedPrecondition, "%v: note %s was reported in escrow as %d, credit asked for %d", errNoteClaim, req.IdempotencyKey, n.Amount, req.Amount)
	case n.State != ledger.NoteEscrowed:
		return status.Errorf(codes.FailedPrecondition, "%v: note %s is %s already", errNoteClaim, req.IdempotencyKey, n.State)
	}
	n.State = ledger.NoteCredited
	return tx.PutNoteEscrow(n)
}

func (s *terminalService) ReportNoteEscrow(ctx context.Context, req *pb.NoteEscrowRequest) (*pb.NoteEscrowResponse, error) {
	return s.t.ReportNoteEscrow(callerID(ctx), req)
}

func (s *terminalService) GetJournalAnchor(ctx context.Context, _ *pb.GetJournalAnchorRequest) (*pb.JournalAnchor, error) {
	return s.t.JournalAnchor(callerID(ctx))
}

// ClearJournalAnchor forgets a terminal's anchor, so that a terminal whose journal was lost for
// good (a replaced disk) may start on a new one: a supervisor's decision, recorded with who
// made it. Until then the terminal refuses money (its new journal does not hold the anchor).
func (t *Table) ClearJournalAnchor(terminal, by string) error {
	if terminal == "" || by == "" {
		return invalid("clearing a journal anchor needs the terminal and who decided")
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return ledgerErr(t.led.Update(context.Background(), t.now(), func(tx *ledger.Tx) error {
		a, err := tx.Anchor(terminal)
		if err != nil {
			return err
		}
		ok, err := tx.ClearAnchor(terminal)
		if err != nil || !ok {
			if err == nil {
				err = status.Errorf(codes.NotFound, "terminal %s has no journal anchor", terminal)
			}
			return err
		}
		return tx.Event("journal-anchor-cleared", terminal, "", a.Seq, "by "+by)
	}))
}
