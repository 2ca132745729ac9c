package printer

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/tablegames/ats/devices/serialport"
)

// Line is how a TCL printer's serial line is set: 9600 baud, 8N1.
func Line(name string) serialport.Config {
	return serialport.Config{Name: name, Baud: 9600, DataBits: 8, Parity: serialport.ParityNone, StopBits: 1, ReadTimeout: 100 * time.Millisecond}
}

// Outcome of a print job, as far as the host can know it.
type Outcome int

const (
	// NotPrinted: no ticket with this validation number left the printer. Print it again when
	// the fault is cleared, or pay by hand.
	NotPrinted Outcome = iota
	// MaybePrinted: the validation number was printed (or the printer stopped answering during
	// the job) but the job did not finish. The app must choose one of reprinting the same ticket
	// (same validation number: it redeems once, ever) or a handpay that voids it — never both.
	MaybePrinted
	// Printed: busy → validation printed → not busy → top of form all seen.
	Printed
)

func (o Outcome) String() string {
	return [...]string{"not printed", "maybe printed", "printed"}[o]
}

// Error is a failed print job: what became of the ticket, and why.
type Error struct {
	Outcome Outcome
	Faults  []string // the printer's fault flags, in words
	Err     error    // a line error, or a timeout
}

func (e *Error) Error() string {
	var why []string
	why = append(why, e.Faults...)
	if e.Err != nil {
		why = append(why, e.Err.Error())
	}
	return fmt.Sprintf("printer: ticket %s: %s", e.Outcome, strings.Join(why, ", "))
}

func (e *Error) Unwrap() error { return e.Err }

// Config tunes the driver; zero values take the defaults.
type Config struct {
	Poll         time.Duration // status polls during a job; 100 ms — keep it under half the print time, or BUSY is missed
	ReplyTimeout time.Duration // for one status reply; 500 ms
	JobTimeout   time.Duration // for a whole job; 15 s
	Log          *slog.Logger
}

// Printer drives one TCL printer.
type Printer struct {
	port    serialport.Port
	sr      *StatusReader
	cfg     Config
	defined bool
}

// New makes a driver.
func New(port serialport.Port, cfg Config) *Printer {
	if cfg.Poll <= 0 {
		cfg.Poll = 100 * time.Millisecond
	}
	if cfg.ReplyTimeout <= 0 {
		cfg.ReplyTimeout = 500 * time.Millisecond
	}
	if cfg.JobTimeout <= 0 {
		cfg.JobTimeout = 15 * time.Second
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	return &Printer{port: port, sr: NewStatusReader(port), cfg: cfg}
}

// ErrNoReply is returned when the printer does not answer ENQ.
var ErrNoReply = errors.New("printer: no status reply")

// Status asks the printer for its status.
func (p *Printer) Status() (Status, error) {
	if _, err := p.port.Write([]byte{ENQ}); err != nil {
		return Status{}, err
	}
	deadline := time.Now().Add(p.cfg.ReplyTimeout)
	for {
		s, err := p.sr.Next()
		if err == nil {
			return s, nil
		}
		var ne *NoiseError
		switch {
		case errors.As(err, &ne):
			p.cfg.Log.Warn("printer: line noise", "err", err)
		case serialport.IsTimeout(err):
		default:
			return Status{}, err
		}
		if time.Now().After(deadline) {
			return Status{}, fmt.Errorf("%w within %v", ErrNoReply, p.cfg.ReplyTimeout)
		}
	}
}

func (p *Printer) send(c Command) error {
	b, err := c.Encode()
	if err != nil {
		return err
	}
	_, err = p.port.Write(b)
	return err
}

// Define sends the cash-out template; a printer forgets it on power-up.
func (p *Printer) Define() error {
	if err := p.send(Command{Op: 'C'}); err != nil {
		return err
	}
	for _, c := range TemplateCommands() {
		if err := p.send(c); err != nil {
			return err
		}
	}
	s, err := p.Status()
	if err != nil {
		return err
	}
	if s.Has(FlagCommandError) || s.Has(FlagLibraryRef) || s.Has(FlagPowerUp) {
		return fmt.Errorf("printer: template not accepted: %v", s)
	}
	p.defined = true
	return nil
}

// Print prints t and follows the job to its end. A nil error means Printed; otherwise the
// *Error says whether the ticket may have left the printer.
func (p *Printer) Print(ctx context.Context, t Ticket) error {
	fields, err := t.Fields()
	if err != nil {
		return err // the ticket itself is wrong: nothing was sent
	}
	cmd := Command{Op: 'P', Fields: append([]string{fmt.Sprint(CashoutTemplate), "1"}, fields...)}
	if _, err := cmd.Encode(); err != nil {
		return err
	}
	s, err := p.Status()
	if err != nil {
		return &Error{Outcome: NotPrinted, Err: err}
	}
	if !p.defined || s.Has(FlagPowerUp) {
		if err := p.Define(); err != nil {
			return &Error{Outcome: NotPrinted, Err: err}
		}
		if s, err = p.Status(); err != nil {
			return &Error{Outcome: NotPrinted, Err: err}
		}
	}
	if f := s.Faults(); len(f) > 0 {
		return &Error{Outcome: NotPrinted, Faults: f}
	}
	if s.Has(FlagBusy) {
		return &Error{Outcome: NotPrinted, Err: errors.New("printer busy with another job")}
	}
	if err := p.send(cmd); err != nil {
		return &Error{Outcome: MaybePrinted, Err: err}
	}
	// Follow the job. VALIDATION PRINTED counts only after BUSY was seen, because the flag of
	// the previous job may still be up when the first poll arrives.
	deadline := time.Now().Add(p.cfg.JobTimeout)
	var busy, validated bool
	misses := 0
	for {
		select {
		case <-ctx.Done():
			return &Error{Outcome: MaybePrinted, Err: ctx.Err()}
		case <-time.After(p.cfg.Poll):
		}
		s, err := p.Status()
		if err != nil {
			if misses++; misses >= 3 {
				return &Error{Outcome: MaybePrinted, Err: fmt.Errorf("printer stopped answering during the job: %w", err)}
			}
			continue
		}
		misses = 0
		if s.Has(FlagBusy) {
			busy = true
		}
		if busy && s.Has(FlagValidationPrinted) {
			validated = true
		}
		if f := s.Faults(); len(f) > 0 {
			o := NotPrinted
			if validated {
				o = MaybePrinted
			}
			return &Error{Outcome: o, Faults: f}
		}
		if validated && !s.Has(FlagBusy) && s.Has(FlagTopOfForm) {
			return nil
		}
		if time.Now().After(deadline) {
			o := NotPrinted
			if busy {
				o = MaybePrinted
			}
			return &Error{Outcome: o, Err: fmt.Errorf("job not finished within %v (%v)", p.cfg.JobTimeout, s)}
		}
	}
}
