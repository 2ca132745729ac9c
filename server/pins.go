package server

import (
	"bufio"
	"bytes"
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/tablegames/ats/server/pki"
)

// PINs is a PIN file: the PINs of the people who prove at the table that it is them and not
// whoever found their certificate or card — field technicians (technician.go), supervisors at a
// dealer's console (supervisor.go), the cage's cashiers (cmd/cagepage). PINs are kept only as
// salted PBKDF2-HMAC-SHA256 hashes in a small text file, one line per person:
//
//	# id  scheme  iterations  salt (base64)  hash (base64)
//	technician pbkdf2-sha256 100000 3q2+7w… Zm9v…
//
// written by `tableserver technician set-pin` (or `supervisor set-pin`: the same format). A PIN
// has few digits, so the hash alone would not stop a guesser who has the file; what stops
// guessing at the table is the throttle, the file's PINPolicy: after MaxFailures wrong PINs in a
// row an id is locked out, for Lockout at first and twice as long at each further wrong PIN (up
// to LockoutMax). The caller audits every attempt.
//
// A check costs the same whether the id exists, the PIN is well formed or not: the hash is
// always computed and compared in constant time, so neither the answer nor its time tells a
// guesser which ids exist or how close a PIN came.
type PINs struct {
	policy  PINPolicy
	mu      sync.Mutex
	entries map[string]pinEntry
	fails   map[string]*pinFailures
	now     func() time.Time
	// dummyIter is the iterations an unknown id's check hashes with: the file's most.
	dummyIter int
	// derive is PBKDF2 (a test counts its calls to prove every check hashes).
	derive func(pin string, salt []byte, iterations int) ([]byte, error)
}

// Technicians is the technicians' PIN file (TechnicianPolicy).
type Technicians = PINs

// PINPolicy is how a PIN file throttles guessing, and what its messages call its people.
type PINPolicy struct {
	Who         string // "technician", "supervisor": in errors and messages
	MaxFailures int    // wrong PINs in a row that lock an id out
	Lockout     time.Duration
	LockoutMax  time.Duration
}

// The policies. A technician is locked out soon and briefly (they are at a cabinet, alone);
// a supervisor's card after five wrong PINs (000 §11 consoles: a PIN typed under the dealer's
// eyes, in a hurry) for five minutes, with an alarm on the table (supervisor.go).
var (
	TechnicianPolicy = PINPolicy{Who: "technician", MaxFailures: maxPINFailures, Lockout: pinLockout, LockoutMax: pinLockoutMax}
	SupervisorPolicy = PINPolicy{Who: "supervisor", MaxFailures: 5, Lockout: 5 * time.Minute, LockoutMax: time.Hour}
)

type pinEntry struct {
	iterations int
	salt, hash []byte
}

type pinFailures struct {
	n     int
	until time.Time
}

const (
	pinScheme         = "pbkdf2-sha256"
	DefaultIterations = 100_000
	maxPINFailures    = 3
	pinLockout        = 30 * time.Second
	pinLockoutMax     = 15 * time.Minute
	minPINLen         = 4
	maxPINLen         = 12
)

// ParseTechnicians reads a technicians' PIN file.
func ParseTechnicians(b []byte) (*Technicians, error) { return ParsePINs(b, TechnicianPolicy) }

// LoadTechnicians reads a technicians' PIN file; a missing file is no technicians (every PIN
// refused).
func LoadTechnicians(path string) (*Technicians, error) { return LoadPINs(path, TechnicianPolicy) }

// ParsePINs reads a PIN file throttled by policy.
func ParsePINs(b []byte, policy PINPolicy) (*PINs, error) {
	t := &PINs{policy: policy, entries: map[string]pinEntry{}, fails: map[string]*pinFailures{}, now: time.Now,
		derive: func(pin string, salt []byte, iter int) ([]byte, error) {
			return pbkdf2.Key(sha256.New, pin, salt, iter, sha256.Size)
		}}
	who := policy.Who + "s"
	sc := bufio.NewScanner(bytes.NewReader(b))
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		f := strings.Fields(text)
		if len(f) != 5 {
			return nil, fmt.Errorf("%s: line %d: want id, scheme, iterations, salt, hash", who, line)
		}
		if err := pki.ValidID(f[0]); err != nil {
			return nil, fmt.Errorf("%s: line %d: %w", who, line, err)
		}
		if f[1] != pinScheme {
			return nil, fmt.Errorf("%s: line %d: scheme %q: only %s", who, line, f[1], pinScheme)
		}
		iter, err := strconv.Atoi(f[2])
		if err != nil || iter < 1 || iter > 10_000_000 {
			return nil, fmt.Errorf("%s: line %d: iterations %q: 1 to 10,000,000", who, line, f[2])
		}
		salt, err := base64.StdEncoding.DecodeString(f[3])
		if err != nil || len(salt) < 8 || len(salt) > 64 {
			return nil, fmt.Errorf("%s: line %d: salt: 8 to 64 bytes of base64", who, line)
		}
		hash, err := base64.StdEncoding.DecodeString(f[4])
		if err != nil || len(hash) != sha256.Size {
			return nil, fmt.Errorf("%s: line %d: hash: %d bytes of base64", who, line, sha256.Size)
		}
		if _, dup := t.entries[f[0]]; dup {
			return nil, fmt.Errorf("%s: line %d: %s given twice", who, line, f[0])
		}
		t.entries[f[0]] = pinEntry{iterations: iter, salt: salt, hash: hash}
		t.dummyIter = max(t.dummyIter, iter)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", who, err)
	}
	if t.dummyIter == 0 {
		t.dummyIter = DefaultIterations
	}
	return t, nil
}

