package app

import (
	"context"
	"errors"
	"time"

	"github.com/tablegames/ats/app/msg"
	"github.com/tablegames/ats/app/table"
)

// Technician mode (SPEC §8): a field technician takes the terminal out of play to calibrate
// the touch panel, test the devices and read the meters and the log. It is entered only with
// technician credentials — a technician card in the seat's ID pad reader (ServiceConfig.Card
// says which cards are), then the technician's PIN (ServiceConfig.Auth) — never from anything
// the player's screen offers. While it is open:
//   - no slip change is accepted (canChangeLocked refuses with ErrInService);
//   - entered while wagering, the slip is withdrawn: the empty slip goes to the table, so the
//     player's wagers on the spin are void (001 §9.7), and the player is told so;
//   - the station keeps the note acceptor inhibited (InService, station.MayTakeMoney);
//   - the player's screen reads "terminal in service" (PeriodInService).
//
// The table is told too (Link.SetInService, reportService): it shows the seat in service to the
// dealer and refuses wagers from it. The terminal reports at every change and again at every
// connection (each snapshot), so a table that restarted, or a terminal that crashed in service
// and came back in play, agree again at once. The report goes before any slip (syncLoop sends
// both), and entering or leaving never waits for it: being out of play is the safe side, and a
// table that cannot be reached takes no wagers anyway.
//
// Entering, leaving and every refused PIN are recorded (ServiceLog, the terminal journal)
// with the technician's id, before the terminal acts on them.

// Technician is a field technician, as authenticated.
type Technician struct {
	ID   string
	Name string
}

// TechnicianAuth checks a technician's PIN. The station's is the table server's check
// (TerminalService.AuthenticateTechnician, station.serverTechAuth); the local one
// (app/technician.Store) reads hashed PINs from the terminal's state directory, where the
// station is configured for it. Wrong PINs are the implementation's to throttle: it returns
// ErrThrottled (wrapped) while it refuses to check.
type TechnicianAuth interface {
	Authenticate(ctx context.Context, id, pin string) (Technician, error)
}

// ServiceLog records technician sessions: kind is one of the Service… record kinds, detail
// says more (the refusal, the change). Recorded before the terminal acts on it.
type ServiceLog interface {
	ServiceRecord(ctx context.Context, kind, technician, detail string) error
}

// The kinds of technician record.
const (
	ServiceEntered = "technician-in"
	ServiceLeft    = "technician-out"
	ServiceRefused = "technician-refused"
)

// ServiceConfig is how technicians are recognised. Without Auth the terminal has no
// technician mode.
type ServiceConfig struct {
	Auth TechnicianAuth
	Log  ServiceLog // nil records nothing (tests)
	// Card says whether a card read at the seat's pad is a technician's, and whose.
	Card func(card string) (technicianID string, ok bool)
}

// ServiceView is technician mode as the screen shows it.
type ServiceView struct {
	Open       bool       // the terminal is in service
	Technician Technician // who has it, while Open
	Since      time.Time
	// Asking is the technician whose card is in, while the PIN is asked for.
	Asking string
	// Said is the answer to the last PIN (wrong, throttled), for the PIN pad.
	Said msg.Msg
}

// Refusals of technician mode and, while it is open, of the player's touches.
var (
	ErrInService        = msg.Err("terminal in service: no betting")
	ErrNoTechnicianCard = msg.Err("insert a technician card first")
	ErrNoTechnicianMode = msg.Err("this terminal has no technician mode")
	ErrNotInService     = msg.Err("the terminal is not in service")
	ErrWrongPIN         = msg.Err("wrong PIN")
	// ErrThrottled is wrapped by an Authenticate that refuses to check after wrong PINs.
	ErrThrottled = errors.New("too many wrong PINs")
)

// Messages of technician mode.
var (
	sayInService = msg.New("Terminal in service")
	sayWithdrawn = msg.New("terminal in service: your wagers on this spin are withdrawn and returned")
	// A card at the seat's reader that is not a technician's (issue 32 point 13: it was met
	// with silence). Where the table requires a player card it is the player's; elsewhere this
	// table has no use for it, and the player is told so rather than left waiting.
	sayCardNotUsed    = msg.New("This card is not used at this table: please take it out")
	sayPlayerCardRead = msg.New("Player card read")
)

// TechnicianCard is told every card read at the seat (and "" when the card is taken out): a
// technician's card asks for the PIN; taking it out before the PIN stops asking. Any other card
// is answered on the message line: the player's card where the table requires one, else a card
// this table does not use.
func (t *Terminal) TechnicianCard(card string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	sv := &t.view.Service
	if card == "" {
		if sv.Asking != "" {
			sv.Asking, sv.Said = "", msg.Msg{}
			t.changedLocked()
		}
		return
	}
	if sv.Open {
		return
	}
	if t.svc.Auth != nil && t.svc.Card != nil {
		if id, ok := t.svc.Card(card); ok {
			sv.Asking, sv.Said = id, msg.Msg{}
			t.changedLocked()
			return
		}
	}
	// Not a technician's card: the player is told what became of it.
	said := sayCardNotUsed
	if t.view.Config.PlayerCardRequired {
		said = sayPlayerCardRead
	}
	t.sayLocked(said, Answer)
	t.changedLocked()
}

