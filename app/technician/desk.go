package technician

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/tablegames/ats/app"
	"github.com/tablegames/ats/app/calibration"
	"github.com/tablegames/ats/app/cashier"
	"github.com/tablegames/ats/app/journal"
	"github.com/tablegames/ats/app/meters"
	"github.com/tablegames/ats/app/money"
	"github.com/tablegames/ats/app/msg"
	"github.com/tablegames/ats/devices/idpad"
	"github.com/tablegames/ats/devices/noteacceptor"
	"github.com/tablegames/ats/devices/printer"
)

// Desk is technician mode's pages over the running terminal and drivers: what the kiosk's
// technician screen shows and does. Every page but the PIN answers only while a technician has
// the terminal (ErrNotInService otherwise), and every change is journalled with the technician's
// id before it is made.
type Desk struct {
	cfg      DeskConfig
	acceptor atomic.Pointer[noteacceptor.Acceptor] // started after the desk
}

// DeskConfig is what the pages work on.
type DeskConfig struct {
	Terminal *app.Terminal
	Journal  *journal.Journal
	Settings *Settings
	Persist  calibration.Persist // where a calibration is kept and how it is applied
	Devices  Devices
	// Running is what the terminal runs with now (the kiosk's design, language and seat, from
	// its flags or these settings when it started): a setting not in the file is shown as this,
	// so the page never offers a blank choice for a setting that is in force.
	Running Values
	Now     func() time.Time // nil: time.Now
}

// Devices are the running drivers the devices page reads; any may be nil.
type Devices struct {
	Acceptor     *noteacceptor.Acceptor
	Pad          *idpad.Pad
	Seat         int
	Ports        Ports
	Cashier      *cashier.Cashier
	MayTakeMoney func() bool // the station's: why the acceptor is inhibited or not
	// AcceptTest enables the acceptor for one note and returns it (the station's AcceptTest).
	AcceptTest func(ctx context.Context) (noteacceptor.Escrow, error)
}

// Ports are the serial lines the devices are on, as configured; "" none.
type Ports struct{ Acceptor, Printer, Pad string }

// NewDesk returns the pages.
func NewDesk(cfg DeskConfig) *Desk {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Desk{cfg: cfg}
}

// SetAcceptor gives the devices page the note acceptor, once the station has started it.
func (d *Desk) SetAcceptor(a *noteacceptor.Acceptor) { d.acceptor.Store(a) }

// EnterService checks the PIN of the technician whose card is in (app.Terminal.EnterService).
func (d *Desk) EnterService(ctx context.Context, pin string) error {
	return d.cfg.Terminal.EnterService(ctx, pin)
}

// LeaveService puts the terminal back in play.
func (d *Desk) LeaveService(ctx context.Context) error { return d.cfg.Terminal.LeaveService(ctx) }

// technician is who has the terminal, or ErrNotInService.
func (d *Desk) technician() (app.Technician, error) {
	sv := d.cfg.Terminal.View().Service
	if !sv.Open {
		return app.Technician{}, app.ErrNotInService
	}
	return sv.Technician, nil
}

// Calibration is the touch calibration in force (the identity if none was saved).
func (d *Desk) Calibration() calibration.Matrix {
	if d.cfg.Settings != nil {
		if v, err := d.cfg.Settings.Load(); err == nil && v.Calibration != nil {
			return v.Calibration.Matrix
		}
	}
	return calibration.Identity
}

// SaveCalibration installs a fit made from touches reported through the calibration in force:
// journalled, then the udev rule written and the matrix applied live, then kept in the settings
// with the date and the technician.
func (d *Desk) SaveCalibration(ctx context.Context, r calibration.Result) (calibration.Matrix, error) {
	tech, err := d.technician()
	if err != nil {
		return calibration.Matrix{}, err
	}
	m := d.Calibration().Then(r.Matrix)
	if _, ok := m.Invert(); !ok {
		return calibration.Matrix{}, calibration.ErrNotAMatrix
	}
	at := d.cfg.Now()
	detail := fmt.Sprintf("matrix %q, held-out error %.1f px (limit %.1f), largest residual %.1f px", m.String(), r.HeldOut, r.Limit, r.Residual)
	if err := (JournalLog{d.cfg.Journal}).ServiceRecord(ctx, KindCalibration, tech.ID, detail); err != nil {
		return calibration.Matrix{}, err
	}
	if err := d.cfg.Persist.Save(ctx, m, tech.ID, at); err != nil {
		return calibration.Matrix{}, err
	}
	if d.cfg.Settings != nil {
		if _, _, err := d.cfg.Settings.update(func(v Values) (Values, error) {
			v.Calibration = &Calibrated{Matrix: m, At: at, Technician: tech.ID, HeldOut: r.HeldOut}
			return v, nil
		}); err != nil {
			return m, err
		}
	}
	return m, nil
}

