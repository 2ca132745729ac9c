package station

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync/atomic"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/tablegames/ats/app"
	"github.com/tablegames/ats/app/cashier"
	"github.com/tablegames/ats/app/technician"
	"github.com/tablegames/ats/client"
	"github.com/tablegames/ats/devices/idpad"
	"github.com/tablegames/ats/devices/noteacceptor"
)

// Technician mode's wiring (SPEC §8): the technicians file and the settings in the state
// directory, the journal as the record of sessions, the seat's card reader as the way in, and
// the running drivers under the devices page. Kept here, apart from Start, so the rest of the
// station reads as before.

// serviceConfig is the terminal's technician mode: none without a state directory. The cards
// are the terminal's technicians file's; the PIN is checked by the table server's technician
// PINs (serverTechAuth), or by the file's own hashes where LocalTechnicianPINs says so.
func (s *Station) serviceConfig(cfg Config) app.ServiceConfig {
	if cfg.StateDir == "" {
		return app.ServiceConfig{}
	}
	s.technicians = technician.Open(cfg.StateDir, nil)
	// A session the terminal went down in ends here: it starts in play (and tells the table so).
	if id, err := technician.CloseInterruptedSession(context.Background(), s.Journal); err != nil {
		s.log.Error("technician: a session interrupted by the restart not closed in the journal", "err", err)
	} else if id != "" {
		s.log.Warn("technician: the terminal restarted in technician mode: back in play", "technician", id)
	}
	var auth app.TechnicianAuth = serverTechAuth{c: s.Client, names: s.technicians}
	if cfg.LocalTechnicianPINs {
		auth = s.technicians
	}
	return app.ServiceConfig{Auth: auth, Log: technician.JournalLog{J: s.Journal}, Card: s.technicians.Card}
}

// serverTechAuth is app.TechnicianAuth by the table server (TerminalService.AuthenticateTechnician):
// the PINs, their throttle and the audit of every attempt are the table's, so a technician has
// one PIN for every cabinet, and a stolen cabinet's disk holds no PIN hash to guess at.
type serverTechAuth struct {
	c     *client.Client
	names *technician.Store // the name the pages show, if the terminal's file has one
}

func (a serverTechAuth) Authenticate(ctx context.Context, id, pin string) (app.Technician, error) {
	got, err := a.c.AuthenticateTechnician(ctx, id, pin)
	switch {
	case status.Code(err) == codes.ResourceExhausted:
		return app.Technician{}, fmt.Errorf("%w: %w", app.ErrThrottled, err)
	case status.Code(err) == codes.PermissionDenied:
		return app.Technician{}, fmt.Errorf("%w: %w", app.ErrWrongPIN, err)
	case err != nil:
		return app.Technician{}, fmt.Errorf("technician PIN not checked by the table: %w", err)
	case got != id:
		return app.Technician{}, fmt.Errorf("the table checked the PIN of %q, not %q", got, id)
	}
	return app.Technician{ID: id, Name: a.names.Name(id)}, nil
}

// startDesk makes the technician pages over the running station.
func (s *Station) startDesk(cfg Config) {
	if cfg.StateDir == "" {
		return
	}
	s.faults = &technician.FaultLog{J: s.Journal}
	seat := max(cfg.Seat, 1)
	running := cfg.Running
	running.Seat = seat
	s.Desk = technician.NewDesk(technician.DeskConfig{Terminal: s.Terminal, Journal: s.Journal,
		Settings: technician.OpenSettings(cfg.StateDir), Persist: cfg.Touch, Running: running,
		Devices: technician.Devices{Pad: s.Pad, Seat: seat, Ports: technician.Ports{Acceptor: cfg.Acceptor, Printer: cfg.Printer, Pad: cfg.IDPad}, Cashier: s.Cashier, MayTakeMoney: s.MayTakeMoney, AcceptTest: s.AcceptTest}})
	s.acceptTest.timeout = cmp.Or(cfg.AcceptTestTimeout, 30*time.Second)
}

