// Package cashier moves money in and out of one terminal: notes and tickets from the note
// acceptor into the chip account, and the chip account out to a printed cash-out ticket. Each
// step is journalled (app/journal, fsync) before it is acted on — before the acceptor is told to
// stack, before VEND VALID is acknowledged, before the printer is told to print — and each
// server call carries an idempotency key derived from the flow's key (the flow key plus the
// call: "/redeem", "/commit", "/printed"…), so Recover after a crash finishes or reverses
// whatever was in flight and nothing is lost or paid twice.
//
// The flows and their journal states:
//
//	note:    stacking → credit (the credit point) → done;  stacking → reversed (returned);
//	         stacking → unresolved (no credit point, not returned: the attendant's)
//	         → credit (found in the stacker, or counted in the cash box) | reversed (not in it)
//	ticket:  redeeming → stacking (server holds it) → credit → done;  → reversed (cancelled);
//	         → cancelling (the table did not answer the cancel; asked again) → reversed
//	cashout: requested → printing → confirming → done;  printing → handpay → done
package cashier

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/tablegames/ats/app/clock"
	"github.com/tablegames/ats/app/table"
	"github.com/tablegames/ats/internal/backoff"

	"github.com/tablegames/ats/app/journal"
	"github.com/tablegames/ats/app/money"
	"github.com/tablegames/ats/app/msg"
	"github.com/tablegames/ats/devices/noteacceptor"
	"github.com/tablegames/ats/devices/printer"
)

// Bank is the table server's side of the money paths; client.Client is the real one.
type Bank interface {
	// ReportNoteEscrow tells the table of a note in escrow before it is stacked; the table
	// credits only notes it was told of.
	ReportNoteEscrow(ctx context.Context, key string, amount int64, noteCode string) error
	CreditNote(ctx context.Context, key string, amount int64, noteCode string) (table.Money, error)
	RedeemTicket(ctx context.Context, key, validation string) (int64, error)
	CommitRedeem(ctx context.Context, key, validation string) (table.Money, error)
	CancelRedeem(ctx context.Context, key, validation string) (table.Money, error)
	CashOut(ctx context.Context, key string) (*table.Ticket, error)
	TicketPrinted(ctx context.Context, key, validation string) (table.Money, error)
	TicketPrintFailed(ctx context.Context, key, validation, fault string) (table.Money, error)
}

// Printer prints a cash-out ticket and reports its status; *printer.Printer is the real one.
type Printer interface {
	Print(ctx context.Context, t printer.Ticket) error
	Status() (printer.Status, error)
}

// Flow states.
const (
	Stacking   journal.FlowState = "stacking"
	Redeeming  journal.FlowState = "redeeming"
	CreditDue  journal.FlowState = "credit"
	Requested  journal.FlowState = "requested"
	Printing   journal.FlowState = "printing"
	Confirming journal.FlowState = "confirming"
	// Cancelling: a ticket given back to the player whose hold the table has not yet confirmed
	// released (CancelRedeem unanswered: the table unreachable). Kept open and asked again until
	// the table answers — after a restart too — so the journal never says a hold was released
	// that the table still keeps.
	Cancelling journal.FlowState = "cancelling"
	// Unresolved: a note sent to the stacker whose fate the acceptor never told (no credit
	// point, not returned): it may be in the cash box. Kept open, neither credited nor reversed,
	// for the attendant to settle from the cash box count (ResolveUnresolved) — or credited if
	// the acceptor later finds it in the stacker.
	Unresolved journal.FlowState = "unresolved"
)

// Status is what the player and the attendant are told about money at this terminal.
type Status struct {
	Message    msg.Msg // the latest money event, to tell the player
	Said       int     // how many messages have been said: the same words said again are news again
	Fault      msg.Msg // the device faults stopping money in or out; zero when none
	CashingOut bool
	TakeTicket bool // a ticket was printed: take it
	Handpay    bool // the ticket could not be printed: an attendant pays by hand
	// PrinterDown: the printer reports a fault that stops it printing; Cash out is refused
	// (before any money moves) until it clears, rather than debiting the account and leaving
	// the player to watch the retries.
	PrinterDown bool
	Balance     int64
	Credits     int   // credits completed with the server since start
	Credited    int64 // their total
}

// Config names the terminal on its tickets and tunes retries.
type Config struct {
	Asset        string
	PrintRetries int           // attempts at a ticket before it goes to handpay; 5
	RetryEvery   time.Duration // between attempts; 2 s
	// CancelWait bounds the first attempt at releasing a ticket hold (CancelRedeem) while the
	// acceptor's handler waits; after it the release is asked for in the background. 5 s.
	CancelWait time.Duration
	Log        *slog.Logger
	// Clock runs the cashier's waits (between print attempts, between credit and release
	// retries, the accept test's grace) and dates the test ticket; nil: the machine's clock.
	// Device and table call deadlines stay on the machine's clock: they bound I/O.
	Clock clock.Clock
	// Currency is the table's currency (ISO 4217 code) when a ticket is printed: the ticket
	// writes its figures with the screen's symbol ("A$460.00", issue 32 point 11). Nil, or "",
	// for the printer's "$".
	Currency func() string
}

