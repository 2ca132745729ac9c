// Package station assembles one player station without a screen: the table client, the
// terminal, its journal (with the game records), the cashier and the device drivers on their
// serial lines, recovered and running. The kiosk puts a Fyne screen on top of it; the crash
// harness runs it bare and kills it. Keeping the wiring in one place means the process the
// harness kills is put together exactly like the one on the casino floor.
package station

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/tablegames/ats/app/table"

	"github.com/tablegames/ats/app"
	"github.com/tablegames/ats/app/calibration"
	"github.com/tablegames/ats/app/cashier"
	"github.com/tablegames/ats/app/clock"
	"github.com/tablegames/ats/app/journal"
	"github.com/tablegames/ats/app/recall"
	"github.com/tablegames/ats/app/technician"
	"github.com/tablegames/ats/client"
	"github.com/tablegames/ats/devices/idpad"
	"github.com/tablegames/ats/devices/noteacceptor"
	"github.com/tablegames/ats/devices/printer"
	"github.com/tablegames/ats/devices/serialport"
	"github.com/tablegames/ats/internal/backoff"
)

// Config says where a station's parts are.
type Config struct {
	ID         string        // terminal id (its certificate name), printed on tickets
	Journal    string        // the terminal journal file
	JournalKey string        // its key file (0600, made on first start); "": beside it (journal.KeyPath)
	Client     client.Config // the table server
	Acceptor   string        // note acceptor serial device; "" for none
	Printer    string        // ticket printer serial device; "" for none
	IDPad      string        // player-ID pad line; "" for none
	Seat       int           // this terminal's pad on that line (1–16)

	AcceptorPoll time.Duration // 0: the driver's default
	PrinterPoll  time.Duration
	PrintRetries int           // 0: the cashier's default
	PrinterCheck time.Duration // between printer status checks when idle; 0: 1 s
	RetryEvery   time.Duration // 0: the cashier's default
	Log          *slog.Logger

	// Technician mode (technician.go): its files' directory ("" for no technician mode) and
	// where a touch calibration is kept and applied.
	StateDir string
	Touch    calibration.Persist
	// LocalTechnicianPINs checks technician PINs against the technicians file's own hashes
	// instead of asking the table server (TerminalService.AuthenticateTechnician), for a table
	// with no technician PIN file. Off by default: the table's PINs are the technicians'.
	LocalTechnicianPINs bool
	// Sounds plays the terminal's cues (internal/sound on a cabinet); nil for a silent terminal.
	Sounds app.Sounds
	// Running is the design and language the kiosk runs with (the seat is Seat), shown on the
	// settings page for a setting the technician has not changed.
	Running technician.Values
	// AcceptTestTimeout is how long a technician's accept test waits for a note; 0: 30 s.
	AcceptTestTimeout time.Duration

	// Clock is the one clock the station's parts run their timers on and date by: the
	// terminal, the cashier, the client (unless Client.Clock is set), the journal, the
	// recovery retries, the printer check, the acceptor's inhibit check and the accept test's
	// timeout. nil: the machine's clock. Device and network deadlines stay on the machine's
	// clock: they bound I/O, which no fake clock moves.
	Clock clock.Clock
}

// Station is a running station. Its fields are the parts, for a screen or a harness to use.
type Station struct {
	Client   *client.Client
	Terminal *app.Terminal
	Journal  *journal.Journal
	Cashier  *cashier.Cashier       // nil without a printer
	Acceptor *noteacceptor.Acceptor // nil without one
	Pad      *idpad.Pad             // nil without one
	Desk     *technician.Desk       // technician mode's pages; nil without a StateDir

	technicians *technician.Store
	faults      *technician.FaultLog
	log         *slog.Logger
	clock       clock.Clock
	cancel      context.CancelFunc
	recovered   chan struct{}
	acceptTest  acceptTester // technician.go: the acceptor enabled for a technician's test
	refusedMu   sync.Mutex
	refused     error
	wg          sync.WaitGroup
	close       []func() error
}

// MayTakeMoney says whether the station may take money now: not without the table server, not
// while the table is closed, not while a device is at fault (the cashier tells the player
// which) — the acceptor's own faults, and the printer's: a player must be able to cash out —
// and not while a technician has the terminal — nor ever at a table whose rules take money only
// through the dealer (004 §6.2; 000 §11.7.2): there the acceptor stays inhibited, notes and
// tickets handed back, and the dealer buys the player in.
func (s *Station) MayTakeMoney() bool {
	if s.Cashier != nil && !s.Cashier.Status().Fault.IsZero() || s.Refused() != nil {
		return false
	}
	if s.Terminal.InService() {
		return false // a technician has the terminal
	}
	v := s.Terminal.View()
	return s.Client.Connected() && v.Phase != table.PhaseClosed && !v.Config.DealerCashOnly
}