// Meters are the terminal's meters (the figures of atsctl records meters).
func (d *Desk) Meters(ctx context.Context) (meters.Meters, error) {
	if _, err := d.technician(); err != nil {
		return meters.Meters{}, err
	}
	return meters.Read(ctx, d.cfg.Journal)
}

// EventLog is page page (0 the newest) of the event log.
func (d *Desk) EventLog(ctx context.Context, page int) (LogPage, error) {
	if _, err := d.technician(); err != nil {
		return LogPage{}, err
	}
	return ReadLog(ctx, d.cfg.Journal, page)
}

// DeviceStatus is one device as a field technician reads it on the devices page: what it is
// doing now in words, what it is and where it is plugged in, what last went wrong, and what it
// has counted.
type DeviceStatus struct {
	Name  string // "Note acceptor", "Ticket printer", "Player-ID pad"
	OK    bool   // working, no fault now (the page marks the rest)
	State string // in words: "Working: takes notes while the table takes bets", "Fault: …"
	Model string // the device's own model and firmware, as it reports them; "" unknown
	Port  string // the serial line it is on
	// LastFault is what last went wrong since the terminal started, with its local time; ""
	// for nothing (the event log keeps every fault).
	LastFault string
	Counters  []Counter
}

// Counter is one of a device's counts, from the meters.
type Counter struct{ Label, Value string }

// DeviceStatuses is each device's state now, from the running drivers, with its counts from
// the meters.
func (d *Desk) DeviceStatuses(ctx context.Context) ([]DeviceStatus, error) {
	if _, err := d.technician(); err != nil {
		return nil, err
	}
	dv := d.cfg.Devices
	m, err := meters.Read(ctx, d.cfg.Journal)
	if err != nil {
		return nil, err
	}
	// Each device's fault now and its last, apart; the full history is in the event log.
	var accFault, prnFault msg.Msg
	var accLast, prnLast cashier.Fault
	if dv.Cashier != nil {
		accFault, prnFault = dv.Cashier.DeviceFaults()
		accLast, prnLast = dv.Cashier.LastFaults()
	}
	cur := d.cfg.Terminal.View().Config.Currency
	cash := func(cents int64) string { return money.InCurrency(cur, cents) }
	var out []DeviceStatus
	a := dv.Acceptor
	if a == nil {
		a = d.acceptor.Load()
	}
	if a != nil {
		s := DeviceStatus{Name: "Note acceptor", Model: a.Version(), Port: dv.Ports.Acceptor, LastFault: lastFault(accLast)}
		switch {
		case !accFault.IsZero():
			s.State = "Fault: " + accFault.String()
		case dv.MayTakeMoney != nil && dv.MayTakeMoney():
			s.OK, s.State = true, "Working: taking notes"
		default:
			s.OK, s.State = true, "Working, inhibited: takes no notes in technician mode (but for the accept test), without the table, or while the table is closed"
		}
		var notes []string
		for _, c := range a.Currency() {
			notes = append(notes, cash(c.Cents()))
		}
		s.Counters = append(s.Counters, Counter{"Notes it takes", strings.Join(notes, ", ")},
			Counter{"Notes stacked", fmt.Sprintf("%d, %s", noteCount(m), cash(m.NotesIn))},
			Counter{"Tickets redeemed", fmt.Sprintf("%d, %s", m.TicketsInN, cash(m.TicketsIn))})
		out = append(out, s)
	}
	if dv.Cashier != nil {
		s := DeviceStatus{Name: "Ticket printer", Port: dv.Ports.Printer, LastFault: lastFault(prnLast)}
		st, serr := dv.Cashier.PrinterStatus()
		switch {
		case !prnFault.IsZero() && serr == nil:
			s.State = "Fault: " + prnFault.String() + " (" + printerWords(st) + ")"
		case !prnFault.IsZero():
			s.State = "Fault: " + prnFault.String()
		case serr != nil:
			s.State = "Not answering its status: " + serr.Error()
		default:
			s.OK, s.State = true, "Ready: "+printerWords(st)
		}
		if serr == nil {
			s.Model = st.Firmware
		}
		s.Counters = append(s.Counters, Counter{"Tickets printed", fmt.Sprintf("%d, %s", m.TicketsOutN, cash(m.TicketsOut))})
		out = append(out, s)
	}
	if p := dv.Pad; p != nil {
		seat := max(dv.Seat, 1)
		state := fmt.Sprintf("Working: seat %d's pad not touched, no card in", seat)
		card, in := p.Card(seat)
		switch {
		case p.Touched(seat) && in:
			state = fmt.Sprintf("Working: seat %d's pad touched, card %s in", seat, card)
		case p.Touched(seat):
			state = fmt.Sprintf("Working: seat %d's pad touched, no card in", seat)
		case in:
			state = fmt.Sprintf("Working: seat %d's pad not touched, card %s in", seat, card)
		}
		out = append(out, DeviceStatus{Name: "Player-ID pad", OK: true, State: state, Port: dv.Ports.Pad})
	}
	return out, nil
}

