package emulator

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"

	"github.com/tablegames/ats/devices/id003"
)

// NoteAcceptorConfig sets the emulated acceptor's currency and how long its mechanics take.
type NoteAcceptorConfig struct {
	Currency      []id003.Denomination // default: US $1, 5, 10, 20, 50, 100
	Version       string
	Init          time.Duration // initialising after a reset; 300 ms
	Accept        time.Duration // drawing a note in to escrow; 400 ms
	Stack         time.Duration // escrow to vend valid; 300 ms
	Reject        time.Duration // rejecting or returning; 300 ms
	EscrowTimeout time.Duration // returned if the host says nothing; 10 s (a hold restarts it)
	StackerSize   int           // notes until stacker full; 0 = 1000
	Pace          time.Duration // per byte on the line; Pace(9600) for real timing, 0 for none
	Trace         func(Trace)
}

// DefaultCurrency is the emulator's currency table: US dollars.
var DefaultCurrency = []id003.Denomination{
	{Code: 0x61, Country: 0x01, Base: 1}, {Code: 0x63, Country: 0x01, Base: 5},
	{Code: 0x64, Country: 0x01, Base: 1, Exponent: 1}, {Code: 0x65, Country: 0x01, Base: 2, Exponent: 1},
	{Code: 0x66, Country: 0x01, Base: 5, Exponent: 1}, {Code: 0x67, Country: 0x01, Base: 1, Exponent: 2},
}

func (c *NoteAcceptorConfig) defaults() {
	if c.Currency == nil {
		c.Currency = DefaultCurrency
	}
	if c.Version == "" {
		c.Version = "ATS-EMU ID003-05 V1.00"
	}
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&c.Init, 300*time.Millisecond)
	def(&c.Accept, 400*time.Millisecond)
	def(&c.Stack, 300*time.Millisecond)
	def(&c.Reject, 300*time.Millisecond)
	def(&c.EscrowTimeout, 10*time.Second)
	if c.StackerSize <= 0 {
		c.StackerSize = 1000
	}
}

// NoteAcceptor is an emulated ID-003 acceptor.
type NoteAcceptor struct {
	cfg NoteAcceptorConfig

	mu        sync.Mutex
	st        byte // current status
	data      []byte
	since     time.Time
	inhibit   bool
	settings  map[byte][]byte
	queue     []insert // inserted, waiting to be drawn in
	cur       *insert  // in the acceptor (accepting … stacked)
	afterBill byte     // what initialising does with a bill found at power-up: 'A' return, 'S' stack
	fault     byte     // a fault status that persists until cleared
	faultData []byte
	stuck     bool // the fault is a stacker jam holding cur in the stacker's path
	unplugged bool
	cashbox   []id003.Escrow
	returned  []id003.Escrow
	bad       int // frames received with a bad CRC or length
}

type insert struct {
	e      id003.Escrow
	reject byte // non-zero: the acceptor will reject it for this reason
}

// NewNoteAcceptor returns an acceptor that has just been powered up.
func NewNoteAcceptor(cfg NoteAcceptorConfig) *NoteAcceptor {
	cfg.defaults()
	n := &NoteAcceptor{cfg: cfg}
	n.powerUp(id003.StPowerUp)
	return n
}

func (n *NoteAcceptor) powerUp(st byte) {
	n.settings = map[byte][]byte{
		id003.CmdSetDenomination: {0, 0}, id003.CmdSetSecurity: {0, 0}, id003.CmdSetCommMode: {0},
		id003.CmdSetInhibit: {1}, id003.CmdSetDirection: {0}, id003.CmdSetOptional: {0, 0},
		id003.CmdSetBarcode: {0, 0}, id003.CmdSetBarInhibit: {0xFF},
	}
	n.inhibit = true
	n.set(st, nil)
}

func (n *NoteAcceptor) set(st byte, data []byte) { n.setAt(st, data, time.Now()) }

// setAt changes the status as of at: the mechanics run on their own clock, and a transition
// noticed only when the host next polls still happened when it was due.
func (n *NoteAcceptor) setAt(st byte, data []byte, at time.Time) {
	if n.st != st || string(n.data) != string(data) {
		n.traceAt(at, fmt.Sprintf("status %s % X", id003.StatusName(st), data))
	}
	n.st, n.data, n.since = st, data, at
}

func (n *NoteAcceptor) trace(what string) { n.traceAt(time.Now(), what) }

