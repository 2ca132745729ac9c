package noteacceptor

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tablegames/ats/devices/emulator"
	"github.com/tablegames/ats/devices/id003"
	"github.com/tablegames/ats/devices/serialport"
	"github.com/tablegames/ats/devices/serialport/porttest"
)

// wallet is the app side as the terminal's journal would play it: it credits each stacked note
// once, and settles a power-up with a note in the stacker from its record of what it sent there.
type wallet struct {
	mu      sync.Mutex
	decide  func(Escrow) bool
	delay   time.Duration
	pending *Escrow // sent to the stacker, not yet credited
	credits []Escrow
	events  []Event
	// unresolved were sent to the stacker and never credited nor returned: the attendant's
	unresolved []Escrow
	notify     chan Event
}

func newWallet() *wallet {
	return &wallet{decide: func(Escrow) bool { return true }, notify: make(chan Event, 256)}
}

func (w *wallet) Escrow(ctx context.Context, e Escrow) bool {
	w.mu.Lock()
	delay, decide := w.delay, w.decide
	w.mu.Unlock()
	if delay > 0 {
		select {
		case <-time.After(delay):
		case <-ctx.Done():
			return false
		}
	}
	ok := decide(e)
	if ok {
		w.mu.Lock()
		w.pending = &e
		w.mu.Unlock()
	}
	return ok
}

func (w *wallet) Credit(e Escrow) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if e.Recovered {
		if w.pending == nil {
			return fmt.Errorf("a credit point with nothing sent to the stacker")
		}
		e = *w.pending
	}
	w.credits = append(w.credits, e)
	w.pending = nil
	return nil
}

func (w *wallet) Event(ev Event) {
	w.mu.Lock()
	w.events = append(w.events, ev)
	switch ev.Kind {
	case PowerUpInStacker:
		if w.pending != nil {
			w.credits = append(w.credits, *w.pending)
			w.pending = nil
		}
	case PowerUpInAcceptor, Returned, Rejected:
		w.pending = nil
	case Unresolved:
		// Not credited, not forgotten: the journal keeps it open for the attendant.
		if w.pending != nil {
			w.unresolved = append(w.unresolved, *w.pending)
			w.pending = nil
		}
	}
	w.mu.Unlock()
	w.notify <- ev
}

func (w *wallet) total() (sum int64, n int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, c := range w.credits {
		sum += c.Cents
	}
	return sum, len(w.credits)
}

// waitFor waits for an event of kind k and returns it.
func (w *wallet) waitFor(t *testing.T, k Kind, within time.Duration) Event {
	t.Helper()
	timeout := time.After(within)
	for {
		select {
		case ev := <-w.notify:
			if ev.Kind == k {
				return ev
			}
		case <-timeout:
			t.Fatalf("no %v event within %v", k, within)
		}
	}
}

func frame(cmd byte, data ...byte) []byte {
	b, err := id003.Frame{Cmd: cmd, Data: data}.Encode()
	if err != nil {
		panic(err)
	}
	return b
}

