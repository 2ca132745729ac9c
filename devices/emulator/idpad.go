package emulator

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"

	"github.com/tablegames/ats/devices/idpad"
)

// IDPadConfig sets the emulated pads' timing.
type IDPadConfig struct {
	Heartbeat time.Duration // 500 ms
	Resend    time.Duration // an unacknowledged event goes again after this; 200 ms
	Version   string
	Pace      time.Duration
	Trace     func(Trace)
}

// IDPad is an emulated strip of player-ID pads with card readers.
type IDPad struct {
	cfg IDPadConfig

	mu        sync.Mutex
	touched   uint16
	cards     map[int]string
	queue     []idpad.Frame // events not yet acknowledged, oldest first
	sent      time.Time
	seq       byte
	unplugged bool
	boot      bool
	wake      chan struct{}
	acked     int
}

// NewIDPad returns pads just powered up: nothing touched, no cards.
func NewIDPad(cfg IDPadConfig) *IDPad {
	if cfg.Heartbeat <= 0 {
		cfg.Heartbeat = 500 * time.Millisecond
	}
	if cfg.Resend <= 0 {
		cfg.Resend = 200 * time.Millisecond
	}
	if cfg.Version == "" {
		cfg.Version = "ATS-EMU IDPAD 1.00"
	}
	return &IDPad{cfg: cfg, cards: map[int]string{}, wake: make(chan struct{}, 1)}
}

func (d *IDPad) event(typ byte, data ...byte) {
	d.seq++
	if d.seq == 0 {
		d.seq = 1
	}
	d.queue = append(d.queue, idpad.Frame{Type: typ, Seq: d.seq, Data: data})
	select {
	case d.wake <- struct{}{}:
	default:
	}
}

// Touch puts a hand on pad n or takes it off.
func (d *IDPad) Touch(n int, on bool) error {
	if n < 1 || n > idpad.MaxPads {
		return fmt.Errorf("emulator: pad %d outside 1–%d", n, idpad.MaxPads)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	bit := uint16(1) << (n - 1)
	if on == (d.touched&bit != 0) {
		return nil
	}
	if on {
		d.touched |= bit
		d.event(idpad.TouchOn, byte(n))
	} else {
		d.touched &^= bit
		d.event(idpad.TouchOff, byte(n))
	}
	return nil
}

// InsertCard puts a player card in pad n's reader; RemoveCard takes it out.
func (d *IDPad) InsertCard(n int, number string) error {
	f := idpad.Frame{Type: idpad.CardIn, Seq: 1, Data: append([]byte{byte(n)}, number...)}
	b, err := f.Encode()
	if err == nil {
		_, err = idpad.Decode(b) // the pad's own checks: pad id, 1–20 digits
	}
	if err != nil {
		return err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.cards[n] = number
	d.event(idpad.CardIn, f.Data...)
	return nil
}

// RemoveCard takes the card out of pad n's reader.
func (d *IDPad) RemoveCard(n int) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if _, ok := d.cards[n]; !ok {
		return fmt.Errorf("emulator: no card in pad %d", n)
	}
	delete(d.cards, n)
	d.event(idpad.CardOut, byte(n))
	return nil
}

func (d *IDPad) state() idpad.State {
	s := idpad.State{Touched: d.touched}
	for n := range d.cards {
		s.Cards |= 1 << (n - 1)
	}
	return s
}

// Serve talks to the host on line until ctx ends.
func (d *IDPad) Serve(ctx context.Context, line io.ReadWriter) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		<-ctx.Done()
		if c, ok := line.(io.Closer); ok {
			c.Close()
		}
	}()
	var wmu sync.Mutex
	write := func(f idpad.Frame) error {
		b, err := f.Encode()
		if err != nil {
			return err
		}
		d.mu.Lock()
		unplugged := d.unplugged
		d.mu.Unlock()
		if unplugged {
			return nil
		}
		wmu.Lock()
		defer wmu.Unlock()
		sleepBytes(d.cfg.Pace, len(b))
		_, err = line.Write(b)
		return err
	}
	errc := make(chan error, 1)
	go func() { // the device's own talk: events until acknowledged, heartbeats
		hb := time.NewTicker(d.cfg.Heartbeat)
		defer hb.Stop()
		rs := time.NewTicker(d.cfg.Resend)
		defer rs.Stop()
		for {
			var f *idpad.Frame
			select {
			case <-ctx.Done():
				errc <- nil
				return
			case <-hb.C:
				d.mu.Lock()
				f = &idpad.Frame{Type: idpad.Heartbeat, Seq: d.seq, Data: d.state().Data()}
				d.mu.Unlock()
			case <-d.wake:
			case <-rs.C:
			}
			d.mu.Lock()
			if d.boot {
				// After power-up a heartbeat (SEQ 0) goes before any event, so the host forgets
				// the sequence numbers of the pad's previous life.
				d.boot = false
				f = &idpad.Frame{Type: idpad.Heartbeat, Data: d.state().Data()}
			}
			d.mu.Unlock()
			if f != nil {
				if err := write(*f); err != nil {
					errc <- err
					return
				}
				continue
			}
			d.mu.Lock()
			var head *idpad.Frame
			if len(d.queue) > 0 && time.Since(d.sent) >= d.cfg.Resend/2 {
				h := d.queue[0]
				head = &h
				d.sent = time.Now()
			}
			d.mu.Unlock()
			if head != nil {
				if err := write(*head); err != nil {
					errc <- err
					return
				}
			}
		}
	}()
	rd := idpad.NewReader(line)
	for {
		f, err := rd.Next()
		if ctx.Err() != nil {
			return <-errc
		}
		var ne *idpad.NoiseError
		if errors.As(err, &ne) {
			continue
		}
		if err != nil {
			return err
		}
		d.mu.Lock()
		unplugged := d.unplugged
		d.mu.Unlock()
		if unplugged {
			continue
		}
		switch f.Type {
		case idpad.Ack:
			d.mu.Lock()
			if len(d.queue) > 0 && d.queue[0].Seq == f.Data[0] {
				d.queue = d.queue[1:]
				d.sent = time.Time{}
				d.acked++
				select {
				case d.wake <- struct{}{}:
				default:
				}
			}
			d.mu.Unlock()
		case idpad.StatusReq:
			d.mu.Lock()
			s := d.state()
			d.mu.Unlock()
			write(idpad.Frame{Type: idpad.StatusMsg, Data: s.Data()})
		case idpad.VersionRq:
			write(idpad.Frame{Type: idpad.VersionMs, Data: []byte(d.cfg.Version)})
		}
	}
}