func (n *NoteAcceptor) traceAt(at time.Time, what string) {
	if n.cfg.Trace != nil {
		n.cfg.Trace(Trace{At: at, What: what})
	}
}

// idle goes to enable or disable as the inhibit setting says.
func (n *NoteAcceptor) idle() {
	if n.inhibit {
		n.set(id003.StDisable, nil)
	} else {
		n.set(id003.StEnable, nil)
	}
}

// advance moves the mechanics on by the time that passed.
func (n *NoteAcceptor) advance(now time.Time) {
	for range 8 { // a few transitions may be due at once
		el := now.Sub(n.since)
		switch n.st {
		case id003.StInitialize:
			if el < n.cfg.Init {
				return
			}
			if n.cur != nil {
				if n.afterBill == 'S' {
					n.cashbox = append(n.cashbox, n.cur.e)
					n.trace("note found at power-up stacked")
				} else {
					n.returned = append(n.returned, n.cur.e)
					n.trace("note found at power-up returned")
				}
				n.cur = nil
			}
			n.idle()
		case id003.StEnable:
			if len(n.queue) == 0 {
				return
			}
			if len(n.cashbox) >= n.cfg.StackerSize {
				n.fault = id003.StStackerFull
				n.set(id003.StStackerFull, nil)
				return
			}
			n.cur, n.queue = &n.queue[0], n.queue[1:]
			n.set(id003.StAccepting, nil)
		case id003.StDisable:
			// An inhibited acceptor does not draw notes in: they are handed back at the mouth.
			for _, q := range n.queue {
				n.returned = append(n.returned, q.e)
			}
			n.queue = nil
			return
		case id003.StAccepting:
			if el < n.cfg.Accept {
				return
			}
			due := n.since.Add(n.cfg.Accept)
			if r := n.refuse(n.cur); r != 0 {
				n.setAt(id003.StRejecting, []byte{r}, due)
				continue
			}
			n.setAt(id003.StEscrow, n.cur.e.Data(), due)
		case id003.StEscrow, id003.StHolding:
			if el < n.cfg.EscrowTimeout {
				return
			}
			n.setAt(id003.StReturning, nil, n.since.Add(n.cfg.EscrowTimeout))
		case id003.StStacking:
			if el < n.cfg.Stack {
				return
			}
			n.setAt(id003.StVendValid, nil, n.since.Add(n.cfg.Stack))
		case id003.StRejecting, id003.StReturning:
			if el < n.cfg.Reject {
				return
			}
			if n.cur != nil {
				n.returned = append(n.returned, n.cur.e)
				n.cur = nil
			}
			n.idle()
		default:
			return
		}
	}
}

// refuse says why the acceptor rejects a note, or 0.
func (n *NoteAcceptor) refuse(in *insert) byte {
	if in.reject != 0 {
		return in.reject
	}
	bar := n.settings[id003.CmdSetBarInhibit][0]
	if in.e.Code == id003.EscrowTicket {
		bc := n.settings[id003.CmdSetBarcode]
		if bar&0x02 != 0 || bc[0] != id003.BarcodeI2of5 || int(bc[1]) != len(in.e.Barcode) {
			return 0x79 // tickets inhibited, or not set up for this barcode
		}
		return 0
	}
	if bar&0x01 != 0 {
		return 0x79
	}
	den := n.settings[id003.CmdSetDenomination]
	bit := int(in.e.Code - 0x61)
	if bit >= 0 && bit < 16 && den[bit/8]&(1<<(bit%8)) != 0 {
		return 0x79
	}
	for _, d := range n.cfg.Currency {
		if d.Code == in.e.Code {
			return 0
		}
	}
	return 0x76
}