// The start-up sequence and a note in, byte for byte against a transcript.
func TestTranscriptStartupAndNote(t *testing.T) {
	p := porttest.New(20 * time.Millisecond)
	table := id003.CurrencyTable(emulator.DefaultCurrency)
	p.Expect("status", frame(0x11)).Reply("power up", frame(0x40)).
		Expect("reset", frame(0x40)).Reply("ack", frame(0x50)).
		Expect("status", frame(0x11)).Reply("initialize", frame(0x1B)).
		Expect("status", frame(0x11)).Reply("disable", frame(0x1A)).
		Expect("denominations", frame(0xC0, 0, 0)).Reply("echo", frame(0xC0, 0, 0)).
		Expect("security", frame(0xC1, 0, 0)).Reply("echo", frame(0xC1, 0, 0)).
		Expect("comm mode", frame(0xC2, 0)).Reply("echo", frame(0xC2, 0)).
		Expect("barcode I2of5 18", frame(0xC6, 1, 18)).Reply("echo", frame(0xC6, 1, 18)).
		Expect("bar inhibit", frame(0xC7, 0xFC)).Reply("echo", frame(0xC7, 0xFC)).
		Expect("currency", frame(0x8A)).Reply("table", frame(0x8A, table...)).
		Expect("version", frame(0x88)).Reply("version", frame(0x88, []byte("TEST")...)).
		Expect("enable", frame(0xC3, 0)).Reply("echo", frame(0xC3, 0)).
		Expect("status", frame(0x11)).Reply("enable", frame(0x11)).
		Expect("status", frame(0x11)).Reply("accepting", frame(0x12)).
		Expect("status", frame(0x11)).Reply("escrow $20", frame(0x13, 0x65)).
		Expect("stack-1", frame(0x41)).Reply("ack", frame(0x50)).
		Expect("status", frame(0x11)).Reply("stacking", frame(0x14)).
		Expect("status", frame(0x11)).Reply("vend valid", frame(0x15)).
		Expect("ack", frame(0x50)).
		Expect("status", frame(0x11)).Reply("stacked", frame(0x16)).
		Expect("status", frame(0x11)).Reply("enable", frame(0x11))
	w := newWallet()
	a := New(p, w, Config{Poll: time.Millisecond, ReplyTimeout: 50 * time.Millisecond})
	a.SetInhibit(false)
	for i := range 8 { // power up (and the whole start-up), then seven polls
		if err := a.poll(context.Background()); err != nil {
			t.Fatalf("poll %d: %v", i, err)
		}
	}
	if err := p.WaitDone(time.Second); err != nil {
		t.Fatal(err)
	}
	if sum, n := w.total(); sum != 2000 || n != 1 {
		t.Fatalf("credited %d cents in %d credits, want 2000 in 1", sum, n)
	}
	if a.Version() != "TEST" || len(a.Currency()) != 6 {
		t.Fatalf("version %q, currency %v", a.Version(), a.Currency())
	}
}

// A VEND VALID whose Credit fails is not acknowledged, and is credited once when it succeeds.
func TestCreditFailureLeavesVendUnacknowledged(t *testing.T) {
	p := porttest.New(20 * time.Millisecond)
	w := newWallet()
	fails := 1
	h := &flakyCredit{wallet: w, fails: &fails}
	a := New(p, h, Config{Poll: time.Millisecond, ReplyTimeout: 50 * time.Millisecond})
	a.started = true
	a.escrow = &Escrow{Seq: 1, Code: 0x61, Cents: 100}
	a.stackSent = true
	p.Expect("status", frame(0x11)).Reply("vend valid", frame(0x15)).
		Expect("status", frame(0x11)).Reply("vend valid again", frame(0x15)).
		Expect("ack", frame(0x50)).
		Expect("status", frame(0x11)).Reply("vend valid: our ACK was lost", frame(0x15)).
		Expect("ack again", frame(0x50)).
		Expect("status", frame(0x11)).Reply("stacked", frame(0x16))
	for range 4 {
		a.poll(context.Background())
	}
	if err := p.WaitDone(time.Second); err != nil {
		t.Fatal(err)
	}
	if sum, n := w.total(); sum != 100 || n != 1 {
		t.Fatalf("credited %d in %d credits, want 100 in 1", sum, n)
	}
}

type flakyCredit struct {
	*wallet
	fails *int
}

func (f *flakyCredit) Credit(e Escrow) error {
	if *f.fails > 0 {
		*f.fails--
		return fmt.Errorf("journal disk full")
	}
	return f.wallet.Credit(e)
}

