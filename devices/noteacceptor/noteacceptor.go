package noteacceptor

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tablegames/ats/devices/id003"
	"github.com/tablegames/ats/devices/serialport"
)

// Line is how an ID-003 acceptor's serial line is set: 9600 baud, 8 data bits, even parity, 1 stop.
func Line(name string) serialport.Config {
	return serialport.Config{Name: name, Baud: 9600, DataBits: 8, Parity: serialport.ParityEven, StopBits: 1, ReadTimeout: 100 * time.Millisecond}
}

// Escrow is a note or a ticket the acceptor holds, waiting for the host's decision.
type Escrow struct {
	Seq    uint64 // numbers escrows within one driver run
	Code   byte   // the acceptor's escrow code
	Cents  int64  // a note's value from the currency table; 0 for a ticket
	Ticket string // a ticket's validation number (barcode digits); "" for a note
	// Recovered marks a VEND VALID the acceptor reported after the driver restarted: the driver
	// no longer knows which escrow it is, the app's journal does (the last one sent to the stacker).
	Recovered bool
}

// IsTicket reports whether the escrow is a barcoded ticket.
func (e Escrow) IsTicket() bool { return e.Code == id003.EscrowTicket }

func (e Escrow) String() string {
	switch {
	case e.Recovered:
		return "escrow from before the restart"
	case e.IsTicket():
		return fmt.Sprintf("ticket %s", e.Ticket)
	default:
		return fmt.Sprintf("note of %d cents", e.Cents)
	}
}

// Handler is the app's side of the acceptor. Methods are called from the driver's goroutine,
// except Escrow which runs on its own and may block until ctx ends.
type Handler interface {
	// Escrow decides: true stacks, false returns. ctx ends at the hold timeout (the note is then
	// returned whatever Escrow says). For a ticket the app asks the server to hold it first.
	Escrow(ctx context.Context, e Escrow) bool
	// Credit is the credit point (VEND VALID). It must journal the credit before returning nil;
	// an error leaves VEND VALID unacknowledged and Credit is called again on the next poll.
	Credit(e Escrow) error
	// Event reports everything else. It must not block.
	Event(ev Event)
}

// Kind of an Event.
type Kind int

// Kinds of events.
const (
	Ready             Kind = iota // started: version and currency table read, settings applied
	Enabled                       // taking notes and tickets
	Inhibited                     // refusing everything
	Accepting                     // a note or ticket is being drawn in
	Escrowed                      // in escrow, the app is asked
	Stacking                      // going to the stacker
	Stacked                       // in the stacker (after the credit point)
	Rejected                      // refused by the acceptor and given back; Detail says why
	Returned                      // given back (the app or the hold timeout said so)
	PowerUp                       // the acceptor powered up empty
	PowerUpInAcceptor             // powered up with a note in the acceptor: it will be returned
	PowerUpInStacker              // powered up with a note in the stacker: it will be stacked, no credit point follows
	Fault                         // stacker full/open, jam, cheated, failure, pause: Detail says which
	FaultCleared                  // back in service
	Unresolved                    // a note sent to the stacker vanished in a fault without a credit point: call an attendant
	CommLost                      // no answer from the acceptor
	CommRestored                  // answering again
	ProtocolError                 // the acceptor said something the protocol does not allow; Detail says what
)

var kindNames = [...]string{"ready", "enabled", "inhibited", "accepting", "escrow", "stacking", "stacked",
	"rejected", "returned", "power up", "power up with note in acceptor", "power up with note in stacker",
	"fault", "fault cleared", "unresolved escrow", "communication lost", "communication restored", "protocol error"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("kind %d", int(k))
}

// Event is something the acceptor did or suffered.
type Event struct {
	Kind   Kind
	Status byte    // the status byte behind it, when there is one
	Code   byte    // reject reason or failure code
	Escrow *Escrow // the note or ticket concerned, if any
	Detail string
}

func (ev Event) String() string {
	s := "note acceptor: " + ev.Kind.String()
	if ev.Detail != "" {
		s += ": " + ev.Detail
	}
	if ev.Escrow != nil {
		s += " (" + ev.Escrow.String() + ")"
	}
	return s
}