// answer returns the reply to one host frame, or nil for none (the host's ACK).
func (n *NoteAcceptor) answer(f id003.Frame) *id003.Frame {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.advance(time.Now())
	ack := &id003.Frame{Cmd: id003.StAck}
	invalid := &id003.Frame{Cmd: id003.StInvalidCmd}
	switch f.Cmd {
	case id003.CmdStatusRequest:
		r := &id003.Frame{Cmd: n.st, Data: n.data}
		if n.st == id003.StStacked {
			n.idle() // reported once
		}
		return r
	case id003.CmdReset:
		switch {
		case n.st == id003.StPowerUpBillA:
			n.afterBill = 'A'
		case n.st == id003.StPowerUpBillS, n.cur != nil && n.inStackerPath():
			// A note past the escrow is on its way into the cash box: the transport cannot
			// take it back, and the reset's initialisation stacks it, without a credit point.
			n.afterBill = 'S'
		case n.cur != nil:
			n.afterBill = 'A'
		}
		n.fault, n.faultData, n.stuck = 0, nil, false
		n.set(id003.StInitialize, nil)
		return ack
	case id003.CmdStack1, id003.CmdStack2:
		if n.st != id003.StEscrow && n.st != id003.StHolding {
			return invalid
		}
		n.set(id003.StStacking, nil)
		return ack
	case id003.CmdReturn:
		if n.st != id003.StEscrow && n.st != id003.StHolding {
			return invalid
		}
		n.set(id003.StReturning, nil)
		return ack
	case id003.CmdHold:
		if n.st != id003.StEscrow && n.st != id003.StHolding {
			return invalid
		}
		n.set(id003.StHolding, nil)
		return ack
	case id003.CmdWait:
		return ack
	case id003.CmdAck:
		if n.st == id003.StVendValid {
			n.cashbox = append(n.cashbox, n.cur.e)
			n.trace(fmt.Sprintf("stacked %s", describe(n.cur.e, n.cfg.Currency)))
			n.cur = nil
			n.set(id003.StStacked, nil)
		}
		return nil
	case id003.CmdVersionRequest:
		return &id003.Frame{Cmd: f.Cmd, Data: []byte(n.cfg.Version)}
	case id003.CmdBootVersion:
		return &id003.Frame{Cmd: f.Cmd, Data: []byte("ATS-EMU BOOT V1.00")}
	case id003.CmdCurrencyAssign:
		return &id003.Frame{Cmd: f.Cmd, Data: id003.CurrencyTable(n.cfg.Currency)}
	}
	if cur, ok := n.settings[f.Cmd]; ok {
		if len(f.Data) != len(cur) {
			return invalid
		}
		n.settings[f.Cmd] = append([]byte(nil), f.Data...)
		if f.Cmd == id003.CmdSetInhibit {
			n.inhibit = f.Data[0] != 0
			if n.st == id003.StEnable || n.st == id003.StDisable {
				n.idle()
			}
		}
		return &id003.Frame{Cmd: f.Cmd, Data: f.Data}
	}
	if cur, ok := n.settings[f.Cmd+id003.SettingRequestOffset]; ok && f.Cmd >= 0x80 && f.Cmd < 0x88 {
		return &id003.Frame{Cmd: f.Cmd, Data: cur}
	}
	return invalid
}

func describe(e id003.Escrow, cur []id003.Denomination) string {
	if e.Code == id003.EscrowTicket {
		return "ticket " + e.Barcode
	}
	for _, d := range cur {
		if d.Code == e.Code {
			return fmt.Sprintf("note of %d cents", d.Cents())
		}
	}
	return fmt.Sprintf("note code %02X", e.Code)
}

// Serve answers the host on line until ctx ends or the line fails.
func (n *NoteAcceptor) Serve(ctx context.Context, line io.ReadWriter) error {
	rd := id003.NewReader(line)
	go func() {
		<-ctx.Done()
		if c, ok := line.(io.Closer); ok {
			c.Close()
		}
	}()
	for {
		f, err := rd.Next()
		if ctx.Err() != nil {
			return nil
		}
		var ne *id003.NoiseError
		if errors.As(err, &ne) {
			n.mu.Lock()
			n.bad++
			unplugged := n.unplugged
			n.mu.Unlock()
			if !errors.Is(err, id003.ErrSync) && !unplugged {
				// A frame arrived damaged: say so, as the acceptor does.
				w, _ := id003.Frame{Cmd: id003.StCommError}.Encode()
				line.Write(w)
			}
			continue
		}
		if err != nil {
			return err
		}
		n.mu.Lock()
		unplugged := n.unplugged
		n.mu.Unlock()
		if unplugged {
			continue
		}
		wire, _ := f.Encode()
		sleepBytes(n.cfg.Pace, len(wire))
		r := n.answer(f)
		if r == nil {
			continue
		}
		out, err := r.Encode()
		if err != nil {
			return err
		}
		sleepBytes(n.cfg.Pace, len(out))
		if _, err := line.Write(out); err != nil {
			return err
		}
	}
}

// InsertNote puts a note of the given value in the acceptor's mouth.
func (n *NoteAcceptor) InsertNote(cents int64) error {
	for _, d := range n.cfg.Currency {
		if d.Cents() == cents {
			return n.insert(insert{e: id003.Escrow{Code: d.Code}})
		}
	}
	return fmt.Errorf("emulator: no note of %d cents in the currency table", cents)
}