// Cashier runs the money paths of one terminal. It is the note acceptor's Handler.
type Cashier struct {
	j    *journal.Journal
	bank Bank
	prn  Printer
	cfg  Config

	mu       sync.Mutex
	status   Status
	onChange func(Status)
	pending  string     // key of the escrow sent to the stacker, not yet at its credit point
	faults   [2]msg.Msg // each device's fault (acceptor, printer); Status.Fault joins them
	last     [2]Fault   // each device's last fault since start, for the technician's devices page
	wg       sync.WaitGroup

	prnMu sync.Mutex // one conversation with the printer at a time: a job, or a status check

	refused error // set by Refuse: the journal failed its check, no money moves

	test *acceptTest // a technician's accept test (StartAcceptTest), under mu
}

// acceptTest is a technician's note acceptor test: while it is set, Escrow returns every note
// and ticket, journals nothing, tells the table nothing, and tells report what it was (report
// is nil in the grace after the test, when a note still on its way is returned untold).
type acceptTest struct{ report func(noteacceptor.Escrow) }

// AcceptTestGrace is how long after an accept test notes are still returned: a note the
// acceptor had taken in before it was inhibited again reaches escrow within it.
const AcceptTestGrace = 5 * time.Second

// ErrAcceptTestBusy refuses an accept test while another runs.
var ErrAcceptTestBusy = errors.New("an accept test is already running")

// StartAcceptTest puts the cashier in test mode: each note (or ticket) the acceptor holds in
// escrow is returned, not stacked — no credit, no escrow report to the table, no journal
// record — and report is told of it. end ends the test; notes are still returned, untold, for
// AcceptTestGrace after it. The caller keeps the acceptor enabled only while the test runs,
// and only in technician mode.
func (c *Cashier) StartAcceptTest(report func(noteacceptor.Escrow)) (end func(), err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.test != nil && c.test.report != nil {
		return nil, ErrAcceptTestBusy
	}
	t := &acceptTest{report: report}
	c.test = t
	return func() {
		c.mu.Lock()
		t.report = nil
		c.mu.Unlock()
		c.cfg.Clock.AfterFunc(AcceptTestGrace, func() {
			c.mu.Lock()
			defer c.mu.Unlock()
			if c.test == t {
				c.test = nil
			}
		})
	}, nil
}

// EndAcceptTestGrace ends the grace after an accept test at once: the station calls it when
// the terminal takes money again, so a player's note inserted within AcceptTestGrace of a
// technician leaving is credited, not handed back untold (issue 32 point 13: the demo's buy-in
// was). A test still running is left alone.
func (c *Cashier) EndAcceptTestGrace() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.test != nil && c.test.report == nil {
		c.test = nil
	}
}

// testing reports whether an accept test holds the acceptor, and whom to tell.
func (c *Cashier) testing() (report func(noteacceptor.Escrow), on bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.test == nil {
		return nil, false
	}
	return c.test.report, true
}

// Refuse stops every money path of the terminal for good (until it is restarted): its journal
// failed its check (app/journal: a MAC, or the table server's anchor), so the records the
// money paths rely on cannot be trusted. Notes and tickets are returned, cash-out is refused
// with err, and the player is told to call an attendant.
func (c *Cashier) Refuse(err error) {
	c.mu.Lock()
	c.refused = err
	c.mu.Unlock()
	c.setFault(acceptorFault, msg.New("Terminal records failed their check: money is stopped — call an attendant"))
}

func (c *Cashier) refusal() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.refused
}

// The devices whose faults the cashier keeps apart: one clearing must not hide the other's.
const (
	acceptorFault = iota
	printerFault
)

// setFault records (or with the zero Msg clears) one device's fault and recomposes Status.Fault.
func (c *Cashier) setFault(device int, m msg.Msg) {
	c.update(func(s *Status) {
		if !m.IsZero() && !m.Equal(c.faults[device]) {
			c.last[device] = Fault{Msg: m, At: c.cfg.Clock.Now()}
		}
		c.faults[device] = m
		s.PrinterDown = !c.faults[printerFault].IsZero()
		s.Fault = msg.Msg{}
		for _, f := range c.faults {
			switch {
			case f.IsZero():
			case s.Fault.IsZero():
				s.Fault = f
			default:
				s.Fault = msg.New("%s; %s", s.Fault, f)
			}
		}
	})
}