// acceptTester is the state of a technician's accept test: on while the acceptor is enabled
// for it (inhibitUnlessTableTakes lets it be, although MayTakeMoney is false in service).
type acceptTester struct {
	on      atomic.Bool
	timeout time.Duration
}

// ErrNoTestNote is an accept test that saw no note in time.
var ErrNoTestNote = errors.New("no note inserted in time: the acceptor is inhibited again")

// AcceptTest is the note acceptor's test in technician mode, over the running driver: the
// acceptor is enabled for one note, which the cashier returns instead of stacking (no credit,
// nothing told to the table, nothing journalled as money), and inhibited again when the note
// has been read or after the timeout. It returns the note read.
func (s *Station) AcceptTest(ctx context.Context) (noteacceptor.Escrow, error) {
	if !s.Terminal.InService() {
		return noteacceptor.Escrow{}, app.ErrNotInService
	}
	if s.Acceptor == nil || s.Cashier == nil {
		return noteacceptor.Escrow{}, errors.New("this terminal has no note acceptor")
	}
	got := make(chan noteacceptor.Escrow, 1)
	end, err := s.Cashier.StartAcceptTest(func(e noteacceptor.Escrow) {
		select {
		case got <- e:
		default:
		}
	})
	if err != nil {
		return noteacceptor.Escrow{}, err
	}
	defer func() {
		s.acceptTest.on.Store(false)
		s.Acceptor.SetInhibit(!s.MayTakeMoney())
		end() // after the inhibit: a note already on its way is still returned
	}()
	s.acceptTest.on.Store(true)
	s.Acceptor.SetInhibit(false)
	timedOut := make(chan struct{})
	timer := s.clock.AfterFunc(s.acceptTest.timeout, func() { close(timedOut) })
	defer timer.Stop()
	select {
	case e := <-got:
		return e, nil
	case <-timedOut:
		return noteacceptor.Escrow{}, ErrNoTestNote
	case <-ctx.Done():
		return noteacceptor.Escrow{}, ctx.Err()
	}
}

// acceptorReady gives the devices page the note acceptor once it is started.
func (s *Station) acceptorReady() {
	if s.Desk != nil && s.Acceptor != nil {
		s.Desk.SetAcceptor(s.Acceptor)
	}
}

// padEvent shows a touch of the seat's pad on the screen, and passes the seat's card reader to
// technician mode: a technician card asks for the PIN.
func (s *Station) padEvent(e idpad.Event, seat int) {
	if e.Pad != max(seat, 1) {
		return
	}
	// A touch of the seat's pad is shown as read (issue 32 point 19).
	switch e.Kind {
	case idpad.Touched:
		s.Terminal.PadTouched(true)
	case idpad.Released:
		s.Terminal.PadTouched(false)
	}
	if e.Kind == idpad.CardInserted {
		// A player card is presented to the table, which holds it for the seat or refuses it
		// (carded play, app/card.go; nothing at a table that does not play carded). A
		// technician's card is not a player's: it goes to technician mode only.
		if _, tech := s.technicianCard(e.Card); !tech {
			s.Terminal.CardRead(e.Card)
		}
	}
	if s.technicians == nil {
		return
	}
	switch e.Kind {
	case idpad.CardInserted:
		s.Terminal.TechnicianCard(e.Card)
	case idpad.CardRemoved:
		s.Terminal.TechnicianCard("")
	}
}

// faultSeen journals the devices' faults as they come and go, for the event log.
func (s *Station) faultSeen(ctx context.Context, st cashier.Status) {
	if s.faults == nil {
		return
	}
	if err := s.faults.Seen(ctx, st.Fault); err != nil && ctx.Err() == nil {
		s.log.Error("technician: device fault not recorded", "err", err)
	}
}

// TouchRules is where a state directory's terminal writes its touch calibration when no udev
// directory is configured (demo, tests): beside the journal.
func TouchRules(stateDir string) string {
	return filepath.Join(stateDir, "99-ats-touch-calibration.rules")
}

// technicianCard is the technician a card names, if the terminal's technicians file has it.
func (s *Station) technicianCard(card string) (string, bool) {
	if s.technicians == nil {
		return "", false
	}
	return s.technicians.Card(card)
}