// InsertTicket puts a barcoded ticket in the acceptor's mouth.
func (n *NoteAcceptor) InsertTicket(digits string) error {
	if _, err := id003.ParseEscrow(append([]byte{id003.EscrowTicket}, digits...)); err != nil {
		return err
	}
	return n.insert(insert{e: id003.Escrow{Code: id003.EscrowTicket, Barcode: digits}})
}

// InsertBad puts in a note the acceptor will reject for reason (0x71…0x7F).
func (n *NoteAcceptor) InsertBad(reason byte) error {
	return n.insert(insert{e: id003.Escrow{Code: 0x61}, reject: reason})
}

func (n *NoteAcceptor) insert(in insert) error {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.advance(time.Now())
	switch {
	case n.fault != 0, n.st == id003.StDisable, n.st == id003.StInitialize,
		n.st == id003.StPowerUp, n.st == id003.StPowerUpBillA, n.st == id003.StPowerUpBillS:
		// Not enabled: the acceptor does not draw the note in.
		n.returned = append(n.returned, in.e)
		return fmt.Errorf("emulator: the acceptor is not taking notes (%s); handed back", id003.StatusName(n.st))
	}
	n.queue = append(n.queue, in)
	n.advance(time.Now())
	return nil
}

// inStackerPath says whether the note in the acceptor is past the escrow, on its way into the
// cash box: stacking, at its credit point, stuck there in a stacker jam — or found there at
// power-up and not yet stacked by the host's reset. A note does not move without power: one
// in the stacker's path is still there at the next power-up, however often the power goes.
func (n *NoteAcceptor) inStackerPath() bool {
	switch n.st {
	case id003.StStacking, id003.StVendValid, id003.StPowerUpBillS:
		return true
	case id003.StJamStacker:
		return n.stuck
	case id003.StInitialize:
		return n.afterBill == 'S' // the reset is stacking the note it found there
	}
	return false
}

// Fault puts the acceptor in a fault status that lasts until Clear. A jam in the stacker while
// a note is stacking (or waiting at its credit point) stops the note in the stacker's path,
// with no credit point: see Clear for what an attendant's clearing does with it.
func (n *NoteAcceptor) Fault(st byte, data ...byte) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.advance(time.Now())
	n.stuck = st == id003.StJamStacker && n.cur != nil && n.inStackerPath()
	n.fault, n.faultData = st, data
	n.set(st, data)
}

// Clear ends a fault. A stacker jam holding a note is cleared as on the real acceptor: the
// attendant opens it, frees the note and leaves it in the stacker's path (ClearTakingNote takes
// it out instead), and the acceptor restarts — it reports power up with a bill in the stacker,
// and the host's reset stacks the note with no credit point, as after a power cut mid-stack.
func (n *NoteAcceptor) Clear() { n.clear(false) }

// ClearTakingNote clears a stacker jam by taking out the note it held and handing it back to
// the player; the acceptor restarts empty (power up). Without such a note it is Clear.
func (n *NoteAcceptor) ClearTakingNote() { n.clear(true) }

func (n *NoteAcceptor) clear(takeNote bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.fault == 0 {
		return
	}
	if n.stuck {
		st := byte(id003.StPowerUpBillS)
		if takeNote {
			n.returned = append(n.returned, n.cur.e)
			n.trace(fmt.Sprintf("%s taken out of the stacker jam by hand", describe(n.cur.e, n.cfg.Currency)))
			n.cur, st = nil, id003.StPowerUp
		}
		n.stuck, n.fault, n.faultData, n.queue = false, 0, nil, nil
		n.powerUp(st)
		return
	}
	if n.cur != nil {
		n.returned = append(n.returned, n.cur.e)
		n.cur = nil
	}
	if n.fault == id003.StStackerOpen || n.fault == id003.StStackerFull {
		n.cashbox = n.cashbox[:0:0] // the box was emptied (its contents counted elsewhere)
	}
	n.fault, n.faultData = 0, nil
	n.idle()
}