// Fault is a device's fault and when it was first reported.
type Fault struct {
	Msg msg.Msg
	At  time.Time
}

// LastFaults are each device's last fault since the cashier started (cleared or not; zero for
// none): the technician's devices page says what last went wrong, in words, beside the event
// log's full history.
func (c *Cashier) LastFaults() (acceptor, printer Fault) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.last[acceptorFault], c.last[printerFault]
}

// New returns a cashier. Call Recover before the acceptor starts.
func New(j *journal.Journal, bank Bank, prn Printer, cfg Config) *Cashier {
	if cfg.PrintRetries <= 0 {
		cfg.PrintRetries = 5
	}
	if cfg.RetryEvery <= 0 {
		cfg.RetryEvery = 2 * time.Second
	}
	if cfg.CancelWait <= 0 {
		cfg.CancelWait = 5 * time.Second
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.Clock == nil {
		cfg.Clock = clock.Real{}
	}
	return &Cashier{j: j, bank: bank, prn: prn, cfg: cfg}
}

// backoff is the wait between attempts at a call the table has not answered, on the cashier's
// clock: the default policy (500 ms rising to 5 s).
func (c *Cashier) backoff() backoff.Policy { return backoff.Policy{Clock: c.cfg.Clock} }

// OnChange registers the function told about every new Status.
func (c *Cashier) OnChange(fn func(Status)) {
	c.mu.Lock()
	c.onChange = fn
	c.mu.Unlock()
}

// Status is the current money status.
func (c *Cashier) Status() Status {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.status
}

// DeviceFaults is each money device's fault now (zero when none), apart: Status.Fault joins
// them for the player, the technician's devices page shows each under its device.
func (c *Cashier) DeviceFaults() (acceptor, printer msg.Msg) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.faults[acceptorFault], c.faults[printerFault]
}

func (c *Cashier) update(fn func(*Status)) {
	c.mu.Lock()
	fn(&c.status)
	s, cb := c.status, c.onChange
	c.mu.Unlock()
	if cb != nil {
		cb(s)
	}
}

func (c *Cashier) say(key string, args ...any) {
	m := msg.New(key, args...)
	c.update(func(s *Status) { s.Message = m; s.Said++ })
}

// Wait waits for background settlement of credits to finish (tests, shutdown).
func (c *Cashier) Wait() { c.wg.Wait() }

func newKey(kind, detail string) string {
	var b [8]byte
	rand.Read(b[:])
	return kind + ":" + detail + ":" + hex.EncodeToString(b[:])
}

// keyParts splits a flow key into its kind and detail (note code or validation number).
func keyParts(key string) (kind, detail string) {
	p := strings.SplitN(key, ":", 3)
	if len(p) != 3 {
		return "", ""
	}
	return p[0], p[1]
}

func (c *Cashier) append(ctx context.Context, kind, key string, amount int64, state journal.FlowState) error {
	_, err := c.j.Append(ctx, journal.Record{Kind: kind, Key: key, Amount: amount, Flow: state})
	return err
}

// Escrow decides on a note or ticket in escrow (noteacceptor.Handler).
func (c *Cashier) Escrow(ctx context.Context, e noteacceptor.Escrow) bool {
	if report, on := c.testing(); on {
		if report != nil {
			report(e)
		}
		return false // a technician's test note: returned, no money
	}
	if c.refusal() != nil {
		return false
	}
	if !e.IsTicket() {
		key := newKey("note", fmt.Sprintf("%02X", e.Code))
		if err := c.append(ctx, "note-escrow", key, e.Cents, Stacking); err != nil {
			c.cfg.Log.Error("cashier: journal", "err", err)
			c.say("Note returned: the terminal cannot record it")
			return false
		}
		// The table hears of the note before it is stacked: it credits no note it was not told
		// of, so a credit owed that only the journal knows (a forged record) is never paid.
		if err := c.bank.ReportNoteEscrow(ctx, key, e.Cents, fmt.Sprintf("%02X", e.Code)); err != nil {
			c.reverse(context.Background(), key, "note-refused")
			c.say("Note returned: %s", told(err))
			return false
		}
		c.setPending(key)
		return true
	}
	key := newKey("ticket", e.Ticket)
	if err := c.append(ctx, "ticket-escrow", key, 0, Redeeming); err != nil {
		c.cfg.Log.Error("cashier: journal", "err", err)
		c.say("Ticket returned: the terminal cannot record it")
		return false
	}
	amount, err := c.bank.RedeemTicket(ctx, key+"/redeem", e.Ticket)
	if err != nil {
		if table.Refused(err) {
			// The table's final answer: it took no hold, so there is none to release. Asking
			// would be a call on a ticket not this terminal's, which the table counts as a
			// failed validation toward its guessing throttle.
			if err := c.append(context.Background(), "ticket-refused", key, 0, journal.Reversed); err != nil {
				c.cfg.Log.Error("cashier: journal", "err", err)
			}
		} else {
			c.reverse(context.Background(), key, "ticket-refused")
		}
		// The refusals a player can meet at an honest terminal are said in the player's
		// language; any other is said in the table's words.
		switch {
		case refusedFor(err, table.TicketAboveMaximum):
			c.say("Ticket returned: it would take your balance above the table's maximum")
		case refusedFor(err, table.TicketAlreadyInEscrow):
			c.say("Ticket returned: another ticket is being redeemed at this terminal")
		case refusedFor(err, table.TicketStopped):
			// On the floor's stop list (an open overpayment, lost, stolen, disputed): why is
			// the supervisor's to tell, not the screen's.
			c.say("Ticket returned: it is held — please see a casino supervisor")
		default:
			c.say("Ticket refused: %s", told(err))
		}
		return false
	}
	if err := c.append(ctx, "ticket-held", key, amount, Stacking); err != nil {
		c.reverse(context.Background(), key, "ticket-unrecorded")
		return false
	}
	c.setPending(key)
	return true
}

