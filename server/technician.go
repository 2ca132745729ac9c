package server

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/tablegames/ats/app/table"
	pb "github.com/tablegames/ats/proto/ats/table/v1"
	"github.com/tablegames/ats/proto/wire"
	"github.com/tablegames/ats/server/ledger"
	"github.com/tablegames/ats/server/pki"
)

// ---- technician service ---------------------------------------------------------------------

type technicianService struct {
	pb.UnimplementedTechnicianServiceServer
	t    *Table
	pins *Technicians
	log  *slog.Logger
}

func (s *technicianService) Authenticate(ctx context.Context, req *pb.TechnicianAuthenticateRequest) (*pb.TechnicianAuthenticateResponse, error) {
	id := callerID(ctx)
	if err := checkTechnicianPIN(ctx, s.t, s.pins, s.log, id, "", req.Pin); err != nil {
		return nil, err
	}
	return &pb.TechnicianAuthenticateResponse{TechnicianId: id}, nil
}

// AuthenticateTechnician checks, for a terminal, the PIN a technician typed on its PIN pad: the
// same PINs and the same throttle as the technician's own certificate gets (the count is kept
// per technician id, so a lock-out holds whichever way the PIN comes), audited with the
// terminal as actor and the technician in the detail.
func (s *terminalService) AuthenticateTechnician(ctx context.Context, req *pb.AuthenticateTechnicianRequest) (*pb.TechnicianAuthenticateResponse, error) {
	id := req.GetTechnicianId()
	if err := pki.ValidID(id); err != nil {
		return nil, status.Errorf(codes.InvalidArgument, "technician id: %v", err)
	}
	if err := checkTechnicianPIN(ctx, s.t, s.pins, s.log, id, callerID(ctx), req.GetPin()); err != nil {
		return nil, err
	}
	return &pb.TechnicianAuthenticateResponse{TechnicianId: id}, nil
}

// checkTechnicianPIN checks technician id's PIN (throttled) and writes the attempt to the audit
// log with the caller as actor, terminal ("" for a technician's own call) as the terminal
// concerned, before answering.
func checkTechnicianPIN(ctx context.Context, t *Table, pins *Technicians, log *slog.Logger, id, terminal, pin string) error {
	if pins == nil {
		return status.Error(codes.FailedPrecondition, "this table has no technician PINs (tableserver -technicians FILE)")
	}
	err := pins.verify(id, pin)
	kind, detail := "technician-authenticated", "technician "+id
	if err != nil {
		kind, detail = "technician-pin-refused", status.Convert(err).Message()
		log.Warn("technician PIN refused", "technician", id, "terminal", terminal, "why", detail)
	} else {
		log.Info("technician authenticated", "technician", id, "terminal", terminal)
	}
	if aerr := t.audit(actorOf(ctx), kind, terminal, detail); aerr != nil {
		return aerr
	}
	return err
}

// Audit writes one audit event that moves no money (a technician's sign-in) for actor.
func (t *Table) Audit(actor, kind, detail string) error { return t.audit(actor, kind, "", detail) }

func (t *Table) audit(actor, kind, terminal, detail string) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	return ledgerErr(t.led.Update(ledger.WithActor(context.Background(), actor), t.now(), func(tx *ledger.Tx) error {
		return tx.Event(kind, terminal, "", 0, detail)
	}))
}

// ---- a seat in service ----------------------------------------------------------------------

// SetInService records a terminal's technician mode as the terminal reports it: s is the seat
// out of play (the technician's id and the terminal's reason), nil back in play. It answers
// since when the seat is in service (zero back in play).
//
// The terminal's report is the truth: the terminal reports again on every connection, so a
// report that changes nothing (the same technician after a reconnect) is taken quietly, keeps
// the time the table first heard of it, and writes no audit event; every change is audited,
// with the terminal as actor and the technician in the detail. A seat taken out of play during
// the wagering period loses its slip (rule 9.7.1), as a terminal that lost the table does: its
// terminal withdraws it too, this makes sure of it. While the seat is in service the table
// refuses wagers from it (slipInputs).
//
// A terminal that disconnects in service stays in service here: the table cannot know whether
// the technician is still at work (unplugging the cabinet is part of it) or the terminal died,
// so it does not guess. The status shows the seat in service and not connected, which the
// dealer console reads as "in service, not confirmed"; the terminal's report on its next
// connection settles it either way (a terminal that restarts comes back in play).
func (t *Table) SetInService(terminal string, s *table.SeatService) (time.Time, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	defer t.actAs("terminal:" + terminal)()
	now := t.now()
	old := t.service[terminal]
	if s == nil {
		if old == nil {
			return time.Time{}, nil
		}
		detail := fmt.Sprintf("technician %s, in service since %s (%v)", old.Technician, old.Since.UTC().Format(time.RFC3339), now.Sub(old.Since).Round(time.Second))
		if err := t.serviceEvent(now, "terminal-back-in-play", terminal, detail); err != nil {
			return time.Time{}, err
		}
		delete(t.service, terminal)
		t.log.Info("terminal back in play", "terminal", terminal, "technician", old.Technician)
		return time.Time{}, nil
	}
	if old != nil && old.Technician == s.Technician {
		old.Reason = s.Reason // the same session told again: only its words may have changed
		return old.Since, nil
	}
	detail := "technician " + s.Technician
	if old != nil {
		detail += " (taking over from " + old.Technician + ")"
	}
	if s.Reason != "" {
		detail += ": " + s.Reason
	}
	if err := t.serviceEvent(now, "terminal-in-service", terminal, detail); err != nil {
		return time.Time{}, err
	}
	rec := &table.SeatService{Technician: s.Technician, Since: now, Reason: s.Reason}
	t.service[terminal] = rec
	t.log.Info("terminal in service", "terminal", terminal, "technician", s.Technician)
	if err := t.voidSlip(now, terminal, "terminal in service (technician "+s.Technician+") before the deadline"); err != nil {
		// In service all the same (the terminal is, whatever the table says): the slip stays,
		// and the terminal's own withdrawal (an empty slip) is still taken.
		t.log.Error("voiding the slip of a terminal in service", "terminal", terminal, "err", err)
	}
	return now, nil
}

// serviceEvent writes one audit event of a seat's service state. Called with t.mu held.
func (t *Table) serviceEvent(now time.Time, kind, terminal, detail string) error {
	return ledgerErr(t.led.Update(t.bg(), now, func(tx *ledger.Tx) error {
		return tx.Event(kind, terminal, "", 0, detail)
	}))
}

// SetInService is a terminal's report of its technician mode (Table.SetInService), for the seat
// of the terminal's own certificate: a terminal cannot report another's.
func (s *terminalService) SetInService(ctx context.Context, req *pb.SetInServiceRequest) (*pb.SetInServiceResponse, error) {
	// The technician is as the terminal reports it (a certificate's id, or its technicians
	// file's where the terminal checks PINs itself): the wire reader holds it to that shape.
	rep, err := wire.SetInServiceOf(req)
	if err != nil {
		return nil, status.Errorf(codes.InvalidArgument, "%v", err)
	}
	since, err := s.t.SetInService(callerID(ctx), rep)
	if err != nil {
		return nil, err
	}
	return &pb.SetInServiceResponse{SinceUnixNanos: wire.TimeNanos(since)}, nil
}
