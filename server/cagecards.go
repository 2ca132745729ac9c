package server

// Carded play at the cage (SPEC §10, issue 31): a cashier registers a player card to the person
// whose identity document they checked, reports a card lost or barred, and looks one up. The
// rules — one person one card, a card passes to another only after it is reported lost, limits
// follow the person, the document's number never stored in clear — are server/precommit's
// (identity.go); this is their gRPC edge, which names the cashier (role:id from the
// certificate) in every record. The cards are the floor's rows (floor_cards,
// floor_card_owners), so a card registered at one cage binds at every table of the floor,
// whether or not the table server the cage reaches plays carded itself.
//
// A card reported lost or barred while a seat holds it binds that seat from its next round's
// allowance, as a limit lowered at the cage does (docs/design/carded-play.md): a round's slips
// already covered settle as usual.

import (
	"context"
	"errors"
	"strings"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	pb "github.com/tablegames/ats/proto/ats/table/v1"
	"github.com/tablegames/ats/server/ledger"
	"github.com/tablegames/ats/server/precommit"
)

// registry is the floor's card store as the cage uses it: the same rows the tables read.
func (t *Table) registry() *precommit.LedgerStore {
	return &precommit.LedgerStore{L: t.led, S: t.cfg.Precommit}
}

// cardID checks a card id as typed or read by the cage's card reader.
func cardID(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > 64 || strings.ContainsAny(s, "/ \t\r\n") {
		return "", invalid("card id %q: 1 to 64 characters, no spaces or slashes", s)
	}
	return s, nil
}

// cardErr maps the card store's answers to the cashier's status: a refusal in its words
// (FailedPrecondition), a card never registered NotFound, bad input InvalidArgument.
func cardErr(err error) error {
	var r *precommit.Refusal
	switch {
	case errors.As(err, &r):
		return failed("%s", r.Words)
	case errors.Is(err, precommit.ErrUnknown):
		return status.Errorf(codes.NotFound, "%v", err)
	case errors.Is(err, ledger.ErrTampered):
		return ledgerErr(err)
	case strings.HasPrefix(err.Error(), "precommit: "):
		return invalid("%s", strings.TrimPrefix(err.Error(), "precommit: "))
	}
	return ledgerErr(err)
}

// playerCardPB is card c with its registration as the cage is told of it.
func playerCardPB(c precommit.Card, reg precommit.Registration, msg string) *pb.PlayerCard {
	out := &pb.PlayerCard{CardId: c.ID, State: string(c.State), HolderName: reg.Name, IdType: reg.IDType,
		IdTail: reg.IDTail, RegisteredBy: reg.By, LossLimit: c.Limits.Loss,
		TimeLimitSeconds: int64(c.Limits.Time / time.Second), BarSeconds: int64(c.Limits.Bar / time.Second),
		NetLoss: c.Staked - c.Returned, Reserved: c.Reserved, BarredFor: c.BarredFor, HeldBy: c.HeldBy, Message: msg}
	if !reg.Since.IsZero() {
		out.RegisteredUnixNanos = reg.Since.UnixNano()
	}
	if !c.BarredUntil.IsZero() {
		out.BarredUntilUnixNanos = c.BarredUntil.UnixNano()
	}
	return out
}

// RegisterCard registers a card to the person the cashier (actor, "cashier:K1") checked.
func (t *Table) RegisterCard(actor string, req *pb.RegisterCardRequest) (*pb.PlayerCard, error) {
	id, err := cardID(req.CardId)
	if err != nil {
		return nil, err
	}
	h := req.GetHolder()
	p := precommit.Person{Name: h.GetName(), IDType: h.GetIdType(), IDNumber: h.GetIdNumber()}
	c, reg, err := t.registry().RegisterTo(ledger.WithActor(context.Background(), actor), id, p, actor, t.now())
	if err != nil {
		return nil, cardErr(err)
	}
	return playerCardPB(c, reg, "card "+id+" is registered to "+reg.Describe()), nil
}

// ReportCard reports a card lost or barred at the cashier's word.
func (t *Table) ReportCard(actor string, req *pb.ReportCardRequest) (*pb.PlayerCard, error) {
	id, err := cardID(req.CardId)
	if err != nil {
		return nil, err
	}
	why, err := text("the reason", req.Reason)
	if err != nil {
		return nil, err
	}
	state := precommit.State(strings.ToLower(strings.TrimSpace(req.State)))
	if state != precommit.Lost && state != precommit.Barred {
		return nil, invalid("state %q: a card is reported \"lost\" or \"barred\"", req.State)
	}
	ctx, now := ledger.WithActor(context.Background(), actor), t.now()
	c, err := t.registry().Report(ctx, id, state, actor, why, now)
	if err != nil {
		return nil, cardErr(err)
	}
	reg, _, err := t.registry().Owner(ctx, id, now)
	if err != nil {
		return nil, cardErr(err)
	}
	return playerCardPB(c, reg, "card "+id+" is "+string(state)), nil
}

// LookupCard is a card as the cage sees it.
func (t *Table) LookupCard(req *pb.LookupCardRequest) (*pb.PlayerCard, error) {
	id, err := cardID(req.CardId)
	if err != nil {
		return nil, err
	}
	now := t.now()
	c, err := t.registry().Card(context.Background(), id, now)
	if err != nil {
		return nil, cardErr(err)
	}
	reg, _, err := t.registry().Owner(context.Background(), id, now)
	if err != nil {
		return nil, cardErr(err)
	}
	return playerCardPB(c, reg, ""), nil
}

func (s *cageService) RegisterCard(ctx context.Context, req *pb.RegisterCardRequest) (*pb.PlayerCard, error) {
	return s.t.RegisterCard(actorOf(ctx), req)
}

func (s *cageService) ReportCard(ctx context.Context, req *pb.ReportCardRequest) (*pb.PlayerCard, error) {
	return s.t.ReportCard(actorOf(ctx), req)
}

func (s *cageService) LookupCard(_ context.Context, req *pb.LookupCardRequest) (*pb.PlayerCard, error) {
	return s.t.LookupCard(req)
}