func reason(err error) string {
	if err == nil {
		return ""
	}
	s := err.Error()
	if i := strings.LastIndex(s, "desc = "); i >= 0 {
		s = s[i+len("desc = "):]
	}
	return s
}

// errTournamentTable is the table's refusal of money while its tournament is played, as the
// player is told it (003 §10.5.2, §10.1.1).
var errTournamentTable = msg.New("this table is reserved for the tournament: it takes no money and prints no ticket until the tournament is over")

// told is the table's refusal as the player is told it: one the terminal knows (a table
// reserved for a tournament) as a message of its own, said in the player's language; any
// other in the table's words, its ticket numbers and times as the player reads them (forPlayer).
func told(err error) any {
	if refusedFor(err, table.TournamentTableRefused) {
		return errTournamentTable
	}
	return forPlayer(reason(err))
}

func (c *Cashier) setPending(key string) {
	c.mu.Lock()
	c.pending = key
	c.mu.Unlock()
}

func (c *Cashier) takePending() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	k := c.pending
	c.pending = ""
	return k
}

// Credit is the credit point (noteacceptor.Handler): journal it, then settle with the server
// in the background — the driver acknowledges the acceptor as soon as this returns nil.
func (c *Cashier) Credit(e noteacceptor.Escrow) error {
	ctx := context.Background()
	key := c.takePending()
	if key == "" {
		// VEND VALID after a restart: the acceptor takes one note at a time, so it is the note
		// or ticket of the newest money-in flow.
		f, ok, err := c.newestMoneyIn(ctx)
		if err != nil {
			return err
		}
		switch {
		case ok && f.State == Stacking:
			key = f.Key
		case ok && (f.State == CreditDue || f.State == journal.Done):
			// Its credit point was journalled before the restart and the acceptor, never
			// acknowledged, says it again: already counted, acknowledge it and count nothing.
			_, err := c.j.Append(ctx, journal.Record{Kind: "credit-point-repeated", Key: f.Key})
			return err
		}
	}
	if key == "" {
		c.setFault(acceptorFault, msg.New("A note was stacked without a record: call an attendant"))
		_, err := c.j.Append(ctx, journal.Record{Kind: "unrecorded-credit-point", Amount: e.Cents})
		return err // recorded for the attendant; acknowledge so the acceptor is not stuck
	}
	if err := c.append(ctx, "credit-point", key, 0, CreditDue); err != nil {
		return err
	}
	c.settle(key)
	return nil
}

// newestMoneyIn is the newest note or ticket flow: the only one the acceptor can still be
// holding, since it takes one at a time.
func (c *Cashier) newestMoneyIn(ctx context.Context) (journal.Flow, bool, error) {
	return c.j.NewestFlow(ctx, "note-escrow", "ticket-escrow")
}

// settle tells the server about a credit point until it answers.
func (c *Cashier) settle(key string) {
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		if err := c.finishCredit(context.Background(), key); err != nil {
			c.cfg.Log.Error("cashier: credit", "key", key, "err", err)
		}
	}()
}

// errUnknownFlow is a credit flow of no kind the cashier knows: a corrupt key, never retried.
var errUnknownFlow = errors.New("unknown kind of flow")