// Pending is the number of events not yet acknowledged by the host.
func (d *IDPad) Pending() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.queue)
}

// Command runs one operator command: touch on|off [pad], card <number> [pad], card-out [pad],
// power-cycle, unplug, replug, status.
func (d *IDPad) Command(line string) (string, error) {
	cmd, args := fields(line)
	pad := func(i int) (int, error) {
		if len(args) <= i {
			return 1, nil
		}
		n, err := strconv.Atoi(args[i])
		if err != nil {
			return 0, fmt.Errorf("pad %q: want a number 1–16", args[i])
		}
		return n, nil
	}
	switch cmd {
	case "touch":
		if len(args) < 1 || (args[0] != "on" && args[0] != "off") {
			return "", errors.New("touch on|off [pad]")
		}
		n, err := pad(1)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("pad %d touch %s", n, args[0]), d.Touch(n, args[0] == "on")
	case "card":
		if len(args) < 1 {
			return "", errors.New("card <number> [pad]")
		}
		n, err := pad(1)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("card %s in pad %d", args[0], n), d.InsertCard(n, args[0])
	case "card-out":
		n, err := pad(0)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("card out of pad %d", n), d.RemoveCard(n)
	case "power-cycle":
		d.mu.Lock()
		d.touched, d.cards, d.queue, d.seq, d.boot = 0, map[int]string{}, nil, 0, true
		d.mu.Unlock()
		select {
		case d.wake <- struct{}{}:
		default:
		}
		return "power cycled", nil
	case "unplug", "replug":
		d.mu.Lock()
		d.unplugged = cmd == "unplug"
		d.mu.Unlock()
		return "cable " + cmd + "ged", nil
	case "status":
		d.mu.Lock()
		defer d.mu.Unlock()
		return fmt.Sprintf("touched %016b, cards %v, %d events unacknowledged", d.touched, d.cards, len(d.queue)), nil
	}
	return "", fmt.Errorf("unknown command %q; try touch on|off [pad], card <number> [pad], card-out [pad], power-cycle, unplug, replug, status", cmd)
}
