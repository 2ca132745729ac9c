// Package porttest is the fake beside serialport.Port: a port that replays a transcript of the
// bytes a device sends and checks, byte for byte, the bytes the host writes, so a driver's state
// machine is tested without a line. Done reports whatever part of the transcript was not consumed.
//
// Contract (contract.go) is the other side: the suite every real backend of serialport.Port
// passes, over a pseudo-terminal, so the poller and tarm/serial are held to the same behaviour.
package porttest

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/tablegames/ats/devices/serialport"
)

type step struct {
	host bool // the host writes b (else the device sends b)
	b    []byte
	note string
}

// Port replays a transcript. Build it with Expect and Reply, in the order they happen on the line.
type Port struct {
	mu      sync.Mutex
	cond    *sync.Cond
	steps   []step
	pos     int // step in progress
	off     int // bytes of it consumed
	err     error
	closed  bool
	timeout time.Duration
}

// New returns a fake whose reads time out after timeout when the transcript has nothing to send
// yet (a host waiting on a device that will not answer).
func New(timeout time.Duration) *Port {
	p := &Port{timeout: timeout}
	p.cond = sync.NewCond(&p.mu)
	return p
}

// Expect adds bytes the host must write next.
func (p *Port) Expect(note string, b []byte) *Port {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.steps = append(p.steps, step{host: true, b: b, note: note})
	p.cond.Broadcast()
	return p
}

// Reply adds bytes the device sends once every step before them is consumed.
func (p *Port) Reply(note string, b []byte) *Port {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.steps = append(p.steps, step{b: b, note: note})
	p.cond.Broadcast()
	return p
}

// Write checks b against the transcript.
func (p *Port) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return 0, errors.New("porttest: write on a closed port")
	}
	if p.err != nil {
		return 0, p.err
	}
	for i, c := range b {
		if p.pos >= len(p.steps) || !p.steps[p.pos].host {
			p.err = fmt.Errorf("porttest: host wrote % X, transcript expects %s", b[i:], p.nextLocked())
			return i, p.err
		}
		s := p.steps[p.pos]
		if s.b[p.off] != c {
			p.err = fmt.Errorf("porttest: step %d (%s): host wrote % X, want % X", p.pos, s.note, b[i:], s.b[p.off:])
			return i, p.err
		}
		p.advanceLocked()
	}
	return len(b), nil
}

// Read returns the device's next bytes once the host has written everything before them.
func (p *Port) Read(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	deadline := time.Now().Add(p.timeout)
	timer := time.AfterFunc(p.timeout, func() { p.mu.Lock(); p.cond.Broadcast(); p.mu.Unlock() })
	defer timer.Stop()
	for {
		if p.closed {
			return 0, errors.New("porttest: read on a closed port")
		}
		if p.pos < len(p.steps) && !p.steps[p.pos].host {
			s := p.steps[p.pos]
			n := copy(b, s.b[p.off:])
			for range n {
				p.advanceLocked()
			}
			return n, nil
		}
		if !time.Now().Before(deadline) {
			return 0, serialport.ErrTimeout
		}
		p.cond.Wait()
	}
}

func (p *Port) advanceLocked() {
	p.off++
	if p.off == len(p.steps[p.pos].b) {
		p.pos++
		p.off = 0
		p.cond.Broadcast()
	}
}

func (p *Port) nextLocked() string {
	if p.pos >= len(p.steps) {
		return "nothing more"
	}
	s := p.steps[p.pos]
	who := "device to send"
	if s.host {
		who = "host to write"
	}
	return fmt.Sprintf("step %d (%s): %s % X", p.pos, s.note, who, s.b[p.off:])
}

// Flush is a no-op: the transcript has no buffered line noise to discard.
func (p *Port) Flush() error { return nil }

// Close marks the port closed and wakes a pending read.
func (p *Port) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	p.cond.Broadcast()
	return nil
}

// WaitDone waits up to d for the whole transcript to be consumed, then reports a mismatch or
// what is left.
func (p *Port) WaitDone(d time.Duration) error {
	deadline := time.Now().Add(d)
	for {
		p.mu.Lock()
		err, done, next := p.err, p.pos >= len(p.steps), p.nextLocked()
		p.mu.Unlock()
		if err != nil {
			return err
		}
		if done {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("porttest: transcript not consumed, waiting for %s", next)
		}
		time.Sleep(time.Millisecond)
	}
}

// Err reports the first mismatch, if any.
func (p *Port) Err() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err
}

var _ serialport.Port = (*Port)(nil)