// Config tunes the driver. Zero values take the defaults.
type Config struct {
	Poll         time.Duration // between status requests; 200 ms
	ReplyTimeout time.Duration // for one answer; 500 ms
	HoldTimeout  time.Duration // for the app's escrow decision; 20 s
	Misses       int           // unanswered requests before CommLost; 3
	Log          *slog.Logger
}

func (c *Config) defaults() {
	if c.Poll <= 0 {
		c.Poll = 200 * time.Millisecond
	}
	if c.ReplyTimeout <= 0 {
		c.ReplyTimeout = 500 * time.Millisecond
	}
	if c.HoldTimeout <= 0 {
		c.HoldTimeout = 20 * time.Second
	}
	if c.Misses <= 0 {
		c.Misses = 3
	}
	if c.Log == nil {
		c.Log = slog.New(slog.DiscardHandler)
	}
}

// Acceptor drives one acceptor on one port.
type Acceptor struct {
	port serialport.Port
	rd   *id003.Reader
	h    Handler
	cfg  Config

	inhibit atomic.Bool // what the app wants; the loop makes the acceptor follow

	mu       sync.Mutex
	version  string
	currency map[byte]id003.Denomination

	// loop state, owned by Run's goroutine
	seq       uint64
	started   bool
	last      byte // last status byte seen
	lastData  string
	enabled   int8 // -1 unknown, 0 inhibited, 1 enabled
	fault     bool
	misses    int
	lost      bool
	escrow    *Escrow
	stackSent bool
	toStacker bool // the acceptor took STACK for escrow: from here it may end in the cash box
	credited  bool // Credit returned nil for escrow: a repeated VEND VALID is only acknowledged again
	decision  chan bool
	cancel    context.CancelFunc
	decided   *bool
}

// New makes a driver; Run starts it. The acceptor is kept inhibited until SetInhibit(false).
func New(port serialport.Port, h Handler, cfg Config) *Acceptor {
	cfg.defaults()
	a := &Acceptor{port: port, rd: id003.NewReader(port), h: h, cfg: cfg, enabled: -1}
	a.inhibit.Store(true)
	return a
}

// SetInhibit says whether the terminal may take money now (no server, table closed, technician
// mode: no). The acceptor follows on the next poll.
func (a *Acceptor) SetInhibit(on bool) { a.inhibit.Store(on) }

// Version is the acceptor's software version, once Ready.
func (a *Acceptor) Version() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.version
}

// Currency is the acceptor's currency table, once Ready.
func (a *Acceptor) Currency() []id003.Denomination {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := make([]id003.Denomination, 0, len(a.currency))
	for c := byte(0x61); c < id003.EscrowTicket; c++ {
		if d, ok := a.currency[c]; ok {
			out = append(out, d)
		}
	}
	return out
}

// quickDecision is how long an escrow waits for the app's answer before the acceptor is held.
const quickDecision = 50 * time.Millisecond

// Errors of an exchange.
var (
	ErrNoReply    = errors.New("noteacceptor: no reply")
	ErrBadReply   = errors.New("noteacceptor: unexpected reply")
	ErrRejectedBy = errors.New("noteacceptor: the acceptor refused the command")
)

// exchange sends one frame and returns the acceptor's answer.
func (a *Acceptor) exchange(f id003.Frame) (id003.Frame, error) {
	wire, err := f.Encode()
	if err != nil {
		return id003.Frame{}, err
	}
	if _, err := a.port.Write(wire); err != nil {
		return id003.Frame{}, err
	}
	deadline := time.Now().Add(a.cfg.ReplyTimeout)
	for {
		r, err := a.rd.Next()
		if err == nil {
			return r, nil
		}
		var ne *id003.NoiseError
		switch {
		case errors.As(err, &ne):
			a.cfg.Log.Warn("note acceptor: line noise", "err", err)
		case serialport.IsTimeout(err):
		default:
			return id003.Frame{}, err
		}
		if time.Now().After(deadline) {
			return id003.Frame{}, fmt.Errorf("%w to %02X within %v", ErrNoReply, f.Cmd, a.cfg.ReplyTimeout)
		}
	}
}

