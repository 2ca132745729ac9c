package technician

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/tablegames/ats/app"
	"github.com/tablegames/ats/app/calibration"
	"github.com/tablegames/ats/app/cashier"
	"github.com/tablegames/ats/app/journal"
	"github.com/tablegames/ats/app/meters"
	"github.com/tablegames/ats/app/money"
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
	Cashier      *cashier.Cashier
	MayTakeMoney func() bool // the station's: why the acceptor is inhibited or not
	// AcceptTest enables the acceptor for one note and returns it (the station's AcceptTest).
	AcceptTest func(ctx context.Context) (noteacceptor.Escrow, error)
}

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

// DeviceStatus is one device as its page shows it.
type DeviceStatus struct {
	Name  string
	Lines []string
}

// DeviceStatuses is each device's state now, from the running drivers.
func (d *Desk) DeviceStatuses() ([]DeviceStatus, error) {
	if _, err := d.technician(); err != nil {
		return nil, err
	}
	dv := d.cfg.Devices
	var out []DeviceStatus
	// Each device's fault now, apart; the ones before are in the event log (device-fault).
	var accFault, prnFault string
	if dv.Cashier != nil {
		a, p := dv.Cashier.DeviceFaults()
		if !a.IsZero() {
			accFault = a.String()
		}
		if !p.IsZero() {
			prnFault = p.String()
		}
	}
	a := dv.Acceptor
	if a == nil {
		a = d.acceptor.Load()
	}
	if a != nil {
		s := DeviceStatus{Name: "Note acceptor"}
		s.Lines = append(s.Lines, "version: "+orNone(a.Version()))
		var notes []string
		for _, c := range a.Currency() {
			notes = append(notes, money.Decimal(c.Cents()))
		}
		s.Lines = append(s.Lines, fmt.Sprintf("notes accepted: %v", notes))
		inhibited := "yes (technician mode, no table, table closed or a device fault)"
		if dv.MayTakeMoney != nil && dv.MayTakeMoney() {
			inhibited = "no"
		}
		s.Lines = append(s.Lines, "inhibited: "+inhibited)
		if dv.Cashier != nil {
			s.Lines = append(s.Lines, "fault now: "+orNone(accFault))
		}
		out = append(out, s)
	}
	if dv.Cashier != nil {
		lines := []string{"fault now: " + orNone(prnFault)}
		out = append(out, DeviceStatus{Name: "Printer", Lines: append(lines, printerLines(dv.Cashier.PrinterStatus())...)})
	}
	if p := dv.Pad; p != nil {
		seat := max(dv.Seat, 1)
		card, ok := p.Card(seat)
		if !ok {
			card = "none"
		}
		out = append(out, DeviceStatus{Name: "ID pad", Lines: []string{
			fmt.Sprintf("seat %d touched: %v", seat, p.Touched(seat)), "card: " + card}})
	}
	if len(out) == 0 {
		out = append(out, DeviceStatus{Name: "Devices", Lines: []string{"this terminal has no serial devices"}})
	}
	return out, nil
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
		said = fmt.Sprintf("note %s read and returned (not credited)", money.Decimal(e.Cents))
	}
	if err := log.ServiceRecord(ctx, KindAcceptTest, tech.ID, said); err != nil {
		return "", err
	}
	return said, terr
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
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

// printerLines is the printer's state as it answers now: firmware, paper, print head, and
// every flag up.
func printerLines(st printer.Status, err error) []string {
	if err != nil {
		return []string{"status: " + err.Error()}
	}
	paper := "ok"
	switch {
	case st.Has(printer.FlagPaperOut):
		paper = "out"
	case st.Has(printer.FlagPaperLow):
		paper = "low"
	case !st.Extended:
		paper = "not out (a standard status does not say low)"
	}
	head := "down"
	if st.Has(printer.FlagHeadUp) {
		head = "up (platen open)"
	}
	if st.Has(printer.FlagHeadError) {
		head += ", head error"
	}
	return []string{"firmware: " + orNone(st.Firmware), "paper: " + paper, "print head: " + head, "status: " + st.String()}
}
