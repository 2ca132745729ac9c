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
	// MaybePrinted: the validation number may be on paper (the printer had read the barcode
	// data or reported validation done, or stopped answering during the job) but the job did not
	// finish. The app must choose one of reprinting the same ticket
	// (same validation number: it redeems once, ever) or a handpay that voids it — never both.
	MaybePrinted
	// Printed: busy → validation done → not busy → top of form all seen.
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
	FeedTimeout  time.Duration // for a form feed to reach the top of form; 3 s
	Log          *slog.Logger
}

// Printer drives one TCL printer.
type Printer struct {
	port    serialport.Port
	sr      *StatusReader
	cfg     Config
	defined bool
	// byCommand is set once the printer has answered ^S|^ and not ENQ: some TCL printers take
	// only commands between carets. The driver asks that way first from then on.
	byCommand bool
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
	if cfg.FeedTimeout <= 0 {
		cfg.FeedTimeout = 3 * time.Second
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	return &Printer{port: port, sr: NewStatusReader(port), cfg: cfg}
}

// ErrNoReply is returned when the printer does not answer a status request.
var ErrNoReply = errors.New("printer: no status reply")

// Status asks the printer for its status: ENQ, and "^S|^" if ENQ goes unanswered.
func (p *Printer) Status() (Status, error) {
	reqs := [][]byte{{ENQ}, StatusCommand}
	if p.byCommand {
		reqs[0], reqs[1] = reqs[1], reqs[0]
	}
	for i, req := range reqs {
		s, err := p.ask(req)
		if err == nil {
			p.byCommand = req[0] == '^'
			return s, nil
		}
		if !errors.Is(err, ErrNoReply) {
			return Status{}, err
		}
		if i == len(reqs)-1 {
			return Status{}, fmt.Errorf("%w to ENQ or ^S|^ within %v", ErrNoReply, p.cfg.ReplyTimeout)
		}
	}
	panic("unreachable")
}

// ask sends one status request and waits for the reply. The port is not flushed first: that
// would also drop commands written but not yet on the line. A reply that comes late (or one a
// printer sends unprompted) is still a status of the printer, so taking it is harmless.
func (p *Printer) ask(req []byte) (Status, error) {
	if _, err := p.port.Write(req); err != nil {
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
			return Status{}, ErrNoReply
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

// refused are the flags by which a printer refuses what the host sent.
var refused = []Flag{FlagCommandError, FlagDataCorrupted, FlagLibraryRef}

func anyOf(s Status, fs []Flag) bool {
	for _, f := range fs {
		if s.Has(f) {
			return true
		}
	}
	return false
}

// Define sends the cash-out regions and template, after clearing the error and power-up flags;
// a printer forgets RAM definitions at power-up. Each definition is checked by a status request
// before the next is sent, so a refusal names the definition the printer did not take (and a
// printer that reads a command only once the line has gone quiet gets each on its own).
func (p *Printer) Define() error {
	p.defined = false
	if err := p.send(Command{Op: 'C'}); err != nil {
		return err
	}
	s, err := p.Status()
	if err != nil {
		return err
	}
	if anyOf(s, refused) || s.Has(FlagPowerUp) {
		return fmt.Errorf("printer: the clear command did not clear the flags: %v", s)
	}
	for _, c := range TemplateCommands() {
		if err := p.send(c); err != nil {
			return err
		}
		s, err := p.Status()
		if err != nil {
			return err
		}
		if anyOf(s, refused) {
			return fmt.Errorf("printer: definition %s not accepted: %v", c, s)
		}
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
	cmd, err := PrintCommand(fields)
	if err != nil {
		return err
	}
	s, err := p.ready(ctx)
	if err != nil {
		return err
	}
	// The flags left by the last job: validation done stays up until this job starts.
	before := s
	if err := p.send(cmd); err != nil {
		return &Error{Outcome: MaybePrinted, Err: err}
	}
	return p.follow(ctx, before)
}

// ready brings the printer to where it can take a job: extended status, templates defined,
// errors of earlier commands cleared, no fault, not busy, paper at the top of a form.
func (p *Printer) ready(ctx context.Context) (Status, error) {
	s, err := p.Status()
	if err != nil {
		return s, &Error{Outcome: NotPrinted, Err: err}
	}
	if !s.Extended {
		return s, &Error{Outcome: NotPrinted, Err: errors.New("the printer answers only the standard status, without validation done and top of form: a job could not be followed (set it to extended status)")}
	}
	if !p.defined || s.Has(FlagPowerUp) {
		if err := p.Define(); err != nil {
			return s, &Error{Outcome: NotPrinted, Err: err}
		}
		if s, err = p.Status(); err != nil {
			return s, &Error{Outcome: NotPrinted, Err: err}
		}
	}
	if anyOf(s, refused) {
		// Left by an earlier command (a technician's, or a job the printer refused): cleared
		// so that it is not taken for this job's.
		if err := p.send(Command{Op: 'C'}); err != nil {
			return s, &Error{Outcome: NotPrinted, Err: err}
		}
		if s, err = p.Status(); err != nil {
			return s, &Error{Outcome: NotPrinted, Err: err}
		}
		if s.Has(FlagPowerUp) {
			return s, &Error{Outcome: NotPrinted, Err: errors.New("the printer was reset; its templates are gone")}
		}
	}
	if f := s.Faults(); len(f) > 0 {
		return s, &Error{Outcome: NotPrinted, Faults: f}
	}
	if s.Has(FlagBusy) {
		return s, &Error{Outcome: NotPrinted, Err: errors.New("printer busy with another job")}
	}
	if !s.Has(FlagTopOfForm) {
		// A torn ticket or a cleared jam leaves the paper between forms: feed to the next.
		if err := p.send(Command{Op: 'f', Fields: []string{"I"}}); err != nil {
			return s, &Error{Outcome: NotPrinted, Err: err}
		}
		deadline := time.Now().Add(p.cfg.FeedTimeout)
		for !s.Has(FlagTopOfForm) {
			if f := s.Faults(); len(f) > 0 {
				return s, &Error{Outcome: NotPrinted, Faults: f}
			}
			if time.Now().After(deadline) {
				return s, &Error{Outcome: NotPrinted, Err: fmt.Errorf("paper not at top of form %v after a form feed", p.cfg.FeedTimeout)}
			}
			select {
			case <-ctx.Done():
				return s, &Error{Outcome: NotPrinted, Err: ctx.Err()}
			case <-time.After(p.cfg.Poll):
			}
			if s, err = p.Status(); err != nil {
				return s, &Error{Outcome: NotPrinted, Err: err}
			}
		}
	}
	return s, nil
}

// follow polls the status until the job is done or cannot be. before is the status just before
// the print command.
//
// The job has started when busy is seen, or when validation done, up before, goes down (a
// printer clears it as it starts), or when a flag only a job raises has come up since before
// (raisedByAJob): a host polling late — a loaded machine — can miss the whole job between two
// polls, and a finished ticket taken for a job that never started would be printed again.
// Flags seen before that belong to the last job. Once started:
// barcode accessed or validation done means the validation number may be on paper (a fault from
// then on leaves the ticket maybe printed); validation done, then not busy, then top of form is
// a printed ticket.
func (p *Printer) follow(ctx context.Context, before Status) error {
	deadline := time.Now().Add(p.cfg.JobTimeout)
	var started, onPaper, validated bool
	misses := 0
	for {
		select {
		case <-ctx.Done():
			// The print command is in the printer: it may print without us watching.
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
		if s.Has(FlagBusy) || (before.Has(FlagValidationDone) && !s.Has(FlagValidationDone)) || raisedByAJob(before, s) {
			started = true
		}
		if started && (s.Has(FlagBarcodeAccessed) || s.Has(FlagValidationDone)) {
			onPaper = true
		}
		if started && s.Has(FlagValidationDone) {
			validated = true
		}
		maybe := NotPrinted
		if onPaper {
			maybe = MaybePrinted
		}
		if f := s.Faults(); len(f) > 0 {
			return &Error{Outcome: maybe, Faults: f}
		}
		if started && s.Has(FlagPowerUp) {
			return &Error{Outcome: maybe, Err: errors.New("the printer was reset during the job")}
		}
		if validated && !s.Has(FlagBusy) && s.Has(FlagTopOfForm) {
			return nil
		}
		if time.Now().After(deadline) {
			if started {
				maybe = MaybePrinted
			}
			return &Error{Outcome: maybe, Err: fmt.Errorf("job not finished within %v (%v)", p.cfg.JobTimeout, s)}
		}
	}
}

// jobFlags are raised by a print job and by nothing else but a power-up (which also raises the
// power-up flag): barcode accessed and validation done as the validation number goes on paper,
// paper in the chute as the ticket comes out. Replies come in order on the line, so a status read
// after before that shows one of them up, where before had it down, is this job's.
var jobFlags = []Flag{FlagBarcodeAccessed, FlagValidationDone, FlagPaperInChute}

// raisedByAJob says whether s, read after the print command, shows a job flag that was down in
// before, the status just before it: the job ran, even if no poll saw it busy.
func raisedByAJob(before, s Status) bool {
	if s.Has(FlagPowerUp) {
		return false // a reset raises validation done too; follow reports it
	}
	for _, f := range jobFlags {
		if s.Has(f) && !before.Has(f) {
			return true
		}
	}
	return false
}