// Garbage from the acceptor is an error with a clear message, not a panic and not a credit.
func TestMalformedEscrowIsReturned(t *testing.T) {
	p := porttest.New(20 * time.Millisecond)
	w := newWallet()
	a := New(p, w, Config{Poll: time.Millisecond, ReplyTimeout: 50 * time.Millisecond})
	a.started = true
	a.currency = map[byte]id003.Denomination{0x61: {Code: 0x61, Base: 1}}
	p.Expect("status", frame(0x11)).Reply("escrow of a code not in the table", frame(0x13, 0x68)).
		Expect("return", frame(0x43)).Reply("ack", frame(0x50)).
		Expect("status", frame(0x11)).Reply("escrow ticket with letters", frame(0x13, 0x6F, 'A', '1')).
		Expect("return", frame(0x43)).Reply("ack", frame(0x50)).
		Expect("status", frame(0x11)).Reply("a status that does not exist", frame(0x77))
	for range 3 {
		a.poll(context.Background())
	}
	if err := p.WaitDone(time.Second); err != nil {
		t.Fatal(err)
	}
	var msgs []string
	for _, ev := range w.events {
		if ev.Kind == ProtocolError {
			msgs = append(msgs, ev.Detail)
		}
	}
	if len(msgs) != 3 || !strings.Contains(msgs[0], "not in the currency table") || !strings.Contains(msgs[1], "not all digits") {
		t.Fatalf("protocol errors %q", msgs)
	}
	if _, n := w.total(); n != 0 {
		t.Fatal("garbage was credited")
	}
}

// rig runs the driver over a serialport line on a pseudo-terminal against the emulator, fast.
type rig struct {
	emu *emulator.NoteAcceptor
	a   *Acceptor
	w   *wallet
}

func newRig(t *testing.T, cfg emulator.NoteAcceptorConfig) *rig {
	t.Helper()
	pty, err := serialport.NewPTY()
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Init == 0 {
		cfg.Init, cfg.Accept, cfg.Stack, cfg.Reject = 20*time.Millisecond, 20*time.Millisecond, 20*time.Millisecond, 20*time.Millisecond
	}
	emu := emulator.NewNoteAcceptor(cfg)
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan struct{})
	go func() { emu.Serve(ctx, pty.Device); close(served) }()
	port, err := serialport.Open(Line(pty.Path))
	if err != nil {
		t.Fatal(err)
	}
	w := newWallet()
	a := New(port, w, Config{Poll: 10 * time.Millisecond, ReplyTimeout: 300 * time.Millisecond, HoldTimeout: 2 * time.Second})
	ran := make(chan struct{})
	go func() { a.Run(ctx); close(ran) }()
	t.Cleanup(func() {
		cancel()
		<-ran
		port.Close()
		<-served
		pty.Close()
	})
	w.waitFor(t, Ready, 5*time.Second)
	return &rig{emu: emu, a: a, w: w}
}

func (r *rig) enable(t *testing.T) {
	t.Helper()
	r.a.SetInhibit(false)
	r.w.waitFor(t, Enabled, 2*time.Second)
}