// Start opens the journal (verifying its chain), connects to the table, recovers the money
// flows a crash left open (which waits for the table server if it must), and starts the
// terminal and the drivers. ctx bounds the station's life; Close stops it.
func Start(ctx context.Context, cfg Config) (_ *Station, err error) {
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.Client.Logger == nil {
		cfg.Client.Logger = cfg.Log
	}
	if cfg.Clock == nil {
		cfg.Clock = clock.Real{}
	}
	if cfg.Client.Clock == nil {
		cfg.Client.Clock = cfg.Clock
	}
	ctx, cancel := context.WithCancel(ctx)
	s := &Station{cancel: cancel, recovered: make(chan struct{}), log: cfg.Log, clock: cfg.Clock}
	defer func() {
		if err != nil {
			s.Close()
		}
	}()
	if s.Journal, err = journal.OpenWith(cfg.Journal, journal.Options{Now: cfg.Clock.Now, Key: cfg.JournalKey}); err != nil {
		return nil, err
	}
	s.close = append(s.close, s.Journal.Close)
	// Every money call carries the journal's head; the table keeps the newest as its anchor.
	cfg.Client.JournalHead = s.Journal.Head
	if s.Client, err = client.Dial(cfg.Client); err != nil {
		return nil, err
	}
	s.close = append(s.close, s.Client.Close)
	var gate app.Gate
	if cfg.IDPad != "" {
		// The pad gates wagers when the table's profile asks for a touch or a player card.
		port, err := serialport.Open(idpad.Line(cfg.IDPad))
		if err != nil {
			return nil, err
		}
		s.close = append(s.close, port.Close)
		s.Pad = idpad.New(port, idpad.Config{Log: cfg.Log})
		gate = s.Pad.Seat(max(cfg.Seat, 1))
		s.run(func() {
			if err := s.Pad.Run(ctx); err != nil && !errors.Is(err, context.Canceled) {
				cfg.Log.Error("ID pad", "err", err)
			}
		})
	}
	var desk app.Cashier
	if cfg.Printer != "" {
		pport, err := serialport.Open(printer.Line(cfg.Printer))
		if err != nil {
			return nil, err
		}
		s.close = append(s.close, pport.Close)
		s.Cashier = cashier.New(s.Journal, s.Client, printer.New(pport, printer.Config{Poll: cfg.PrinterPoll, Log: cfg.Log}),
			cashier.Config{Asset: cfg.ID, PrintRetries: cfg.PrintRetries, RetryEvery: cfg.RetryEvery, Log: cfg.Log, Clock: cfg.Clock,
				// The ticket in the screen's currency: the table's, as the terminal has it
				// (read when a ticket is printed, by then from the table's snapshot).
				Currency: func() string {
					if s.Terminal == nil {
						return ""
					}
					return s.Terminal.View().Config.Currency
				}})
		desk = cashDesk{s.Cashier}
	}
	s.Terminal = app.New(app.Config{Link: s.Client, Log: cfg.Log, Clock: cfg.Clock, Records: recall.Writer{J: s.Journal},
		Gate: gate, Cashier: desk, Recall: recall.Reader{J: s.Journal}, Service: s.serviceConfig(cfg), Sounds: cfg.Sounds})
	s.startDesk(cfg)
	if s.Pad != nil {
		// The pad's events reach technician mode once the terminal and the technicians file are
		// in place (serviceConfig): read before, they raced with setting them up.
		s.run(func() {
			for {
				select {
				case <-ctx.Done():
					return
				case e := <-s.Pad.Events():
					cfg.Log.Info("ID pad", "event", e.String())
					s.padEvent(e, cfg.Seat)
				}
			}
		})
	}
	s.close = append(s.close, func() error { s.Terminal.Close(); return nil })
	if s.Cashier != nil {
		// The screen hears of money through the terminal, which chooses what the player reads.
		s.Cashier.OnChange(func(st cashier.Status) {
			s.Terminal.MoneyChanged(moneyStatus(st))
			s.faultSeen(ctx, st)
		})
	}
	s.run(func() { s.Terminal.Run(ctx) })

	if s.Cashier == nil {
		close(s.recovered)
		return s, nil
	}
	var aport serialport.Port
	if cfg.Acceptor != "" {
		if aport, err = serialport.Open(noteacceptor.Line(cfg.Acceptor)); err != nil {
			return nil, err
		}
		s.close = append(s.close, aport.Close)
		s.Acceptor = noteacceptor.New(aport, s.Cashier, noteacceptor.Config{Poll: cfg.AcceptorPoll, Log: cfg.Log})
		s.Acceptor.SetInhibit(true)
		s.acceptorReady()
	}
	// Recovery first, then money in: a credit owed is asked for again, a redemption in flight
	// is cancelled, a cash-out is carried on to its ticket or its handpay. It may have to wait
	// for the table server, so it runs beside the screen rather than before it.
	s.run(func() {
		defer close(s.recovered)
		// Before any money moves: is this the journal the table server heard from? (Its chain
		// was verified on open; the anchor shows what a chain cannot: records cut off its end,
		// an older copy, a new journal in its place.)
		var anchorErr error
		backoff.Policy{Clock: cfg.Clock}.Retry(ctx, func(ctx context.Context) error {
			seq, mac, err := s.Client.JournalAnchor(ctx)
			if err != nil {
				if ctx.Err() == nil {
					cfg.Log.Warn("station: journal anchor not read yet, trying again", "err", err)
				}
				return err
			}
			anchorErr = s.Journal.CheckAnchor(ctx, seq, mac)
			return nil
		}, func(err error) bool { return err == nil || ctx.Err() != nil })
		if anchorErr != nil {
			s.refuse(cfg.Log, anchorErr)
			return
		}
		if ctx.Err() != nil {
			return
		}
		backoff.Policy{Clock: cfg.Clock}.Retry(ctx, func(ctx context.Context) error {
			err := s.Cashier.Recover(ctx)
			if err != nil && ctx.Err() == nil {
				cfg.Log.Warn("station: recovery incomplete, trying again", "err", err)
			}
			return err
		}, func(err error) bool { return err == nil || ctx.Err() != nil })
		if ctx.Err() != nil {
			return
		}
		s.run(func() {
			every := cmp.Or(cfg.PrinterCheck, time.Second)
			for {
				s.Cashier.CheckPrinter()
				if backoff.SleepOn(ctx, cfg.Clock, every) != nil {
					return
				}
			}
		})
		if s.Acceptor != nil {
			s.run(func() {
				if err := s.Acceptor.Run(ctx); err != nil && !errors.Is(err, context.Canceled) {
					cfg.Log.Error("note acceptor", "err", err)
				}
			})
			s.run(func() { s.inhibitUnlessTableTakes(ctx) })
		}
	})
	return s, nil
}

