// Package technician is the terminal's side of field technician mode (SPEC §8) beyond the
// terminal itself (app/technician.go): who the technicians are and how their PINs are checked
// (Store: the cards, and the PINs where the table server does not check them), where their sessions and
// changes are recorded (JournalLog), the terminal's settings a technician may change (Settings),
// and the pages of technician mode (Desk): calibration, devices, meters, event log,
// configuration. The kiosk shows Desk's pages (ui); atsctl technician runs the same checks
// headless.
package technician

import (
	"context"
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sync"
	"time"

	"github.com/tablegames/ats/app"
)

// StoreFile is the technicians file's name in the terminal's state directory.
const StoreFile = "technicians.json"

// iterations of PBKDF2-SHA256 per PIN check: ~0.1 s on a cabinet's CPU, so a stolen file costs
// an attacker that per guess, while the throttle stops guessing on the terminal itself.
var iterations = 200_000

// The throttle: after freeFailures wrong PINs in a row a technician id is refused for
// firstLockout, doubling with each further wrong PIN up to maxLockout. The count is kept in the
// file, so restarting the kiosk or running atsctl does not reset it.
const (
	freeFailures = 3
	firstLockout = 30 * time.Second
	maxLockout   = 15 * time.Minute
)

// entry is one technician as the file holds it: never the PIN, only its salted hash.
type entry struct {
	ID       string    `json:"id"`
	Name     string    `json:"name"`
	Card     string    `json:"card,omitempty"` // the technician card's number, as the ID pad reads it
	Salt     string    `json:"salt"`           // hex, 16 random bytes, new for every PIN
	Hash     string    `json:"hash"`           // hex PBKDF2-SHA256(PIN, salt, Iter)
	Iter     int       `json:"iter"`
	Failures int       `json:"failures,omitempty"` // wrong PINs in a row
	Until    time.Time `json:"until,omitzero"`     // refused until then
}

// Store is the technicians file: the local app.TechnicianAuth. Safe for concurrent use within a
// process; the file is replaced atomically on every change.
type Store struct {
	path string
	now  func() time.Time

	mu sync.Mutex
}

// Open returns the store kept in dir (the terminal's state directory). now is the clock the
// throttle reads; nil is time.Now.
func Open(dir string, now func() time.Time) *Store {
	if now == nil {
		now = time.Now
	}
	return &Store{path: filepath.Join(dir, StoreFile), now: now}
}

var (
	idPattern  = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,31}$`)
	pinPattern = regexp.MustCompile(`^[0-9]{6,12}$`)
)

// ErrUnknown is wrapped when no technician has the id; told to the technician as a wrong PIN,
// so the PIN pad does not tell which ids exist.
var ErrUnknown = errors.New("no such technician")

// Add adds (or replaces, with a new PIN) technician id. The PIN is 6–12 digits.
func (s *Store) Add(id, name, card, pin string) error {
	if !idPattern.MatchString(id) {
		return fmt.Errorf("technician id %q: 1–32 letters, digits, '.', '_' or '-'", id)
	}
	if !pinPattern.MatchString(pin) {
		return errors.New("a PIN is 6 to 12 digits")
	}
	salt := make([]byte, 16)
	if _, err := rand.Read(salt); err != nil {
		return err
	}
	h, err := pbkdf2.Key(sha256.New, pin, salt, iterations, 32)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	es, err := s.load()
	if err != nil {
		return err
	}
	e := entry{ID: id, Name: name, Card: card, Salt: hex.EncodeToString(salt), Hash: hex.EncodeToString(h), Iter: iterations}
	for i := range es {
		if es[i].ID == id {
			es[i] = e
			return s.save(es)
		}
		if card != "" && es[i].Card == card {
			return fmt.Errorf("card %s is already technician %s's", card, es[i].ID)
		}
	}
	return s.save(append(es, e))
}

// Card says whose technician card card is.
func (s *Store) Card(card string) (string, bool) {
	if card == "" {
		return "", false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	es, err := s.load()
	if err != nil {
		return "", false
	}
	for _, e := range es {
		if e.Card == card {
			return e.ID, true
		}
	}
	return "", false
}

// Name is technician id's name in the file ("" if it has none, or no such technician).
func (s *Store) Name(id string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	es, _ := s.load()
	for _, e := range es {
		if e.ID == id {
			return e.Name
		}
	}
	return ""
}

// Authenticate implements app.TechnicianAuth: the PIN checked against its salted hash in
// constant time; wrong PINs counted, and the id refused (app.ErrThrottled) while throttled.
func (s *Store) Authenticate(ctx context.Context, id, pin string) (app.Technician, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	es, err := s.load()
	if err != nil {
		return app.Technician{}, err
	}
	i := -1
	for j := range es {
		if es[j].ID == id {
			i = j
		}
	}
	if i < 0 {
		return app.Technician{}, fmt.Errorf("%w: %w %q", app.ErrWrongPIN, ErrUnknown, id)
	}
	e := &es[i]
	now := s.now()
	if now.Before(e.Until) {
		return app.Technician{}, fmt.Errorf("%w: %s refused until %s", app.ErrThrottled, id, e.Until.Format(time.TimeOnly))
	}
	salt, err1 := hex.DecodeString(e.Salt)
	want, err2 := hex.DecodeString(e.Hash)
	if err := errors.Join(err1, err2); err != nil || e.Iter <= 0 {
		return app.Technician{}, fmt.Errorf("technicians file: %s's entry is damaged", id)
	}
	got, err := pbkdf2.Key(sha256.New, pin, salt, e.Iter, len(want))
	if err != nil {
		return app.Technician{}, err
	}
	if subtle.ConstantTimeCompare(got, want) != 1 {
		e.Failures++
		if e.Failures >= freeFailures {
			e.Until = now.Add(min(firstLockout<<(e.Failures-freeFailures), maxLockout))
		}
		if err := s.save(es); err != nil {
			return app.Technician{}, err
		}
		return app.Technician{}, fmt.Errorf("%w (%s: %d in a row)", app.ErrWrongPIN, id, e.Failures)
	}
	if e.Failures > 0 || !e.Until.IsZero() {
		e.Failures, e.Until = 0, time.Time{}
		if err := s.save(es); err != nil {
			return app.Technician{}, err
		}
	}
	return app.Technician{ID: e.ID, Name: e.Name}, nil
}

func (s *Store) load() ([]entry, error) {
	b, err := os.ReadFile(s.path)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var es []entry
	if err := json.Unmarshal(b, &es); err != nil {
		return nil, fmt.Errorf("technicians file %s: %w", s.path, err)
	}
	return es, nil
}

func (s *Store) save(es []entry) error {
	b, err := json.MarshalIndent(es, "", "  ")
	if err != nil {
		return err
	}
	return writeFile(s.path, append(b, '\n'), 0o600)
}

// writeFile replaces path with data atomically (a temporary file synced and renamed).
func writeFile(path string, data []byte, mode os.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+"-*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(mode)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}