// LoadPINs reads a PIN file; a missing file is nobody (every PIN refused).
func LoadPINs(path string, policy PINPolicy) (*PINs, error) {
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return ParsePINs(nil, policy)
	}
	if err != nil {
		return nil, err
	}
	return ParsePINs(b, policy)
}

// CheckPIN is what a PIN must look like: 4 to 12 digits.
func CheckPIN(pin string) error {
	if len(pin) < minPINLen || len(pin) > maxPINLen {
		return fmt.Errorf("a PIN is %d to %d digits", minPINLen, maxPINLen)
	}
	for _, c := range pin {
		if c < '0' || c > '9' {
			return fmt.Errorf("a PIN is %d to %d digits", minPINLen, maxPINLen)
		}
	}
	return nil
}

// PINLine is the PIN file line of id's PIN, with a fresh salt.
func PINLine(id, pin string, iterations int) (string, error) {
	if err := pki.ValidID(id); err != nil {
		return "", err
	}
	if err := CheckPIN(pin); err != nil {
		return "", err
	}
	salt := make([]byte, 16)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	hash, err := pbkdf2.Key(sha256.New, pin, salt, iterations, sha256.Size)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%s %s %d %s %s", id, pinScheme, iterations,
		base64.StdEncoding.EncodeToString(salt), base64.StdEncoding.EncodeToString(hash)), nil
}

// SetPIN writes (or replaces) id's PIN in a PIN file, mode 0600.
func SetPIN(path, id, pin string, iterations int) error {
	line, err := PINLine(id, pin, iterations)
	if err != nil {
		return err
	}
	old, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	if _, err := ParsePINs(old, PINPolicy{Who: "PIN"}); err != nil { // any PIN file: only its form is checked
		return fmt.Errorf("%s: %w", path, err)
	}
	var out []string
	for _, l := range strings.Split(strings.TrimRight(string(old), "\n"), "\n") {
		if f := strings.Fields(l); len(f) > 0 && f[0] == id {
			continue
		}
		if l != "" {
			out = append(out, l)
		}
	}
	if len(out) == 0 {
		out = append(out, "# PINs: id scheme iterations salt hash (tableserver technician|supervisor set-pin)")
	}
	out = append(out, line)
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(strings.Join(out, "\n")+"\n"), 0o600); err != nil {
		return err
	}
	if err := os.Chmod(tmp, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// Verify checks the PIN of id in the file, throttled as verify is: the cage's page
// (cmd/cagepage) keeps its cashiers' PINs in a file of this form and checks them with it.
func (t *PINs) Verify(id, pin string) error { return t.verify(id, pin) }

// verify checks id's PIN, throttled. It returns nil, a PermissionDenied for a wrong PIN (or an
// unknown id: the same answer, so the answer tells no one which ids exist), or a
// ResourceExhausted while the id is locked out.
func (t *PINs) verify(id, pin string) error {
	_, err := t.check(id, pin)
	return err
}

// dummyPIN is what an unknown id's or a malformed PIN's check hashes against, so it costs what
// a real one does; no PIN is accepted against it (ok needs a known id and a well-formed PIN,
// whatever the comparison says).
var dummyPIN = pinEntry{salt: make([]byte, 16), hash: make([]byte, sha256.Size)}

// check is verify, and whether this wrong PIN is the one that locked id out (the caller raises
// the alarm once, not at every refusal while locked).
func (t *PINs) check(id, pin string) (lockedNow bool, err error) {
	t.mu.Lock()
	now := t.now()
	f := t.fails[id]
	if f != nil && now.Before(f.until) {
		wait := f.until.Sub(now).Round(time.Second)
		t.mu.Unlock()
		return false, status.Errorf(codes.ResourceExhausted, "too many wrong PINs for %s: try again in %v", id, wait)
	}
	e, known := t.entries[id]
	t.mu.Unlock()

	// Hashed outside the lock (100,000 rounds are tens of milliseconds), and always: an unknown
	// id or a malformed PIN is hashed against dummyPIN at the iterations of a real one.
	wellFormed := CheckPIN(pin) == nil
	if !known || !wellFormed {
		it := t.dummyIter
		if known {
			it = e.iterations
		}
		e = pinEntry{iterations: it, salt: dummyPIN.salt, hash: dummyPIN.hash}
	}
	h, derr := t.derive(pin, e.salt, e.iterations)
	ok := derr == nil && subtle.ConstantTimeCompare(h, e.hash) == 1 && known && wellFormed

	t.mu.Lock()
	defer t.mu.Unlock()
	if ok {
		delete(t.fails, id)
		return false, nil
	}
	if f = t.fails[id]; f == nil {
		f = &pinFailures{}
		t.fails[id] = f
	}
	f.n++
	p := t.policy
	if f.n >= p.MaxFailures {
		lock := min(p.Lockout<<min(f.n-p.MaxFailures, 10), p.LockoutMax)
		f.until = t.now().Add(lock)
		return true, status.Errorf(codes.ResourceExhausted, "wrong PIN for %s: locked out for %v", id, lock)
	}
	return false, status.Errorf(codes.PermissionDenied, "wrong PIN for %s (%d of %d tries)", id, f.n, p.MaxFailures)
}
