package station

import (
	"context"
	"path/filepath"

	"github.com/tablegames/ats/app"
	"github.com/tablegames/ats/app/cashier"
	"github.com/tablegames/ats/app/technician"
	"github.com/tablegames/ats/devices/idpad"
)

// Technician mode's wiring (SPEC §8): the technicians file and the settings in the state
// directory, the journal as the record of sessions, the seat's card reader as the way in, and
// the running drivers under the devices page. Kept here, apart from Start, so the rest of the
// station reads as before.

// serviceConfig is the terminal's technician mode: none without a state directory.
func (s *Station) serviceConfig(cfg Config) app.ServiceConfig {
	if cfg.StateDir == "" {
		return app.ServiceConfig{}
	}
	s.technicians = technician.Open(cfg.StateDir, nil)
	return app.ServiceConfig{Auth: s.technicians, Log: technician.JournalLog{J: s.Journal}, Card: s.technicians.Card}
}

// startDesk makes the technician pages over the running station.
func (s *Station) startDesk(cfg Config) {
	if cfg.StateDir == "" {
		return
	}
	s.faults = &technician.FaultLog{J: s.Journal}
	seat := max(cfg.Seat, 1)
	s.Desk = technician.NewDesk(technician.DeskConfig{Terminal: s.Terminal, Journal: s.Journal,
		Settings: technician.OpenSettings(cfg.StateDir), Persist: cfg.Touch,
		Devices: technician.Devices{Pad: s.Pad, Seat: seat, Cashier: s.Cashier, MayTakeMoney: s.MayTakeMoney}})
}

// acceptorReady gives the devices page the note acceptor once it is started.
func (s *Station) acceptorReady() {
	if s.Desk != nil && s.Acceptor != nil {
		s.Desk.SetAcceptor(s.Acceptor)
	}
}

// padEvent passes the seat's card reader to technician mode: a technician card asks for the PIN.
func (s *Station) padEvent(e idpad.Event, seat int) {
	if s.technicians == nil || e.Pad != max(seat, 1) {
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