func TestNotesAndTicketsOverPTY(t *testing.T) {
	r := newRig(t, emulator.NoteAcceptorConfig{})
	if err := r.emu.InsertNote(500); err == nil {
		t.Fatal("an inhibited acceptor took a note")
	}
	r.enable(t)
	for _, c := range []int64{100, 2000, 10000} {
		if err := r.emu.InsertNote(c); err != nil {
			t.Fatal(err)
		}
		r.w.waitFor(t, Stacked, 2*time.Second)
	}
	if err := r.emu.InsertTicket("001234567890123456"); err != nil {
		t.Fatal(err)
	}
	r.w.waitFor(t, Stacked, 2*time.Second)
	sum, n := r.w.total()
	if sum != 12100 || n != 4 {
		t.Fatalf("credited %d cents in %d credits, want 12100 in 4", sum, n)
	}
	if r.w.credits[3].Ticket != "001234567890123456" || !r.w.credits[3].IsTicket() {
		t.Fatalf("ticket credit %+v", r.w.credits[3])
	}
	if r.emu.CashboxCents() != 12100 || len(r.emu.Cashbox()) != 4 {
		t.Fatalf("cash box %v", r.emu.Cashbox())
	}

	// The app refuses a ticket (the server would not redeem it): returned, not credited.
	r.w.mu.Lock()
	r.w.decide = func(e Escrow) bool { return !e.IsTicket() }
	r.w.mu.Unlock()
	r.emu.InsertTicket("999999999999999999")
	ev := r.w.waitFor(t, Returned, 2*time.Second)
	if ev.Escrow == nil || ev.Escrow.Ticket != "999999999999999999" {
		t.Fatalf("returned %v", ev)
	}
	// A counterfeit is rejected with its reason.
	r.emu.InsertBad(0x7F)
	ev = r.w.waitFor(t, Rejected, 2*time.Second)
	if !strings.Contains(ev.Detail, "true bill feature") {
		t.Fatalf("reject detail %q", ev.Detail)
	}
	// The app takes its time (the server answering a ticket): the acceptor is held, then stacks.
	r.w.mu.Lock()
	r.w.decide = func(Escrow) bool { return true }
	r.w.delay = 300 * time.Millisecond
	r.w.mu.Unlock()
	r.emu.InsertNote(5000)
	r.w.waitFor(t, Stacked, 3*time.Second)
	if sum, n := r.w.total(); sum != 17100 || n != 5 {
		t.Fatalf("credited %d in %d", sum, n)
	}
	// The app does not answer within the hold timeout: the note goes back.
	r.w.mu.Lock()
	r.w.delay = 5 * time.Second
	r.w.mu.Unlock()
	r.emu.InsertNote(100)
	r.w.waitFor(t, Returned, 5*time.Second)
	if sum, _ := r.w.total(); sum != 17100 || r.emu.CashboxCents() != 17100 {
		t.Fatalf("after a hold timeout: credited %d, cash box %d", sum, r.emu.CashboxCents())
	}
	// Inhibit again: the acceptor follows.
	r.a.SetInhibit(true)
	r.w.waitFor(t, Inhibited, 2*time.Second)
}

func TestFaultsOverPTY(t *testing.T) {
	r := newRig(t, emulator.NoteAcceptorConfig{})
	r.enable(t)
	cases := []struct {
		cmd  string
		want string
	}{
		{"jam", "jam in acceptor"},
		{"jam-stacker", "jam in stacker"},
		{"stacker-full", "stacker full"},
		{"stacker-open", "stacker open"},
		{"cheat", "cheated"},
		{"pause", "pause"},
		{"failure A6", "transport motor failure"},
	}
	for _, c := range cases {
		if _, err := r.emu.Command(c.cmd); err != nil {
			t.Fatal(err)
		}
		ev := r.w.waitFor(t, Fault, 2*time.Second)
		if !strings.Contains(ev.Detail, c.want) {
			t.Errorf("%s: fault %q, want %q", c.cmd, ev.Detail, c.want)
		}
		if err := r.emu.InsertNote(100); err == nil {
			t.Errorf("%s: a faulted acceptor took a note", c.cmd)
		}
		r.emu.Command("clear")
		r.w.waitFor(t, FaultCleared, 2*time.Second)
	}
	// Unplug and replug.
	r.emu.Unplug()
	r.w.waitFor(t, CommLost, 5*time.Second)
	r.emu.Replug()
	r.w.waitFor(t, CommRestored, 5*time.Second)
	r.emu.InsertNote(2000)
	r.w.waitFor(t, Stacked, 2*time.Second)
	if sum, n := r.w.total(); sum != 2000 || n != 1 {
		t.Fatalf("credited %d in %d", sum, n)
	}
}