func (c *Cashier) finishCredit(ctx context.Context, key string) error {
	f, ok, err := c.j.FlowOf(ctx, key)
	if err != nil || !ok {
		return fmt.Errorf("cashier: flow %s: %v", key, err)
	}
	kind, detail := keyParts(key)
	var m table.Money
	// The credit point is journalled: the money is owed and the call is idempotent, so keep
	// asking (the server may be away); Recover asks again after a restart.
	err = c.backoff().Retry(ctx, func(ctx context.Context) error {
		var err error
		switch kind {
		case "note":
			m, err = c.bank.CreditNote(ctx, key, f.Amount, detail)
		case "ticket":
			m, err = c.bank.CommitRedeem(ctx, key+"/commit", detail)
		default:
			return errUnknownFlow
		}
		if err != nil {
			c.say("Credit pending: waiting for the table")
		}
		return err
	}, func(err error) bool {
		return err == nil || errors.Is(err, errUnknownFlow) || noteClaimRefused(err) || ctx.Err() != nil
	})
	if errors.Is(err, errUnknownFlow) {
		return fmt.Errorf("cashier: flow %s of unknown kind", key)
	}
	if noteClaimRefused(err) {
		// The table has no record of this note (never reported in escrow, or not for this
		// amount): asking again cannot change that. The flow goes to the attendant, unpaid.
		c.cfg.Log.Error("cashier: the table refused a note credit the journal says is owed", "key", key, "amount", f.Amount, "err", err)
		c.setFault(acceptorFault, msg.New("A note credit was refused by the table: call an attendant"))
		if _, jerr := c.j.Append(ctx, journal.Record{Kind: "credit-refused", Key: key, Amount: f.Amount, Body: []byte(reason(err)), Flow: Unresolved}); jerr != nil {
			return jerr
		}
		return nil
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if err := c.append(ctx, "credited", key, m.Amount, journal.Done); err != nil {
		return err
	}
	c.update(func(s *Status) {
		s.Message, s.Balance = msg.New("Credited %s", money.Amount(m.Amount)), m.Balance
		s.Said++
		if !m.Replayed {
			s.Credits++
			s.Credited += m.Amount
		}
	})
	return nil
}

// noteClaimRefused reports whether the table refused a note credit for good: it has no record
// of the note in escrow, or the note is none its currency table accepts at that value.
func noteClaimRefused(err error) bool {
	return refusedFor(err, table.NoteClaimRefused) || refusedFor(err, table.NoteNotAccepted)
}

// refusedFor reports whether err is the table's final refusal for the reason why (one of
// app/table's refusal prefixes).
func refusedFor(err error, why string) bool {
	return table.Refused(err) && strings.Contains(err.Error(), why)
}

// reverse closes a flow whose note or ticket went back to the player. A ticket's hold at the
// table is released first (CancelRedeem): the flow closes only once the table has answered —
// released, or it says the ticket is not held (never held, or its hold lapsed) — and until then
// it stays open as Cancelling and is asked for again in the background.
func (c *Cashier) reverse(ctx context.Context, key, why string) {
	kind, _ := keyParts(key)
	if kind == "ticket" {
		tctx, cancel := context.WithTimeout(ctx, c.cfg.CancelWait)
		err := c.cancelOnce(tctx, key)
		cancel()
		if err != nil {
			c.cfg.Log.Warn("cashier: cancel redeem unanswered: asked again until the table answers", "key", key, "err", err)
			if err := c.append(ctx, why, key, 0, Cancelling); err != nil {
				c.cfg.Log.Error("cashier: journal", "err", err)
				return
			}
			c.cancelInBackground(key)
			return
		}
	}
	if err := c.append(ctx, why, key, 0, journal.Reversed); err != nil {
		c.cfg.Log.Error("cashier: journal", "err", err)
	}
}

// cancelOnce asks the table to release this flow's ticket hold. Nil when the table answered:
// released, or a refusal (the ticket is not held by this terminal: nothing to release).
func (c *Cashier) cancelOnce(ctx context.Context, key string) error {
	_, detail := keyParts(key)
	_, err := c.bank.CancelRedeem(ctx, key+"/cancel", detail)
	if err != nil && !table.Refused(err) {
		return err
	}
	return nil
}

// cancelInBackground asks for a Cancelling flow's release until the table answers, then
// closes the flow.
func (c *Cashier) cancelInBackground(key string) {
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		ctx := context.Background()
		err := c.backoff().Retry(ctx, func(ctx context.Context) error {
			tctx, cancel := context.WithTimeout(ctx, c.cfg.CancelWait)
			defer cancel()
			return c.cancelOnce(tctx, key)
		}, func(err error) bool { return err == nil })
		if err != nil {
			return
		}
		if _, err := c.j.AppendIf(ctx, journal.Record{Kind: "ticket-released", Key: key, Flow: journal.Reversed}, Cancelling); err != nil {
			c.cfg.Log.Error("cashier: journal", "key", key, "err", err)
		}
	}()
}