// operate sends an operation command and expects ACK.
func (a *Acceptor) operate(cmd byte) error {
	r, err := a.exchange(id003.Frame{Cmd: cmd})
	if err != nil {
		return err
	}
	switch r.Cmd {
	case id003.StAck:
		return nil
	case id003.StInvalidCmd:
		return fmt.Errorf("%w: %02X", ErrRejectedBy, cmd)
	}
	return fmt.Errorf("%w: %v to command %02X", ErrBadReply, r, cmd)
}

// set sends a setting command and expects it echoed.
func (a *Acceptor) set(cmd byte, data ...byte) error {
	r, err := a.exchange(id003.Frame{Cmd: cmd, Data: data})
	if err != nil {
		return err
	}
	if r.Cmd != cmd || string(r.Data) != string(data) {
		if r.Cmd == id003.StInvalidCmd {
			return fmt.Errorf("%w: setting %02X % X", ErrRejectedBy, cmd, data)
		}
		return fmt.Errorf("%w: setting %02X % X echoed as %v", ErrBadReply, cmd, data, r)
	}
	return nil
}

// request sends a request and expects an answer with the same command byte.
func (a *Acceptor) request(cmd byte) ([]byte, error) {
	r, err := a.exchange(id003.Frame{Cmd: cmd})
	if err != nil {
		return nil, err
	}
	if r.Cmd != cmd {
		return nil, fmt.Errorf("%w: request %02X answered %v", ErrBadReply, cmd, r)
	}
	return r.Data, nil
}

// startup resets the acceptor and applies the settings: all denominations, normal security,
// polling, Interleaved 2 of 5 tickets of 18 digits, notes and tickets allowed, inhibited until
// the app says otherwise. It reads the currency table and the version.
func (a *Acceptor) startup(ctx context.Context) error {
	a.port.Flush()
	if err := a.operate(id003.CmdReset); err != nil {
		return fmt.Errorf("reset: %w", err)
	}
	// The acceptor initialises (and returns or stacks a note it held at power-up) before it
	// takes settings; wait for it to leave INITIALIZE.
	for i := 0; ; i++ {
		st, err := a.exchange(id003.Frame{Cmd: id003.CmdStatusRequest})
		if err != nil {
			return fmt.Errorf("status after reset: %w", err)
		}
		if st.Cmd != id003.StInitialize && st.Cmd != id003.StPowerUp && st.Cmd != id003.StPowerUpBillA && st.Cmd != id003.StPowerUpBillS {
			break
		}
		if i > 100 {
			return fmt.Errorf("acceptor still initialising after %d polls", i)
		}
		if err := sleep(ctx, a.cfg.Poll); err != nil {
			return err
		}
	}
	steps := []struct {
		cmd  byte
		data []byte
	}{
		{id003.CmdSetDenomination, []byte{0x00, 0x00}},
		{id003.CmdSetSecurity, []byte{0x00, 0x00}},
		{id003.CmdSetCommMode, []byte{0x00}},
		{id003.CmdSetBarcode, []byte{id003.BarcodeI2of5, 18}},
		{id003.CmdSetBarInhibit, []byte{0xFC}},
	}
	for _, s := range steps {
		if err := a.set(s.cmd, s.data...); err != nil {
			return err
		}
	}
	table, err := a.request(id003.CmdCurrencyAssign)
	if err != nil {
		return fmt.Errorf("currency table: %w", err)
	}
	ds, err := id003.ParseCurrencyTable(table)
	if err != nil {
		return err
	}
	if len(ds) == 0 {
		return errors.New("noteacceptor: the currency table is empty")
	}
	ver, err := a.request(id003.CmdVersionRequest)
	if err != nil {
		return fmt.Errorf("version: %w", err)
	}
	m := make(map[byte]id003.Denomination, len(ds))
	for _, d := range ds {
		m[d.Code] = d
	}
	a.mu.Lock()
	a.currency, a.version = m, string(ver)
	a.mu.Unlock()
	inh := a.inhibit.Load()
	if err := a.set(id003.CmdSetInhibit, b2b(inh)); err != nil {
		return err
	}
	a.enabled = -1
	a.started = true
	a.h.Event(Event{Kind: Ready, Detail: fmt.Sprintf("version %q, %d denominations", ver, len(ds))})
	return nil
}