// noteCount is how many notes the meters count stacked.
func noteCount(m meters.Meters) int {
	n := 0
	for _, k := range m.Notes {
		n += k
	}
	return n
}

// lastFault is a last fault in words with its local time, "" for none.
func lastFault(f cashier.Fault) string {
	if f.Msg.IsZero() {
		return ""
	}
	return f.Msg.String() + ", " + f.At.Local().Format("2006-01-02 15:04")
}

// Record kinds of the devices page's tests.
const (
	KindTestTicket = "technician-test-ticket" // a VOID test ticket: printing, then printed or why not
	KindAcceptTest = "technician-accept-test" // the acceptor's test: started, then the note or why none
)

// PrintTestTicket prints a VOID test ticket over the running printer driver, journalled with
// the technician before and after. It moves no money: the ticket's validation number is
// all zeros, which no table issues.
func (d *Desk) PrintTestTicket(ctx context.Context) (string, error) {
	tech, err := d.technician()
	if err != nil {
		return "", err
	}
	if d.cfg.Devices.Cashier == nil {
		return "", errors.New("this terminal has no printer")
	}
	log := JournalLog{d.cfg.Journal}
	if err := log.ServiceRecord(ctx, KindTestTicket, tech.ID, "printing a void test ticket"); err != nil {
		return "", err
	}
	perr := d.cfg.Devices.Cashier.PrintTestTicket(ctx)
	said := "void test ticket printed"
	if perr != nil {
		said = "void test ticket not printed: " + perr.Error()
	}
	if err := log.ServiceRecord(ctx, KindTestTicket, tech.ID, said); err != nil {
		return "", err
	}
	return said, perr
}

// AcceptTest enables the note acceptor for one note, which is returned and not credited, and
// says which it was; journalled with the technician before and after.
func (d *Desk) AcceptTest(ctx context.Context) (string, error) {
	tech, err := d.technician()
	if err != nil {
		return "", err
	}
	if d.cfg.Devices.AcceptTest == nil {
		return "", errors.New("this terminal has no note acceptor")
	}
	log := JournalLog{d.cfg.Journal}
	if err := log.ServiceRecord(ctx, KindAcceptTest, tech.ID, "waiting for a note"); err != nil {
		return "", err
	}
	e, terr := d.cfg.Devices.AcceptTest(ctx)
	var said string
	switch {
	case terr != nil:
		said = "no note taken: " + terr.Error()
	case e.IsTicket():
		said = "a ticket was read and returned (not redeemed)"
	default:
		said = fmt.Sprintf("note %s read and returned (not credited)", money.InCurrency(d.cfg.Terminal.View().Config.Currency, e.Cents))
	}
	if err := log.ServiceRecord(ctx, KindAcceptTest, tech.ID, said); err != nil {
		return "", err
	}
	return said, terr
}

// Settings are the settings now: the file's, and what the terminal runs with for the rest.
func (d *Desk) Settings() (Values, error) {
	if _, err := d.technician(); err != nil {
		return Values{}, err
	}
	if d.cfg.Settings == nil {
		return Values{}, errors.New("this terminal keeps no settings")
	}
	v, err := d.cfg.Settings.Load()
	return v.Over(d.cfg.Running), err
}

// SetSetting changes one setting (design, language, seat), journalled with the technician and
// the old and new values before the file changes. It takes effect when the kiosk next starts.
func (d *Desk) SetSetting(ctx context.Context, key, value string) error {
	tech, err := d.technician()
	if err != nil {
		return err
	}
	if d.cfg.Settings == nil {
		return errors.New("this terminal keeps no settings")
	}
	_, _, err = d.cfg.Settings.update(func(v Values) (Values, error) {
		now, err := v.with(key, value)
		if err != nil {
			return v, err
		}
		detail := fmt.Sprintf("%s: %q -> %q", key, v.Over(d.cfg.Running).Get(key), now.Get(key))
		return now, JournalLog{d.cfg.Journal}.ServiceRecord(ctx, KindConfig, tech.ID, detail)
	})
	return err
}

// printerWords is the printer's paper and print head in words.
func printerWords(st printer.Status) string {
	paper := "paper in"
	switch {
	case st.Has(printer.FlagPaperOut):
		paper = "paper out"
	case st.Has(printer.FlagPaperLow):
		paper = "paper low"
	case !st.Extended:
		paper = "paper in (this printer does not report low paper)"
	}
	head := "print head down"
	if st.Has(printer.FlagHeadUp) {
		head = "print head up (platen open)"
	}
	return paper + ", " + head
}