// Event follows the acceptor (noteacceptor.Handler).
func (c *Cashier) Event(ev noteacceptor.Event) {
	ctx := context.Background()
	switch ev.Kind {
	case noteacceptor.Returned, noteacceptor.Rejected, noteacceptor.PowerUpInAcceptor:
		key := c.takePending()
		switch {
		case key != "":
			c.reverse(ctx, key, "returned")
			c.say("Returned")
		case ev.Kind == noteacceptor.PowerUpInAcceptor:
			c.reverseStacking(ctx)
		}
		// A return the cashier asked for keeps the message that said why.
		if ev.Kind == noteacceptor.Rejected {
			c.say("Not accepted: %s", ev.Detail)
		}
	case noteacceptor.PowerUpInStacker:
		// The note reached the stacker while the power was off: that is its credit point.
		key := c.takePending()
		if key == "" {
			// Only the newest flow can be in the stacker; if it already reached its credit
			// point, this is that note, counted once already. One left unresolved is the note
			// nobody could place: found in the stacker now, it is credited now.
			if f, ok, err := c.newestMoneyIn(ctx); err == nil && ok && (f.State == Stacking || f.State == Unresolved) {
				key = f.Key
			}
		}
		if key != "" {
			if err := c.append(ctx, "credit-point-at-power-up", key, 0, CreditDue); err == nil {
				c.settle(key)
			}
		}
	case noteacceptor.Ready:
		// Whatever was sent to the stacker and has not reached its credit point by now went back.
		c.reverseStacking(ctx)
		c.setFault(acceptorFault, msg.Msg{})
	case noteacceptor.Unresolved:
		// Never reversed (the note may be in the cash box) and not credited (it may be back in
		// a hand): the flow stays open, listed as pending, for the attendant to settle from
		// the cash box count.
		if key := c.takePending(); key != "" {
			if err := c.append(ctx, "note-unresolved", key, 0, Unresolved); err != nil {
				c.cfg.Log.Error("cashier: journal", "err", err)
			}
		}
		c.say("A note may be in the cash box without a credit: call an attendant")
	case noteacceptor.Fault:
		c.setFault(acceptorFault, msg.New("Note acceptor: %s — call an attendant", ev.Detail))
	case noteacceptor.CommLost:
		c.setFault(acceptorFault, msg.New("Note acceptor not answering — call an attendant"))
	case noteacceptor.FaultCleared, noteacceptor.CommRestored:
		c.setFault(acceptorFault, msg.Msg{})
	}
}

// ErrNotUnresolved is wrapped by ResolveUnresolved's refusals: the key is not a note left
// unresolved, so there is nothing for the attendant to settle (and crediting it could pay twice).
var ErrNotUnresolved = errors.New("not a note left unresolved")

// ResolveUnresolved settles a note flow left Unresolved from the attendant's count of the cash
// box. It is meant for a stopped terminal (atsctl records resolve: the journal's writer lock
// refuses it while the terminal runs), so the credit is asked for by the next start. In the box
// (inBox): the player is owed the note, and the flow moves to CreditDue for the terminal's
// start-up Recover to ask the table for the credit with the flow's own key — so however often
// it is asked, the table credits it once. Not in the box: it went back to the player, and the
// flow is reversed. Anything but a note flow in state Unresolved is refused, and the check and
// the move are one journal transaction. It returns the flow as it now is.
func ResolveUnresolved(ctx context.Context, j *journal.Journal, key string, inBox bool) (journal.Flow, error) {
	f, ok, err := j.FlowOf(ctx, key)
	switch {
	case err != nil:
		return journal.Flow{}, err
	case !ok:
		return journal.Flow{}, fmt.Errorf("cashier: no money flow %q in the journal: %w", key, ErrNotUnresolved)
	case f.Kind != "note-escrow":
		return journal.Flow{}, fmt.Errorf("cashier: flow %s is a %s, not a note: %w", key, f.Kind, ErrNotUnresolved)
	case f.State != Unresolved:
		return journal.Flow{}, fmt.Errorf("cashier: note flow %s is %s, nothing to resolve: %w", key, f.State, ErrNotUnresolved)
	}
	// The record carries the note's value for the audit trail; the credit itself is the
	// "credited" record Recover writes once the table has answered, so the meters count it once.
	r := journal.Record{Kind: "note-resolved-not-in-box", Key: key, Amount: f.Amount, Flow: journal.Reversed}
	if inBox {
		r.Kind, r.Flow = "note-resolved-in-box", CreditDue
	}
	rec, err := j.AppendIf(ctx, r, Unresolved)
	if errors.Is(err, journal.ErrFlowState) {
		return journal.Flow{}, fmt.Errorf("cashier: note flow %s moved while it was being resolved: %w: %w", key, ErrNotUnresolved, err)
	}
	if err != nil {
		return journal.Flow{}, err
	}
	f.State, f.Updated = rec.Flow, rec.Seq
	return f, nil
}

