package main

// A cashier's shift, the smallest one the cage needs: who, when opened, when closed, and what
// was paid in between. The cage's table API has no shift of its own (ShiftTotals reads the
// payments of a window), so the station keeps its shifts here and asks the table for the
// window's totals: the count and the sum always come from the floor's ledger, never from this
// file. A shift's close records those figures as the table gave them.
//
// The file is a journal of JSON lines, each written and fsynced before the cashier is told
// (open, close), each sealed with an HMAC-SHA256 over the previous line's seal and its own
// text, under a key kept in a file of its own (internal/keyfile). A line changed, removed or
// put back out of order breaks the chain, and the station refuses to start on it rather than
// trust it.

import (
	"bufio"
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/tablegames/ats/internal/keyfile"
)

// Shift is one cashier's shift at this station. Closed is zero while it is open.
type Shift struct {
	ID      string    `json:"id"`
	Cashier string    `json:"cashier"`
	Opened  time.Time `json:"opened"`
	Closed  time.Time `json:"closed,omitzero"`
	Count   int64     `json:"count,omitempty"`  // tickets paid, as the table counted them at the close
	Amount  int64     `json:"amount,omitempty"` // cents paid, as the table summed them at the close
}

// shiftLine is one journal line: an "open" or a "close" of a shift, and its seal.
type shiftLine struct {
	Kind  string `json:"kind"`
	Shift Shift  `json:"shift"`
	Seal  string `json:"seal"`
}

// Shifts is the station's shift journal.
type Shifts struct {
	mu     sync.Mutex
	f      *os.File
	key    []byte
	last   []byte            // the last line's seal: the next line's chain
	open   map[string]*Shift // by cashier
	closed map[string]Shift  // by id
}

// errShiftOpen and errNoShift are a cashier's mistakes, told as they are.
var (
	errShiftOpen = errors.New("your shift is already open")
	errNoShift   = errors.New("you have no shift open: open your shift first")
)

// OpenShifts opens (creating if need be) the journal at path, sealed with the key at keyPath,
// and checks every line's seal.
func OpenShifts(path, keyPath string) (*Shifts, error) {
	key, ok, err := keyfile.Read(keyPath)
	if err != nil {
		return nil, fmt.Errorf("shift journal key %s: %w", keyPath, err)
	}
	if !ok {
		if st, err := os.Stat(path); err == nil && st.Size() > 0 {
			return nil, fmt.Errorf("shift journal %s has shifts but its key %s is missing: restore the key, the journal cannot be trusted without it", path, keyPath)
		}
		if key, err = keyfile.Create(keyPath); err != nil {
			return nil, fmt.Errorf("shift journal key: %w", err)
		}
		if err := keyfile.Install(keyPath); err != nil {
			return nil, fmt.Errorf("shift journal key: %w", err)
		}
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("shift journal: %w", err)
	}
	s := &Shifts{f: f, key: key, open: map[string]*Shift{}, closed: map[string]Shift{}}
	if err := s.replay(); err != nil {
		f.Close()
		return nil, fmt.Errorf("shift journal %s: %w", path, err)
	}
	return s, nil
}

func (s *Shifts) seal(prev []byte, body []byte) []byte {
	m := hmac.New(sha256.New, s.key)
	m.Write(prev)
	m.Write(body)
	return m.Sum(nil)
}

// body is what a line's seal covers: the line without its seal.
func body(l shiftLine) ([]byte, error) {
	l.Seal = ""
	return json.Marshal(l)
}

func (s *Shifts) replay() error {
	sc := bufio.NewScanner(s.f)
	sc.Buffer(make([]byte, 4096), 1<<20)
	for n := 1; sc.Scan(); n++ {
		var l shiftLine
		dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&l); err != nil {
			return fmt.Errorf("line %d: %v", n, err)
		}
		b, err := body(l)
		if err != nil {
			return fmt.Errorf("line %d: %v", n, err)
		}
		got, err := hex.DecodeString(l.Seal)
		want := s.seal(s.last, b)
		if err != nil || !hmac.Equal(got, want) {
			return fmt.Errorf("line %d: its seal does not match (changed, removed or reordered lines)", n)
		}
		s.last = want
		if err := s.apply(l); err != nil {
			return fmt.Errorf("line %d: %v", n, err)
		}
	}
	return sc.Err()
}

func (s *Shifts) apply(l shiftLine) error {
	switch l.Kind {
	case "open":
		if s.open[l.Shift.Cashier] != nil {
			return fmt.Errorf("%s opens a second shift", l.Shift.Cashier)
		}
		sh := l.Shift
		s.open[sh.Cashier] = &sh
	case "close":
		o := s.open[l.Shift.Cashier]
		if o == nil || o.ID != l.Shift.ID {
			return fmt.Errorf("shift %s closed but not open", l.Shift.ID)
		}
		delete(s.open, l.Shift.Cashier)
		s.closed[l.Shift.ID] = l.Shift
	default:
		return fmt.Errorf("kind %q", l.Kind)
	}
	return nil
}

// write seals, appends and fsyncs one line, then applies it. Called with s.mu held.
func (s *Shifts) write(l shiftLine) error {
	b, err := body(l)
	if err != nil {
		return err
	}
	seal := s.seal(s.last, b)
	l.Seal = hex.EncodeToString(seal)
	line, err := json.Marshal(l)
	if err != nil {
		return err
	}
	if _, err := s.f.Write(append(line, '\n')); err != nil {
		return fmt.Errorf("shift journal: %w", err)
	}
	if err := s.f.Sync(); err != nil {
		return fmt.Errorf("shift journal: %w", err)
	}
	s.last = seal
	return s.apply(l)
}

// Open opens cashier's shift at now.
func (s *Shifts) Open(cashier string, now time.Time) (Shift, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.open[cashier] != nil {
		return Shift{}, errShiftOpen
	}
	b := make([]byte, 6)
	if _, err := rand.Read(b); err != nil {
		return Shift{}, err
	}
	sh := Shift{ID: "S" + now.UTC().Format("20060102-150405") + "-" + hex.EncodeToString(b), Cashier: cashier, Opened: now}
	if err := s.write(shiftLine{Kind: "open", Shift: sh}); err != nil {
		return Shift{}, err
	}
	return sh, nil
}

// Current is cashier's open shift, if any.
func (s *Shifts) Current(cashier string) (Shift, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if o := s.open[cashier]; o != nil {
		return *o, true
	}
	return Shift{}, false
}

// Close closes cashier's open shift with the table's totals of it: totals is called with the
// time the shift opened and answers the count and sum the cashier has paid since, up to the
// table's now (not the station's: a payment the table stamped a moment after the station's
// clock is still this shift's, and no payment can come after, as paying needs an open shift).
func (s *Shifts) Close(cashier string, now time.Time, totals func(from time.Time) (count, amount int64, err error)) (Shift, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	o := s.open[cashier]
	if o == nil {
		return Shift{}, errNoShift
	}
	count, amount, err := totals(o.Opened)
	if err != nil {
		return Shift{}, err
	}
	sh := *o
	sh.Closed, sh.Count, sh.Amount = now, count, amount
	if err := s.write(shiftLine{Kind: "close", Shift: sh}); err != nil {
		return Shift{}, err
	}
	return sh, nil
}

// Closed is a closed shift by id.
func (s *Shifts) Closed(id string) (Shift, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sh, ok := s.closed[id]
	return sh, ok
}

// CloseFile closes the journal's file.
func (s *Shifts) CloseFile() error { return s.f.Close() }