// Recovered is closed when start-up recovery has finished (or the station was closed first, or
// refused money: see Refused).
func (s *Station) Recovered() <-chan struct{} { return s.recovered }

// Refused is why the station refuses money (nil while it does not): its journal does not match
// the table server's anchor (journal.ErrAnchor) — records deleted, an older copy, a new
// journal for a terminal the table knows, a record forged. Nothing is recovered, no note or
// ticket is taken and cash-out is refused until an attendant has looked into it.
func (s *Station) Refused() error {
	s.refusedMu.Lock()
	defer s.refusedMu.Unlock()
	return s.refused
}

func (s *Station) refuse(log *slog.Logger, err error) {
	err = fmt.Errorf("station: money refused: %w", err)
	s.refusedMu.Lock()
	s.refused = err
	s.refusedMu.Unlock()
	log.Error("station: the terminal journal failed its check against the table server; money is stopped", "err", err)
	s.Cashier.Refuse(err)
}

// inhibitUnlessTableTakes keeps the acceptor inhibited while the table cannot credit money.
func (s *Station) inhibitUnlessTableTakes(ctx context.Context) {
	for {
		may := s.MayTakeMoney()
		if may {
			s.Cashier.EndAcceptTestGrace() // in play again: a note now is a player's
		}
		s.Acceptor.SetInhibit(!may && !s.acceptTest.on.Load())
		if backoff.SleepOn(ctx, s.clock, 200*time.Millisecond) != nil {
			return
		}
	}
}

func (s *Station) run(fn func()) {
	s.wg.Add(1)
	go func() { defer s.wg.Done(); fn() }()
}

// Close stops the drivers and the terminal and closes the ports, the client and the journal.
func (s *Station) Close() {
	s.cancel()
	s.wg.Wait()
	for i := len(s.close) - 1; i >= 0; i-- {
		s.close[i]()
	}
	s.close = nil
}

// cashDesk is the cashier as the terminal asks it to cash out.
type cashDesk struct{ c *cashier.Cashier }

func (d cashDesk) CashOut(ctx context.Context) error {
	err := d.c.CashOut(ctx)
	switch {
	case errors.Is(err, cashier.ErrBusy):
		return fmt.Errorf("%w: %w", app.ErrCashOutBusy, err)
	case errors.Is(err, cashier.ErrPrinterDown):
		return fmt.Errorf("%w: %w", app.ErrCashOutRefused, err)
	}
	return err
}

// moneyStatus is the cashier's status as the screen reads it.
func moneyStatus(st cashier.Status) app.MoneyStatus {
	return app.MoneyStatus{Cashier: true, Message: st.Message, Fault: st.Fault, CashingOut: st.CashingOut,
		TakeTicket: st.TakeTicket, Handpay: st.Handpay, Said: st.Said, PrinterDown: st.PrinterDown}
}