// PowerCycle cuts the power and restores it: a note being drawn in or in escrow is in the
// acceptor (returned after the reset), one in the stacker's path (stacking, at vend valid, or
// found there at an earlier power-up) is in the stacker (stacked after the reset, without a
// credit point).
func (n *NoteAcceptor) PowerCycle() {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.advance(time.Now())
	st := byte(id003.StPowerUp)
	if n.cur != nil {
		st = id003.StPowerUpBillA
		if n.inStackerPath() {
			st = id003.StPowerUpBillS
		}
	}
	n.fault, n.faultData, n.queue, n.stuck = 0, nil, nil, false
	n.powerUp(st)
}

// Unplug stops the acceptor answering (a pulled cable); Replug restores it.
func (n *NoteAcceptor) Unplug() { n.mu.Lock(); n.unplugged = true; n.mu.Unlock() }

// Replug reconnects the cable.
func (n *NoteAcceptor) Replug() { n.mu.Lock(); n.unplugged = false; n.mu.Unlock() }

// Cashbox is what reached the stacker.
func (n *NoteAcceptor) Cashbox() []id003.Escrow {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]id003.Escrow(nil), n.cashbox...)
}

// CashboxCents is the value of the notes in the stacker (tickets count 0: their value is the server's).
func (n *NoteAcceptor) CashboxCents() int64 {
	var sum int64
	for _, e := range n.Cashbox() {
		for _, d := range n.cfg.Currency {
			if d.Code == e.Code {
				sum += d.Cents()
			}
		}
	}
	return sum
}

// Returned is what was handed back to the player.
func (n *NoteAcceptor) Returned() []id003.Escrow {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]id003.Escrow(nil), n.returned...)
}

// Busy says whether a note or ticket is in the acceptor or waiting at its mouth: one that
// will still end in the cash box or back in the player's hand. A harness that must know no
// money is on its way in (crashtest's planted faults) waits for it to be false.
func (n *NoteAcceptor) Busy() bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.advance(time.Now())
	return n.cur != nil || len(n.queue) > 0
}

// Status is the acceptor's status now.
func (n *NoteAcceptor) Status() (byte, []byte) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.advance(time.Now())
	return n.st, n.data
}

// Command runs one operator command and says what happened.
func (n *NoteAcceptor) Command(line string) (string, error) {
	cmd, args := fields(line)
	arg := func() (string, error) {
		if len(args) != 1 {
			return "", fmt.Errorf("%s takes one argument", cmd)
		}
		return args[0], nil
	}
	faults := map[string]byte{"jam": id003.StJamAcceptor, "jam-stacker": id003.StJamStacker,
		"stacker-full": id003.StStackerFull, "stacker-open": id003.StStackerOpen,
		"cheat": id003.StCheated, "pause": id003.StPause}
	switch cmd {
	case "note":
		a, err := arg()
		if err != nil {
			return "", err
		}
		c, err := strconv.ParseInt(a, 10, 64)
		if err != nil {
			return "", fmt.Errorf("note %q: want an amount in cents", a)
		}
		return "note inserted", n.InsertNote(c)
	case "ticket":
		a, err := arg()
		if err != nil {
			return "", err
		}
		return "ticket inserted", n.InsertTicket(a)
	case "bad-note":
		return "counterfeit inserted", n.InsertBad(0x7F)
	case "failure":
		code := byte(0xA2)
		if len(args) == 1 {
			v, err := strconv.ParseUint(args[0], 16, 8)
			if err != nil {
				return "", fmt.Errorf("failure %q: want a hex code such as A2", args[0])
			}
			code = byte(v)
		}
		n.Fault(id003.StFailure, code)
		return "failure " + id003.FailureName(code), nil
	case "clear":
		n.Clear()
		return "fault cleared", nil
	case "clear-out":
		n.ClearTakingNote()
		return "fault cleared, the jammed note handed back", nil
	case "power-cycle":
		n.PowerCycle()
		return "power cycled", nil
	case "unplug":
		n.Unplug()
		return "cable unplugged", nil
	case "replug":
		n.Replug()
		return "cable plugged in", nil
	case "status":
		st, data := n.Status()
		return fmt.Sprintf("%s % X; cash box %d items, %d cents", id003.StatusName(st), data, len(n.Cashbox()), n.CashboxCents()), nil
	}
	if st, ok := faults[cmd]; ok {
		n.Fault(st)
		return id003.StatusName(st), nil
	}
	return "", fmt.Errorf("unknown command %q; try note <cents>, ticket <18 digits>, bad-note, jam, jam-stacker, stacker-full, stacker-open, cheat, pause, failure [hex], clear, clear-out, power-cycle, unplug, replug, status", cmd)
}