// EnterService checks the PIN of the technician whose card is in and, if it is right, takes
// the terminal out of play.
func (t *Terminal) EnterService(ctx context.Context, pin string) error {
	t.mu.Lock()
	id := t.view.Service.Asking
	t.mu.Unlock()
	switch {
	case t.svc.Auth == nil:
		return ErrNoTechnicianMode
	case id == "":
		return ErrNoTechnicianCard
	}
	tech, err := t.svc.Auth.Authenticate(ctx, id, pin)
	if err != nil {
		if rerr := t.serviceRecord(ctx, ServiceRefused, id, err.Error()); rerr != nil {
			t.log.Error("technician: refusal not recorded", "technician", id, "err", rerr)
		}
		t.log.Warn("technician: PIN refused", "technician", id, "err", err)
		said := msg.Of(err)
		if errors.Is(err, ErrThrottled) {
			said = msg.New("too many wrong PINs: wait, then try again")
		}
		t.mu.Lock()
		t.view.Service.Said = said
		t.changedLocked()
		t.mu.Unlock()
		return err
	}
	if t.InService() {
		return nil // a second OK on the PIN pad while the first was checked: one session
	}
	// Recorded before the terminal leaves play: a session the journal does not hold never
	// happened.
	if err := t.serviceRecord(ctx, ServiceEntered, tech.ID, ""); err != nil {
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.view.Service = ServiceView{Open: true, Technician: tech, Since: t.clk.Now()}
	t.serviceChangedLocked()
	t.withdrawSlipLocked()
	t.board.set("service", sayInService, MoneyNews)
	t.log.Info("technician: in service", "technician", tech.ID)
	t.changedLocked()
	return nil
}

// withdrawSlipLocked takes the player's wagers off a spin still open: the empty slip goes to
// the table, and the player is told the wagers are withdrawn.
func (t *Terminal) withdrawSlipLocked() {
	if t.view.Phase != table.PhaseWagering || t.view.Locked || len(t.slip.Stakes()) == 0 {
		return
	}
	t.slip.reset(nil)
	t.touchedLocked()
	t.voidLocked(sayWithdrawn)
}

// LeaveService puts the terminal back in play.
func (t *Terminal) LeaveService(ctx context.Context) error {
	t.mu.Lock()
	sv := t.view.Service
	t.mu.Unlock()
	if !sv.Open {
		return ErrNotInService
	}
	if err := t.serviceRecord(ctx, ServiceLeft, sv.Technician.ID, t.clk.Now().Sub(sv.Since).Round(time.Second).String()); err != nil {
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.view.Service = ServiceView{}
	t.serviceChangedLocked()
	t.board.set("service", msg.Msg{}, MoneyNews)
	if t.view.Void.Equal(sayWithdrawn) && t.view.Phase == table.PhaseWagering && !t.view.Locked {
		// Back in play while the spin is still open: the player may bet on it again.
		t.voidLocked(msg.Msg{})
	}
	t.log.Info("technician: back in play", "technician", sv.Technician.ID)
	t.changedLocked()
	return nil
}

// InService reports whether a technician has the terminal: no betting, no money in.
func (t *Terminal) InService() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.view.Service.Open
}

func (t *Terminal) serviceRecord(ctx context.Context, kind, id, detail string) error {
	if t.svc.Log == nil {
		return nil
	}
	return t.svc.Log.ServiceRecord(ctx, kind, id, detail)
}

// ServiceReason is the reason the terminal gives the table for a seat in service.
const ServiceReason = "technician mode"

// serviceChangedLocked owes the table a report of a change of technician mode.
func (t *Terminal) serviceChangedLocked() {
	t.serviceGen++
	t.serviceOwedLocked()
}

// serviceOwedLocked owes the table a report of technician mode, and has syncLoop send it. A
// terminal without technician mode owes none: it is never out of play.
func (t *Terminal) serviceOwedLocked() {
	if t.svc.Auth == nil {
		return
	}
	t.serviceDue = true
	t.wakeSyncLocked()
}

// reportService sends the table the report of technician mode it is owed, if any. A report that
// fails stays owed: it is sent again at the next change or connection.
func (t *Terminal) reportService(ctx context.Context) {
	t.mu.Lock()
	if !t.serviceDue {
		t.mu.Unlock()
		return
	}
	var rep *table.SeatService
	if sv := t.view.Service; sv.Open {
		rep = &table.SeatService{Technician: sv.Technician.ID, Reason: ServiceReason}
	}
	gen := t.serviceGen
	t.mu.Unlock()
	_, err := t.link.SetInService(ctx, rep)
	t.mu.Lock()
	if (err == nil && gen == t.serviceGen) || table.Refused(err) {
		// Told; or refused for good (a table too old to know the call), which asking again
		// at every slip would not change.
		t.serviceDue = false
	}
	t.mu.Unlock()
	if err != nil && ctx.Err() == nil {
		t.log.Warn("technician: in-service state not told to the table (told again at the next connection)", "in_service", rep != nil, "err", err)
	}
}