func (c *Cashier) reverseStacking(ctx context.Context) {
	fs, err := c.j.Pending(ctx)
	if err != nil {
		return
	}
	for _, f := range fs {
		if f.State == Stacking {
			c.reverse(ctx, f.Key, "returned-at-start")
		}
	}
}

// Recover finishes or reverses the flows a crash left open. Call it once at start, before the
// acceptor runs: credits owed are asked for again, tickets being redeemed are cancelled (the
// acceptor's reset hands them back), cash-outs are carried on to print or handpay.
func (c *Cashier) Recover(ctx context.Context) error {
	fs, err := c.j.Pending(ctx)
	if err != nil {
		return err
	}
	for _, f := range fs {
		switch f.State {
		case CreditDue:
			// A credit point journalled, or a lost note the attendant found in the cash box:
			// asked for with the flow's key, which the table credits once however often asked.
			if err := c.finishCredit(ctx, f.Key); err != nil {
				return err
			}
		case Redeeming:
			c.reverse(ctx, f.Key, "redeem-abandoned")
		case Cancelling:
			c.cancelInBackground(f.Key)
		case Stacking:
			// Left for the acceptor to settle: VEND VALID or power up with the note in the
			// stacker credits it, anything else returns it (see Event, Ready).
		case Requested, Printing, Confirming:
			if err := c.finishCashOut(ctx, f.Key); err != nil {
				return err
			}
		}
	}
	return nil
}

// ErrBusy refuses a second cash-out while one is under way.
var ErrBusy = errors.New("cashier: a cash-out is already under way")

// ErrPrinterDown refuses a cash-out while the printer reports a fault: no money has moved.
var ErrPrinterDown = errors.New("cashier: the printer cannot print now")

// CashOut prints the whole balance on a ticket.
func (c *Cashier) CashOut(ctx context.Context) error {
	c.mu.Lock()
	if c.refused != nil {
		err := c.refused
		c.mu.Unlock()
		return err
	}
	if c.status.CashingOut {
		c.mu.Unlock()
		return ErrBusy
	}
	if down := c.faults[printerFault]; !down.IsZero() {
		c.mu.Unlock()
		// Nothing has moved: the balance stays on the account until the printer can print.
		c.say("Cash out is not possible now (%s): your balance stays on your account", down)
		return ErrPrinterDown
	}
	c.status.CashingOut = true
	c.status.TakeTicket, c.status.Handpay = false, false
	c.mu.Unlock()
	defer c.update(func(s *Status) { s.CashingOut = false })
	key := newKey("cashout", "-")
	if err := c.append(ctx, "cashout-requested", key, 0, Requested); err != nil {
		return err
	}
	return c.finishCashOut(ctx, key)
}

func (c *Cashier) finishCashOut(ctx context.Context, key string) error {
	f, _, err := c.j.FlowOf(ctx, key)
	if err != nil {
		return err
	}
	// CashOut with the flow's key returns the same ticket however often it is asked.
	t, err := c.bank.CashOut(ctx, key)
	if err != nil {
		if f.State == Requested {
			c.append(ctx, "cashout-refused", key, 0, journal.Reversed)
			c.say("Cash-out refused: %s", told(err))
		}
		return fmt.Errorf("cashier: cash-out: %w", err)
	}
	if f.State == Requested {
		// The validation number is kept with the record: the terminal's list of tickets it
		// printed (last 35, rule 9.9) is read from here.
		if _, err := c.j.Append(ctx, journal.Record{Kind: "ticket-issued", Key: key, Amount: t.Amount, Flow: Printing,
			Body: []byte(t.Validation)}); err != nil {
			return err
		}
		f.State = Printing
	}
	if f.State == Printing {
		c.say("Printing your ticket")
		tk := printer.Ticket{Venue: t.Venue, Terminal: t.TerminalID, Asset: c.cfg.Asset, Issued: t.Issued,
			Validation: t.Validation, Cents: t.Amount, Number: int(t.Number),
			Expiry: "VOID AFTER " + t.Expires.Format("2006-01-02")}
		if c.cfg.Currency != nil {
			// As the screen shows money, in bytes the printer's fonts print (issue 32 point 11).
			code := c.cfg.Currency()
			u := money.UnitsOf(code)
			tk.Currency, tk.Units = money.PrintedSymbol(code), printer.Units(u)
		}
		var perr error
		for attempt := range c.cfg.PrintRetries {
			// Printing the same validation number again is safe: a ticket redeems once, ever.
			c.prnMu.Lock()
			perr = c.prn.Print(ctx, tk)
			c.prnMu.Unlock()
			if perr == nil {
				break
			}
			// The driver's errors begin "printer: "; the message says "Printer:" once.
			c.setFault(printerFault, msg.New("Printer: %s", strings.TrimPrefix(reason(perr), "printer: ")))
			if attempt+1 < c.cfg.PrintRetries {
				if err := backoff.SleepOn(ctx, c.cfg.Clock, c.cfg.RetryEvery); err != nil {
					return err
				}
			}
		}
		if perr != nil {
			// No printed ticket can be trusted: the server marks it failed (not redeemable)
			// and the dealer pays by hand. Never both a ticket and a handpay.
			if _, err := c.bank.TicketPrintFailed(ctx, key+"/failed", t.Validation, reason(perr)); err != nil {
				return fmt.Errorf("cashier: report print failure: %w", err)
			}
			if err := c.append(ctx, "handpay", key, t.Amount, journal.Done); err != nil {
				return err
			}
			c.update(func(s *Status) {
				s.Handpay, s.Message = true, msg.New("The ticket could not be printed: an attendant will pay %s by hand", money.Amount(t.Amount))
				s.Said++
			})
			return nil
		}
		if err := c.append(ctx, "ticket-printed", key, t.Amount, Confirming); err != nil {
			return err
		}
		c.setFault(printerFault, msg.Msg{})
	}
	if _, err := c.bank.TicketPrinted(ctx, key+"/printed", t.Validation); err != nil {
		return fmt.Errorf("cashier: confirm printed ticket: %w", err)
	}
	if err := c.append(ctx, "ticket-confirmed", key, t.Amount, journal.Done); err != nil {
		return err
	}
	c.update(func(s *Status) { s.TakeTicket, s.Message, s.Said = true, msg.New("Please take your ticket"), s.Said+1 })
	return nil
}

