package idpad

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/tablegames/ats/devices/serialport"
)

// Kind of an Event.
type Kind int

// Kinds of events.
const (
	Touched  Kind = iota // a pad was touched
	Released             // a pad was let go
	CardInserted
	CardRemoved
	Lost     // no heartbeat: every pad counts as untouched
	Restored // heard again; pad state re-read from the heartbeat
)

func (k Kind) String() string {
	return [...]string{"touched", "released", "card inserted", "card removed", "lost", "restored"}[k]
}

// Event is a change at the pads.
type Event struct {
	Kind Kind
	Pad  int
	Card string
}

func (e Event) String() string {
	s := fmt.Sprintf("id pad %d: %v", e.Pad, e.Kind)
	if e.Card != "" {
		s += " " + e.Card
	}
	return s
}

// Config tunes the driver.
type Config struct {
	Silence time.Duration // without a frame before Lost; 1.5 s
	Log     *slog.Logger
}

// Pad drives the ID pads on one line.
type Pad struct {
	port serialport.Port
	rd   *Reader
	cfg  Config

	wmu sync.Mutex // one frame on the line at a time

	mu      sync.Mutex
	touched uint16
	cards   map[int]string
	lost    bool
	heard   time.Time
	lastSeq byte
	version chan string
	events  chan Event
}

// New makes a driver; Run starts it.
func New(port serialport.Port, cfg Config) *Pad {
	if cfg.Silence <= 0 {
		cfg.Silence = 1500 * time.Millisecond
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	return &Pad{port: port, rd: NewReader(port), cfg: cfg, cards: map[int]string{}, lost: true,
		version: make(chan string, 1), events: make(chan Event, 64)}
}

// Events delivers changes. A slow reader loses none: Run blocks on it.
func (p *Pad) Events() <-chan Event { return p.events }

// Touched reports whether pad n is touched now; false while the pads are not heard.
func (p *Pad) Touched(n int) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return !p.lost && n >= 1 && n <= MaxPads && p.touched&(1<<(n-1)) != 0
}

// Card is the card in pad n's reader.
func (p *Pad) Card(n int) (string, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	c, ok := p.cards[n]
	return c, ok && !p.lost
}

func (p *Pad) send(f Frame) error {
	b, err := f.Encode()
	if err != nil {
		return err
	}
	p.wmu.Lock()
	defer p.wmu.Unlock()
	_, err = p.port.Write(b)
	return err
}

// Version asks the pad for its version.
func (p *Pad) Version(ctx context.Context) (string, error) {
	if err := p.send(Frame{Type: VersionRq}); err != nil {
		return "", err
	}
	select {
	case v := <-p.version:
		return v, nil
	case <-ctx.Done():
		return "", fmt.Errorf("idpad: no version reply: %w", ctx.Err())
	}
}

// Run reads the pads until ctx ends.
func (p *Pad) Run(ctx context.Context) error {
	p.send(Frame{Type: StatusReq})
	p.mu.Lock()
	p.heard = time.Now()
	p.mu.Unlock()
	for ctx.Err() == nil {
		f, err := p.rd.Next()
		var ne *NoiseError
		switch {
		case err == nil:
			p.handle(ctx, f)
		case errors.As(err, &ne):
			p.cfg.Log.Warn("id pad: line noise", "err", err)
		case serialport.IsTimeout(err):
		default:
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
		p.mu.Lock()
		silent := !p.lost && time.Since(p.heard) > p.cfg.Silence
		if silent {
			p.lost = true
		}
		p.mu.Unlock()
		if silent {
			p.emit(ctx, Event{Kind: Lost})
			p.send(Frame{Type: StatusReq})
		}
	}
	return nil
}

func (p *Pad) emit(ctx context.Context, e Event) {
	select {
	case p.events <- e:
	case <-ctx.Done():
	}
}

func (p *Pad) handle(ctx context.Context, f Frame) {
	p.mu.Lock()
	p.heard = time.Now()
	wasLost := p.lost
	p.lost = false
	p.mu.Unlock()
	switch f.Type {
	case Heartbeat, StatusMsg:
		st := ParseState(f.Data)
		if f.Type == Heartbeat && f.Seq == 0 {
			p.mu.Lock()
			p.lastSeq = 0 // the pad powered up: its sequence numbers start again
			p.mu.Unlock()
		}
		if wasLost {
			p.emit(ctx, Event{Kind: Restored})
		}
		// Reconcile: a heartbeat is the truth about touches (an event may be in flight, and
		// after a silence events may have been missed).
		p.mu.Lock()
		old := p.touched
		p.touched = st.Touched
		var gone []int
		for n := range p.cards {
			if st.Cards&(1<<(n-1)) == 0 {
				delete(p.cards, n)
				gone = append(gone, n)
			}
		}
		p.mu.Unlock()
		for _, n := range gone {
			p.emit(ctx, Event{Kind: CardRemoved, Pad: n})
		}
		for n := 1; n <= MaxPads; n++ {
			bit := uint16(1) << (n - 1)
			switch {
			case old&bit == 0 && st.Touched&bit != 0:
				p.emit(ctx, Event{Kind: Touched, Pad: n})
			case old&bit != 0 && st.Touched&bit == 0:
				p.emit(ctx, Event{Kind: Released, Pad: n})
			}
		}
		return
	case VersionMs:
		select {
		case p.version <- string(f.Data):
		default:
		}
		return
	}
	if wasLost {
		p.emit(ctx, Event{Kind: Restored})
	}
	// An event: acknowledge it (again, if it is a repeat whose ACK was lost), act on it once.
	p.send(Frame{Type: Ack, Data: []byte{f.Seq}})
	p.mu.Lock()
	repeat := f.Seq == p.lastSeq
	p.lastSeq = f.Seq
	if repeat {
		p.mu.Unlock()
		return
	}
	pad := int(f.Data[0])
	bit := uint16(1) << (pad - 1)
	var ev Event
	switch f.Type {
	case TouchOn:
		if p.touched&bit != 0 {
			p.mu.Unlock()
			return
		}
		p.touched |= bit
		ev = Event{Kind: Touched, Pad: pad}
	case TouchOff:
		if p.touched&bit == 0 {
			p.mu.Unlock()
			return
		}
		p.touched &^= bit
		ev = Event{Kind: Released, Pad: pad}
	case CardIn:
		p.cards[pad] = string(f.Data[1:])
		ev = Event{Kind: CardInserted, Pad: pad, Card: string(f.Data[1:])}
	case CardOut:
		delete(p.cards, pad)
		ev = Event{Kind: CardRemoved, Pad: pad}
	default:
		p.mu.Unlock()
		return
	}
	p.mu.Unlock()
	p.emit(ctx, ev)
}

// Seat is one pad as the terminal's betting gate sees it (it satisfies app.Gate).
type Seat struct {
	p *Pad
	n int
}

// Seat returns pad n's view for a seat.
func (p *Pad) Seat(n int) Seat { return Seat{p: p, n: n} }

// Touched reports whether the seat's pad is touched now.
func (s Seat) Touched() bool { return s.p.Touched(s.n) }

// Card is the player card in the seat's reader.
func (s Seat) Card() (string, bool) { return s.p.Card(s.n) }