// Power cut at each point of a note's way in: whatever the acceptor did with the note, the
// credits equal the cash box, never more, never less.
func TestPowerCycleMidStack(t *testing.T) {
	for _, at := range []Kind{Accepting, Escrowed, Stacking} {
		t.Run(at.String(), func(t *testing.T) {
			r := newRig(t, emulator.NoteAcceptorConfig{Init: 50 * time.Millisecond, Accept: 100 * time.Millisecond, Stack: 200 * time.Millisecond, Reject: 50 * time.Millisecond})
			r.enable(t)
			if at == Escrowed {
				r.w.mu.Lock()
				r.w.delay = 200 * time.Millisecond
				r.w.mu.Unlock()
			}
			r.emu.InsertNote(2000)
			r.w.waitFor(t, at, 2*time.Second)
			r.emu.PowerCycle()
			want := map[Kind]Kind{Accepting: PowerUpInAcceptor, Escrowed: PowerUpInAcceptor, Stacking: PowerUpInStacker}[at]
			r.w.waitFor(t, want, 2*time.Second)
			r.w.waitFor(t, Ready, 2*time.Second)
			r.w.waitFor(t, Enabled, 2*time.Second) // the app's inhibit setting outlives the acceptor's power
			r.w.mu.Lock()
			r.w.delay = 0
			r.w.mu.Unlock()
			r.emu.InsertNote(100)
			r.w.waitFor(t, Stacked, 2*time.Second)
			sum, _ := r.w.total()
			if sum != r.emu.CashboxCents() {
				t.Fatalf("credited %d cents, cash box holds %d", sum, r.emu.CashboxCents())
			}
			wantBox := map[Kind]int64{Accepting: 100, Escrowed: 100, Stacking: 2100}[at]
			if sum != wantBox {
				t.Fatalf("credited %d, want %d", sum, wantBox)
			}
		})
	}
}

// kinds lists the kinds of the events the wallet was told, in order.
func (w *wallet) kinds() []Kind {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []Kind
	for _, ev := range w.events {
		out = append(out, ev.Kind)
	}
	return out
}

// A note going into the stacker when the stacker jams: the attendant clears the jam and the
// acceptor restarts with the note still in the stacker's path — power up with a bill in the
// stacker — and stacks it on the driver's reset, with no credit point. The note is credited
// once, from the app's record of what it sent to the stacker, and never reported returned. If
// the attendant takes the note out instead, the acceptor comes back empty and the note, sent to
// the stacker without a credit point, is unresolved: not credited, not reported returned.
func TestStackerJamWhileStackingOverPTY(t *testing.T) {
	for _, tc := range []struct {
		clear    string
		want     Kind
		credited int64
		box      int64
	}{
		{"clear", PowerUpInStacker, 2000, 2000},
		{"clear-out", Unresolved, 0, 0},
	} {
		t.Run(tc.clear, func(t *testing.T) {
			r := newRig(t, emulator.NoteAcceptorConfig{Init: 20 * time.Millisecond, Accept: 20 * time.Millisecond,
				Stack: time.Second, Reject: 20 * time.Millisecond})
			r.enable(t)
			if err := r.emu.InsertNote(2000); err != nil {
				t.Fatal(err)
			}
			r.w.waitFor(t, Stacking, 2*time.Second)
			if _, err := r.emu.Command("jam-stacker"); err != nil {
				t.Fatal(err)
			}
			if ev := r.w.waitFor(t, Fault, 2*time.Second); !strings.Contains(ev.Detail, "jam in stacker") {
				t.Fatalf("fault %v", ev)
			}
			if _, err := r.emu.Command(tc.clear); err != nil {
				t.Fatal(err)
			}
			ev := r.w.waitFor(t, tc.want, 2*time.Second)
			if ev.Escrow == nil || ev.Escrow.Cents != 2000 {
				t.Fatalf("%v names no note of 2000 cents", ev)
			}
			r.w.waitFor(t, Ready, 2*time.Second)
			r.w.waitFor(t, Enabled, 2*time.Second)
			// A note after it goes in and is credited as usual: the acceptor works again.
			if err := r.emu.InsertNote(100); err != nil {
				t.Fatal(err)
			}
			r.w.waitFor(t, Stacked, 2*time.Second)
			if sum, _ := r.w.total(); sum != tc.credited+100 || r.emu.CashboxCents() != tc.box+100 {
				t.Fatalf("credited %d, cash box %d; want %d and %d", sum, r.emu.CashboxCents(), tc.credited+100, tc.box+100)
			}
			if slices.Contains(r.w.kinds(), Returned) {
				t.Fatalf("a note that went to the stacker was reported returned: %v", r.w.kinds())
			}
			r.w.mu.Lock()
			unresolved := len(r.w.unresolved)
			r.w.mu.Unlock()
			if want := map[Kind]int{Unresolved: 1}[tc.want]; unresolved != want {
				t.Fatalf("%d notes left unresolved, want %d", unresolved, want)
			}
		})
	}
}