// ErrCashingOut refuses a test ticket while a player's ticket is being printed or retried.
var ErrCashingOut = errors.New("a cash-out ticket is being printed: try again when it is done")

// PrintTestTicket prints a technician's VOID test ticket (printer.TestTicket) through the
// running driver, between other jobs (it holds the printer as a cash-out ticket does). It moves
// no money and writes nothing to the journal: the caller, which has checked the terminal is in
// technician mode, journals it with the technician. Refused during a cash-out, whose retries
// must not have another ticket between them.
func (c *Cashier) PrintTestTicket(ctx context.Context) error {
	c.mu.Lock()
	busy := c.status.CashingOut
	c.mu.Unlock()
	if busy {
		return ErrCashingOut
	}
	c.prnMu.Lock()
	defer c.prnMu.Unlock()
	return c.prn.Print(ctx, printer.TestTicket(c.cfg.Asset, c.cfg.Asset, c.cfg.Clock.Now()))
}

// ErrPrinterBusy is PrinterStatus while a job (a ticket, a test ticket) has the printer.
var ErrPrinterBusy = errors.New("the printer is printing: ask again when it is done")

// PrinterStatus asks the printer for its status now, for a technician's devices page: its paper
// and head state and every flag it reports. Between jobs only, like CheckPrinter: it never
// waits for a job, so the page does not hang on one.
func (c *Cashier) PrinterStatus() (printer.Status, error) {
	if !c.prnMu.TryLock() {
		return printer.Status{}, ErrPrinterBusy
	}
	defer c.prnMu.Unlock()
	return c.prn.Status()
}

// printerStops are the printer conditions that keep the terminal from taking money: while it
// cannot print, a player could buy in and not cash out. (Paper low is not one; a template
// lost at power-up is put right by the next job.)
var printerStops = []printer.Flag{printer.FlagPaperOut, printer.FlagHeadUp, printer.FlagChassisOpen, printer.FlagJam,
	printer.FlagCutterError, printer.FlagSystemError, printer.FlagHeadError, printer.FlagVoltageError,
	printer.FlagTemperature, printer.FlagOffline}

// CheckPrinter asks the printer for its status between jobs and keeps Status.Fault up to date
// with it, so a printer fault is told (and money in stops) before a player tries to cash out,
// and a cleared fault is seen without a ticket having to print. During a job it does nothing:
// the job reports.
func (c *Cashier) CheckPrinter() {
	if !c.prnMu.TryLock() {
		return
	}
	st, err := c.prn.Status()
	c.prnMu.Unlock()
	var fault msg.Msg
	if err != nil {
		fault = msg.New("Printer not answering — call an attendant")
	} else {
		var stops printer.Status
		for _, f := range printerStops {
			stops.Set(f, st.Has(f))
		}
		if why := stops.Faults(); len(why) > 0 {
			fault = msg.New("Printer: %s — call an attendant", strings.Join(why, ", "))
		}
	}
	c.setFault(printerFault, fault)
}
