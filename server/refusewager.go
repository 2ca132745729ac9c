package server

import (
	"slices"
	"unicode"
	"unicode/utf8"

	"github.com/tablegames/ats/app/table"
	pb "github.com/tablegames/ats/proto/ats/table/v1"
	"github.com/tablegames/ats/proto/wire"
)

// A supervisor's refusal of wagers (003 §9.12): "A casino supervisor may refuse, on reasonable
// grounds, any wager made by a player prior to the call of no more bets, and in so doing may
// cause the wager(s) to be removed from the layout." Here the supervisor names the seat and the
// wagers (by index in the seat's slip, or all of them) and the grounds:
//
//   - supervisor only (roles.go): the dealer may not, as the rule gives it to the supervisor;
//   - only while the wagering period is open on the table's clock ("prior to the call of no
//     more bets"); after it the slip is what settles;
//   - the wagers leave the slip, which becomes a new version, so a slip update the terminal
//     sent before it heard is stale and refused, and its next change builds on the table's;
//   - recorded in the ledger's audit with the supervisor's identity, the grounds and the wagers;
//   - the seat's terminal is told on its event stream (table.WagerRefused), the same way it is
//     told the slip after a dealer-placed wager (DealerWagerPlaced): it shows exactly the slip's
//     chips and tells the player the supervisor refused the others, and why.
//
// A refused wager was never accepted, so no money moves: the slip's money simply stays in the
// chip account, as it does for any wager withdrawn before the period ends.

// MaxRefusalReason is the longest grounds a refusal may give, in bytes: shown on the player's
// screen, so a sentence, not a document.
const MaxRefusalReason = 200

// Refusal is a supervisor's refusal as the edge read it: the grounds, and the slip indexes
// refused (sorted, distinct), or All.
type Refusal struct {
	Reason  string
	Indexes []int
	All     bool
}

// RefusalOf checks and reads a RefuseWager request. Every bad field is InvalidArgument.
func RefusalOf(req *pb.RefuseWagerRequest) (terminal, roundID string, ref Refusal, err error) {
	if req.GetTerminalId() == "" {
		return "", "", Refusal{}, invalid("terminal_id: required")
	}
	reason := req.GetReason()
	switch {
	case reason == "":
		return "", "", Refusal{}, invalid("reason: the supervisor's grounds are required (003 §9.12)")
	case len(reason) > MaxRefusalReason:
		return "", "", Refusal{}, invalid("reason: at most %d bytes", MaxRefusalReason)
	case !utf8.ValidString(reason):
		return "", "", Refusal{}, invalid("reason: not UTF-8")
	case slices.ContainsFunc([]rune(reason), unicode.IsControl):
		return "", "", Refusal{}, invalid("reason: no control characters")
	}
	idx := req.GetIndexes()
	switch {
	case req.GetAll() && len(idx) > 0:
		return "", "", Refusal{}, invalid("indexes: either the wagers' indexes or all, not both")
	case !req.GetAll() && len(idx) == 0:
		return "", "", Refusal{}, invalid("indexes: name the wagers refused, or all")
	case len(idx) > MaxSlipWagers:
		return "", "", Refusal{}, invalid("indexes: at most %d", MaxSlipWagers)
	}
	ref = Refusal{Reason: reason, All: req.GetAll()}
	for _, i := range idx {
		if i >= MaxSlipWagers {
			return "", "", Refusal{}, invalid("indexes: %d: a slip holds at most %d wagers", i, MaxSlipWagers)
		}
		ref.Indexes = append(ref.Indexes, int(i))
	}
	slices.Sort(ref.Indexes)
	if len(slices.Compact(slices.Clone(ref.Indexes))) != len(ref.Indexes) {
		return "", "", Refusal{}, invalid("indexes: each wager once")
	}
	return req.GetTerminalId(), req.GetRoundId(), ref, nil
}

// refusalRecord is the ledger's detail of a refusal.
type refusalRecord struct {
	Reason  string        `json:"reason"`
	Version uint64        `json:"version"` // the slip's new version
	Refused []acceptedBet `json:"refused"`
}

// RefuseWager removes the wagers ref names from the seat's slip of round roundID, as actor (the
// supervisor), before no more bets.
func (t *Table) RefuseWager(actor, terminal, roundID string, ref Refusal) (*pb.RefuseWagerResponse, error) {
	if err := t.knownTerminal(terminal); err != nil {
		return nil, err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	defer t.actAs(actor)()
	now := t.now()
	r, err := t.wageringRound(now, roundID)
	if err != nil {
		return nil, err
	}
	if t.tournamentRound(r) {
		return nil, failed("%s is a tournament round: its wagers are tournament chips, not refused here", r.id)
	}
	prev := r.slips[terminal]
	if prev == nil || len(prev.bets) == 0 {
		return nil, failed("seat %s has no wager on %s", terminal, r.id)
	}
	gone := make([]bool, len(prev.bets))
	for _, i := range ref.Indexes {
		if i >= len(prev.bets) {
			return nil, invalid("indexes: %d: seat %s's slip has %d wagers (0 to %d)", i, terminal, len(prev.bets), len(prev.bets)-1)
		}
		gone[i] = true
	}
	sl := &slip{version: prev.version + 1}
	var rec refusalRecord
	var refused []table.SlipBet
	var money int64
	ackPrev := prev.ack(r.id)
	for i, b := range prev.bets {
		if ref.All || gone[i] {
			rec.Refused = append(rec.Refused, b)
			refused = append(refused, ackPrev.Bets[i])
			money += b.Total
			continue
		}
		sl.bets = append(sl.bets, b)
		sl.total += b.Total
	}
	rec.Reason, rec.Version = ref.Reason, sl.version
	if err := t.auditJSON(now, "wager-refused", terminal, r.id, money, rec); err != nil {
		return nil, err
	}
	r.slips[terminal] = sl
	ack := sl.ack(r.id)
	if a := t.accounts[terminal]; a != nil {
		ack.Available = a.balance - sl.total
	}
	t.emit(now, terminal, table.WagerRefused{Slip: *ack, Refused: refused, Reason: ref.Reason, By: actor})
	return &pb.RefuseWagerResponse{Refused: money, Slip: wire.SlipPB(ack)}, nil
}