// An acceptor that leaves a stacker jam straight back to idle (or through its own
// initialisation) without saying what became of the note: the driver cannot know whether it is
// in the cash box, so it reports the note unresolved — never returned. One whose STACKED reply
// was lost after its credit point is reported stacked.
func TestTranscriptStackerJamBackToIdle(t *testing.T) {
	for _, via := range []string{"idle", "initialize"} {
		t.Run(via, func(t *testing.T) {
			p := porttest.New(20 * time.Millisecond)
			w := newWallet()
			a := New(p, w, Config{Poll: time.Millisecond, ReplyTimeout: 50 * time.Millisecond})
			a.started, a.enabled = true, 1
			a.inhibit.Store(false)
			a.currency = map[byte]id003.Denomination{0x65: {Code: 0x65, Base: 2, Exponent: 1}}
			p.Expect("status", frame(0x11)).Reply("escrow $20", frame(0x13, 0x65)).
				Expect("stack-1", frame(0x41)).Reply("ack", frame(0x50)).
				Expect("status", frame(0x11)).Reply("stacking", frame(0x14)).
				Expect("status", frame(0x11)).Reply("jam in stacker", frame(0x46))
			polls := 4
			if via == "initialize" {
				p.Expect("status", frame(0x11)).Reply("initialize", frame(0x1B))
				polls++
			}
			p.Expect("status", frame(0x11)).Reply("enable", frame(0x11))
			for range polls {
				if err := a.poll(context.Background()); err != nil {
					t.Fatal(err)
				}
			}
			if err := p.WaitDone(time.Second); err != nil {
				t.Fatal(err)
			}
			kinds := w.kinds()
			if slices.Contains(kinds, Returned) || !slices.Contains(kinds, Unresolved) {
				t.Fatalf("events %v: want the note unresolved, not returned", kinds)
			}
			if _, n := w.total(); n != 0 || len(w.unresolved) != 1 || w.unresolved[0].Cents != 2000 {
				t.Fatalf("credits %v, unresolved %v", w.credits, w.unresolved)
			}
		})
	}
	t.Run("stacked reply lost", func(t *testing.T) {
		p := porttest.New(20 * time.Millisecond)
		w := newWallet()
		a := New(p, w, Config{Poll: time.Millisecond, ReplyTimeout: 50 * time.Millisecond})
		a.started, a.enabled = true, 1
		a.inhibit.Store(false)
		a.escrow, a.stackSent, a.toStacker = &Escrow{Seq: 1, Code: 0x61, Cents: 100}, true, true
		w.pending = a.escrow
		p.Expect("status", frame(0x11)).Reply("vend valid", frame(0x15)).
			Expect("ack", frame(0x50)).
			Expect("status", frame(0x11)).Reply("enable: STACKED came and went between polls", frame(0x11))
		for range 2 {
			if err := a.poll(context.Background()); err != nil {
				t.Fatal(err)
			}
		}
		if err := p.WaitDone(time.Second); err != nil {
			t.Fatal(err)
		}
		if kinds := w.kinds(); slices.Contains(kinds, Returned) || !slices.Contains(kinds, Stacked) {
			t.Fatalf("events %v", kinds)
		}
		if sum, n := w.total(); sum != 100 || n != 1 {
			t.Fatalf("credited %d in %d", sum, n)
		}
	})
}