func b2b(on bool) byte {
	if on {
		return 1
	}
	return 0
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Run drives the acceptor until ctx ends; then it inhibits it (best effort) and returns.
func (a *Acceptor) Run(ctx context.Context) error {
	defer func() {
		if a.cancel != nil {
			a.cancel()
		}
		if a.started {
			a.set(id003.CmdSetInhibit, 1)
		}
	}()
	for {
		if err := a.poll(ctx); err != nil && ctx.Err() == nil {
			a.cfg.Log.Warn("note acceptor", "err", err)
		}
		if err := sleep(ctx, a.cfg.Poll); err != nil {
			return nil
		}
	}
}

// poll does one status request and acts on the answer.
func (a *Acceptor) poll(ctx context.Context) error {
	st, err := a.exchange(id003.Frame{Cmd: id003.CmdStatusRequest})
	if err != nil {
		if errors.Is(err, ErrNoReply) || serialport.IsTimeout(err) {
			a.misses++
			if a.misses >= a.cfg.Misses && !a.lost {
				a.lost = true
				a.h.Event(Event{Kind: CommLost, Detail: err.Error()})
			}
			return nil
		}
		return err
	}
	a.misses = 0
	if a.lost {
		a.lost = false
		a.h.Event(Event{Kind: CommRestored})
	}
	return a.handle(ctx, st)
}

func (a *Acceptor) changed(st id003.Frame) bool {
	c := st.Cmd != a.last || string(st.Data) != a.lastData
	a.last, a.lastData = st.Cmd, string(st.Data)
	return c
}

func (a *Acceptor) handle(ctx context.Context, st id003.Frame) error {
	changed := a.changed(st)
	switch st.Cmd {
	case id003.StPowerUp, id003.StPowerUpBillA, id003.StPowerUpBillS:
		kind := map[byte]Kind{id003.StPowerUp: PowerUp, id003.StPowerUpBillA: PowerUpInAcceptor, id003.StPowerUpBillS: PowerUpInStacker}[st.Cmd]
		ev := Event{Kind: kind, Status: st.Cmd, Detail: id003.StatusName(st.Cmd)}
		if a.escrow != nil {
			e := *a.escrow
			ev.Escrow = &e
			if st.Cmd == id003.StPowerUp && a.toStacker && !a.credited {
				// Sent to the stacker, no credit point, and no note found at power-up: it may
				// have reached the cash box before the power went, or been taken out by hand.
				a.h.Event(Event{Kind: Unresolved, Status: st.Cmd, Escrow: &e,
					Detail: "a note sent to the stacker was not found at power-up and had no credit point: it may be in the cash box"})
				ev.Escrow = nil
			}
		}
		a.dropEscrow()
		a.started = false
		a.h.Event(ev)
		return a.startup(ctx)
	case id003.StInitialize:
		return nil
	}
	if !a.started {
		// The driver (or the whole terminal) restarted while the acceptor kept power: start it
		// again, but first honour a credit point it is waiting on and let a note already past it
		// reach the stacker — a reset now could not take it back.
		switch st.Cmd {
		case id003.StVendValid:
			if a.escrow == nil {
				a.escrow = &Escrow{Recovered: true}
			}
			return a.vend()
		case id003.StStacking, id003.StStacked:
			return nil
		case id003.StJamStacker:
			// A note is stuck on its way into the cash box (the one the app's journal last sent
			// there). A reset now would settle it with no credit point: leave the acceptor to
			// the attendant, who clears the jam; it then powers up reporting where the note is.
			if changed || !a.fault {
				a.fault = true
				a.h.Event(Event{Kind: Fault, Status: st.Cmd, Detail: id003.StatusName(st.Cmd)})
			}
			return nil
		}
		a.dropEscrow()
		return a.startup(ctx)
	}
	switch st.Cmd {
	case id003.StEnable, id003.StDisable:
		a.clearFault()
		if a.escrow != nil {
			// The escrow left without STACKED, and the reply that said what became of it was
			// lost between polls — or a fault came in between.
			e := *a.escrow
			ev := Event{Kind: Returned, Escrow: &e, Detail: "back to idle without being stacked"}
			switch {
			case a.credited:
				// Past its credit point (VEND VALID acknowledged): it is in the cash box.
				ev = Event{Kind: Stacked, Escrow: &e, Detail: "back to idle after its credit point"}
			case a.toStacker:
				// The acceptor took it towards the cash box and never reached the credit point
				// (a stacker jam cleared, say): it may be in the cash box or back in a hand.
				// Never say returned: the app keeps it open for the attendant.
				ev = Event{Kind: Unresolved, Status: st.Cmd, Escrow: &e,
					Detail: "a note sent to the stacker came back to idle without a credit point: it may be in the cash box"}
			}
			a.dropEscrow()
			a.h.Event(ev)
		}
		return a.followInhibit(st.Cmd == id003.StEnable)
	case id003.StAccepting:
		if changed {
			a.h.Event(Event{Kind: Accepting})
		}
	case id003.StEscrow:
		return a.onEscrow(st)
	case id003.StHolding:
		return a.onEscrow(st)
	case id003.StStacking:
		if a.escrow != nil {
			a.toStacker = true // however the STACK command's ACK fared, the acceptor is stacking
		}
		if changed {
			a.h.Event(Event{Kind: Stacking, Escrow: a.escrowCopy()})
		}
	case id003.StVendValid:
		if a.escrow == nil {
			a.escrow = &Escrow{Recovered: true}
		}
		return a.vend()
	case id003.StStacked:
		if changed {
			a.h.Event(Event{Kind: Stacked, Escrow: a.escrowCopy()})
		}
		a.dropEscrow()
	case id003.StRejecting:
		if changed {
			code := byte(0)
			if len(st.Data) > 0 {
				code = st.Data[0]
			}
			a.h.Event(Event{Kind: Rejected, Status: st.Cmd, Code: code, Escrow: a.escrowCopy(), Detail: id003.RejectReason(code)})
		}
		a.dropEscrow()
	case id003.StReturning:
		if changed {
			a.h.Event(Event{Kind: Returned, Escrow: a.escrowCopy(), Detail: "returning"})
		}
		a.dropEscrow()
	case id003.StStackerFull, id003.StStackerOpen, id003.StJamAcceptor, id003.StJamStacker,
		id003.StPause, id003.StCheated, id003.StFailure:
		if changed {
			a.fault = true
			detail := id003.StatusName(st.Cmd)
			var code byte
			if st.Cmd == id003.StFailure && len(st.Data) > 0 {
				code = st.Data[0]
				detail += ": " + id003.FailureName(code)
			}
			a.h.Event(Event{Kind: Fault, Status: st.Cmd, Code: code, Escrow: a.escrowCopy(), Detail: detail})
		}
	case id003.StCommError:
		// The acceptor could not read our last frame; the next poll says it again.
		a.cfg.Log.Warn("note acceptor reports a communication error")
	default:
		if changed {
			a.h.Event(Event{Kind: ProtocolError, Status: st.Cmd, Detail: fmt.Sprintf("unexpected status %v", st)})
		}
	}
	return nil
}

func (a *Acceptor) escrowCopy() *Escrow {
	if a.escrow == nil {
		return nil
	}
	e := *a.escrow
	return &e
}

func (a *Acceptor) clearFault() {
	if !a.fault {
		return
	}
	a.fault = false
	a.h.Event(Event{Kind: FaultCleared})
}

// dropEscrow forgets the current escrow and any decision still being made about it.
func (a *Acceptor) dropEscrow() {
	if a.cancel != nil {
		a.cancel()
	}
	a.escrow, a.stackSent, a.toStacker, a.credited, a.decision, a.cancel, a.decided = nil, false, false, false, nil, nil, nil
}

func (a *Acceptor) followInhibit(enabled bool) error {
	want := !a.inhibit.Load()
	if enabled != want {
		return a.set(id003.CmdSetInhibit, b2b(!want))
	}
	if e := int8(b2b(enabled)); e != a.enabled {
		a.enabled = e
		if enabled {
			a.h.Event(Event{Kind: Enabled})
		} else {
			a.h.Event(Event{Kind: Inhibited})
		}
	}
	return nil
}

func (a *Acceptor) onEscrow(st id003.Frame) error {
	if a.escrow == nil {
		if st.Cmd == id003.StHolding {
			// Holding an escrow we never saw: the driver restarted. Give it back.
			return a.operate(id003.CmdReturn)
		}
		raw, err := id003.ParseEscrow(st.Data)
		if err != nil {
			a.h.Event(Event{Kind: ProtocolError, Status: st.Cmd, Detail: err.Error()})
			return a.operate(id003.CmdReturn)
		}
		a.seq++
		e := &Escrow{Seq: a.seq, Code: raw.Code, Ticket: raw.Barcode}
		if !e.IsTicket() {
			a.mu.Lock()
			d, ok := a.currency[raw.Code]
			a.mu.Unlock()
			if !ok {
				a.h.Event(Event{Kind: ProtocolError, Status: st.Cmd, Detail: fmt.Sprintf("escrow code %02X is not in the currency table", raw.Code)})
				return a.operate(id003.CmdReturn)
			}
			e.Cents = d.Cents()
		}
		a.escrow = e
		a.decision = make(chan bool, 1)
		dctx, cancel := context.WithTimeout(context.Background(), a.cfg.HoldTimeout)
		a.cancel = cancel
		a.h.Event(Event{Kind: Escrowed, Escrow: a.escrowCopy()})
		go func(e Escrow, ch chan<- bool) {
			ok := a.h.Escrow(dctx, e)
			if dctx.Err() != nil {
				ok = false // too late: the note goes back whatever the app says
			}
			select {
			case ch <- ok:
			default: // the hold timeout decided first
			}
		}(*e, a.decision)
		go func(ch chan<- bool) {
			<-dctx.Done()
			select {
			case ch <- false:
			default:
			}
		}(a.decision)
	}
	if a.stackSent {
		return nil
	}
	if a.decided == nil {
		// Most decisions (a note) are immediate: wait a moment for one rather than hold the
		// acceptor a whole poll for nothing.
		t := time.NewTimer(quickDecision)
		select {
		case ok := <-a.decision:
			a.decided = &ok
		case <-t.C:
		}
		t.Stop()
	}
	switch {
	case a.decided == nil:
		return a.operate(id003.CmdHold)
	case *a.decided:
		if err := a.operate(id003.CmdStack1); err != nil {
			return err
		}
		a.stackSent, a.toStacker = true, true
		return nil
	default:
		if err := a.operate(id003.CmdReturn); err != nil {
			return err
		}
		a.stackSent = true // a command was sent; the acceptor now returns it
		return nil
	}
}

// vend is the credit point: journal (Credit) once, then ACK — again if the acceptor repeats
// VEND VALID because our ACK was lost.
func (a *Acceptor) vend() error {
	if !a.credited {
		if err := a.h.Credit(*a.escrow); err != nil {
			return fmt.Errorf("credit of %v not journalled, VEND VALID left unacknowledged: %w", a.escrow, err)
		}
		a.credited = true
	}
	wire, _ := id003.Frame{Cmd: id003.CmdAck}.Encode()
	_, err := a.port.Write(wire)
	return err
}

// Info is what a technician's query reads from an acceptor without resetting or enabling it.
type Info struct {
	Status     byte
	StatusData []byte
	Version    string
	Currency   []id003.Denomination
}

func (i Info) String() string {
	s := fmt.Sprintf("status: %s", id003.StatusName(i.Status))
	if len(i.StatusData) > 0 {
		s += fmt.Sprintf(" (% X)", i.StatusData)
	}
	s += fmt.Sprintf("\nversion: %s\ncurrency:", i.Version)
	for _, d := range i.Currency {
		s += fmt.Sprintf(" %02X=%d", d.Code, d.Cents())
	}
	return s
}

// Query reads the status, version and currency table. Use it only when Run is not running.
func (a *Acceptor) Query() (Info, error) {
	st, err := a.exchange(id003.Frame{Cmd: id003.CmdStatusRequest})
	if err != nil {
		return Info{}, err
	}
	ver, err := a.request(id003.CmdVersionRequest)
	if err != nil {
		return Info{}, fmt.Errorf("version: %w", err)
	}
	table, err := a.request(id003.CmdCurrencyAssign)
	if err != nil {
		return Info{}, fmt.Errorf("currency table: %w", err)
	}
	ds, err := id003.ParseCurrencyTable(table)
	if err != nil {
		return Info{}, err
	}
	return Info{Status: st.Cmd, StatusData: st.Data, Version: string(ver), Currency: ds}, nil
}
