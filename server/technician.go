package server

import (
	"bufio"
	"bytes"
	"context"
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/tablegames/ats/app/table"
	pb "github.com/tablegames/ats/proto/ats/table/v1"
	"github.com/tablegames/ats/proto/wire"
	"github.com/tablegames/ats/server/ledger"
	"github.com/tablegames/ats/server/pki"
)

// Technicians are field technicians' PINs. A technician's certificate (role technician) names
// them; the PIN, checked here, shows it is them at the cabinet and not whoever found the
// laptop. PINs are kept only as salted PBKDF2-HMAC-SHA256 hashes in a small text file, one line
// per technician:
//
//	# id  scheme  iterations  salt (base64)  hash (base64)
//	technician pbkdf2-sha256 100000 3q2+7w… Zm9v…
//
// written by `tableserver technician set-pin`. A PIN has few digits, so the hash alone would
// not stop a guesser who has the file; what stops guessing at the table is the throttle: after
// maxPINFailures wrong PINs in a row an identity is locked out, for pinLockout at first and
// twice as long at each further wrong PIN (up to pinLockoutMax). Every attempt is logged and
// written to the audit log with the certificate's identity.
type Technicians struct {
	mu      sync.Mutex
	entries map[string]pinEntry
	fails   map[string]*pinFailures
	now     func() time.Time
}

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

// ParseTechnicians reads a PIN file.
func ParseTechnicians(b []byte) (*Technicians, error) {
	t := &Technicians{entries: map[string]pinEntry{}, fails: map[string]*pinFailures{}, now: time.Now}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		f := strings.Fields(text)
		if len(f) != 5 {
			return nil, fmt.Errorf("technicians: line %d: want id, scheme, iterations, salt, hash", line)
		}
		if err := pki.ValidID(f[0]); err != nil {
			return nil, fmt.Errorf("technicians: line %d: %w", line, err)
		}
		if f[1] != pinScheme {
			return nil, fmt.Errorf("technicians: line %d: scheme %q: only %s", line, f[1], pinScheme)
		}
		iter, err := strconv.Atoi(f[2])
		if err != nil || iter < 1 || iter > 10_000_000 {
			return nil, fmt.Errorf("technicians: line %d: iterations %q: 1 to 10,000,000", line, f[2])
		}
		salt, err := base64.StdEncoding.DecodeString(f[3])
		if err != nil || len(salt) < 8 || len(salt) > 64 {
			return nil, fmt.Errorf("technicians: line %d: salt: 8 to 64 bytes of base64", line)
		}
		hash, err := base64.StdEncoding.DecodeString(f[4])
		if err != nil || len(hash) != sha256.Size {
			return nil, fmt.Errorf("technicians: line %d: hash: %d bytes of base64", line, sha256.Size)
		}
		if _, dup := t.entries[f[0]]; dup {
			return nil, fmt.Errorf("technicians: line %d: %s given twice", line, f[0])
		}
		t.entries[f[0]] = pinEntry{iterations: iter, salt: salt, hash: hash}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("technicians: %w", err)
	}
	return t, nil
}

// LoadTechnicians reads a PIN file; a missing file is no technicians (every PIN refused).
func LoadTechnicians(path string) (*Technicians, error) {
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return ParseTechnicians(nil)
	}
	if err != nil {
		return nil, err
	}
	return ParseTechnicians(b)
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

// PINLine is the PIN file line of a technician's PIN, with a fresh salt.
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

// SetPIN writes (or replaces) a technician's PIN in a PIN file, mode 0600.
func SetPIN(path, id, pin string, iterations int) error {
	line, err := PINLine(id, pin, iterations)
	if err != nil {
		return err
	}
	old, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	if _, err := ParseTechnicians(old); err != nil {
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
		out = append(out, "# technician PINs: id scheme iterations salt hash (tableserver technician set-pin)")
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
func (t *Technicians) Verify(id, pin string) error { return t.verify(id, pin) }

// verify checks a technician's PIN, throttled. It returns nil, a PermissionDenied for a wrong
// PIN (or an unknown technician: the same answer, so the answer tells no one which ids exist),
// or a ResourceExhausted while the identity is locked out.
func (t *Technicians) verify(id, pin string) error {
	t.mu.Lock()
	now := t.now()
	f := t.fails[id]
	if f != nil && now.Before(f.until) {
		wait := f.until.Sub(now).Round(time.Second)
		t.mu.Unlock()
		return status.Errorf(codes.ResourceExhausted, "too many wrong PINs for %s: try again in %v", id, wait)
	}
	e, known := t.entries[id]
	t.mu.Unlock()

	ok := false
	if known && CheckPIN(pin) == nil {
		// Hashed outside the lock: 100,000 rounds are tens of milliseconds.
		h, err := pbkdf2.Key(sha256.New, pin, e.salt, e.iterations, sha256.Size)
		ok = err == nil && subtle.ConstantTimeCompare(h, e.hash) == 1
	}

	t.mu.Lock()
	defer t.mu.Unlock()
	if ok {
		delete(t.fails, id)
		return nil
	}
	if f = t.fails[id]; f == nil {
		f = &pinFailures{}
		t.fails[id] = f
	}
	f.n++
	if f.n >= maxPINFailures {
		lock := pinLockout << min(f.n-maxPINFailures, 10)
		f.until = t.now().Add(min(lock, pinLockoutMax))
		return status.Errorf(codes.ResourceExhausted, "wrong PIN for %s: locked out for %v", id, min(lock, pinLockoutMax))
	}
	return status.Errorf(codes.PermissionDenied, "wrong PIN for %s (%d of %d tries)", id, f.n, maxPINFailures)
}

// ---- technician service ---------------------------------------------------------------------

type technicianService struct {
	pb.UnimplementedTechnicianServiceServer
	t    *Table
	pins *Technicians
	log  *slog.Logger
}

func (s *technicianService) Authenticate(ctx context.Context, req *pb.TechnicianAuthenticateRequest) (*pb.TechnicianAuthenticateResponse, error) {
	id := callerID(ctx)
	if err := checkTechnicianPIN(ctx, s.t, s.pins, s.log, id, "", req.Pin); err != nil {
		return nil, err
	}
	return &pb.TechnicianAuthenticateResponse{TechnicianId: id}, nil
}

// AuthenticateTechnician checks, for a terminal, the PIN a technician typed on its PIN pad: the
// same PINs and the same throttle as the technician's own certificate gets (the count is kept
// per technician id, so a lock-out holds whichever way the PIN comes), audited with the
// terminal as actor and the technician in the detail.
func (s *terminalService) AuthenticateTechnician(ctx context.Context, req *pb.AuthenticateTechnicianRequest) (*pb.TechnicianAuthenticateResponse, error) {
	id := req.GetTechnicianId()
	if err := pki.ValidID(id); err != nil {
		return nil, status.Errorf(codes.InvalidArgument, "technician id: %v", err)
	}
	if err := checkTechnicianPIN(ctx, s.t, s.pins, s.log, id, callerID(ctx), req.GetPin()); err != nil {
		return nil, err
	}
	return &pb.TechnicianAuthenticateResponse{TechnicianId: id}, nil
}

// checkTechnicianPIN checks technician id's PIN (throttled) and writes the attempt to the audit
// log with the caller as actor, terminal ("" for a technician's own call) as the terminal
// concerned, before answering.
func checkTechnicianPIN(ctx context.Context, t *Table, pins *Technicians, log *slog.Logger, id, terminal, pin string) error {
	if pins == nil {
		return status.Error(codes.FailedPrecondition, "this table has no technician PINs (tableserver -technicians FILE)")
	}
	err := pins.verify(id, pin)
	kind, detail := "technician-authenticated", "technician "+id
	if err != nil {
		kind, detail = "technician-pin-refused", status.Convert(err).Message()
		log.Warn("technician PIN refused", "technician", id, "terminal", terminal, "why", detail)
	} else {
		log.Info("technician authenticated", "technician", id, "terminal", terminal)
	}
	if aerr := t.audit(actorOf(ctx), kind, terminal, detail); aerr != nil {
		return aerr
	}
	return err
}

// Audit writes one audit event that moves no money (a technician's sign-in) for actor.
func (t *Table) Audit(actor, kind, detail string) error { return t.audit(actor, kind, "", detail) }

func (t *Table) audit(actor, kind, terminal, detail string) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	return ledgerErr(t.led.Update(ledger.WithActor(context.Background(), actor), t.now(), func(tx *ledger.Tx) error {
		return tx.Event(kind, terminal, "", 0, detail)
	}))
}

// ---- a seat in service ----------------------------------------------------------------------

// SetInService records a terminal's technician mode as the terminal reports it: s is the seat
// out of play (the technician's id and the terminal's reason), nil back in play. It answers
// since when the seat is in service (zero back in play).
//
// The terminal's report is the truth: the terminal reports again on every connection, so a
// report that changes nothing (the same technician after a reconnect) is taken quietly, keeps
// the time the table first heard of it, and writes no audit event; every change is audited,
// with the terminal as actor and the technician in the detail. A seat taken out of play during
// the wagering period loses its slip (rule 9.7.1), as a terminal that lost the table does: its
// terminal withdraws it too, this makes sure of it. While the seat is in service the table
// refuses wagers from it (slipInputs).
//
// A terminal that disconnects in service stays in service here: the table cannot know whether
// the technician is still at work (unplugging the cabinet is part of it) or the terminal died,
// so it does not guess. The status shows the seat in service and not connected, which the
// dealer console reads as "in service, not confirmed"; the terminal's report on its next
// connection settles it either way (a terminal that restarts comes back in play).
func (t *Table) SetInService(terminal string, s *table.SeatService) (time.Time, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	defer t.actAs("terminal:" + terminal)()
	now := t.now()
	old := t.service[terminal]
	if s == nil {
		if old == nil {
			return time.Time{}, nil
		}
		detail := fmt.Sprintf("technician %s, in service since %s (%v)", old.Technician, old.Since.UTC().Format(time.RFC3339), now.Sub(old.Since).Round(time.Second))
		if err := t.serviceEvent(now, "terminal-back-in-play", terminal, detail); err != nil {
			return time.Time{}, err
		}
		delete(t.service, terminal)
		t.log.Info("terminal back in play", "terminal", terminal, "technician", old.Technician)
		return time.Time{}, nil
	}
	if old != nil && old.Technician == s.Technician {
		old.Reason = s.Reason // the same session told again: only its words may have changed
		return old.Since, nil
	}
	detail := "technician " + s.Technician
	if old != nil {
		detail += " (taking over from " + old.Technician + ")"
	}
	if s.Reason != "" {
		detail += ": " + s.Reason
	}
	if err := t.serviceEvent(now, "terminal-in-service", terminal, detail); err != nil {
		return time.Time{}, err
	}
	rec := &table.SeatService{Technician: s.Technician, Since: now, Reason: s.Reason}
	t.service[terminal] = rec
	t.log.Info("terminal in service", "terminal", terminal, "technician", s.Technician)
	if err := t.voidSlip(now, terminal, "terminal in service (technician "+s.Technician+") before the deadline"); err != nil {
		// In service all the same (the terminal is, whatever the table says): the slip stays,
		// and the terminal's own withdrawal (an empty slip) is still taken.
		t.log.Error("voiding the slip of a terminal in service", "terminal", terminal, "err", err)
	}
	return now, nil
}

// serviceEvent writes one audit event of a seat's service state. Called with t.mu held.
func (t *Table) serviceEvent(now time.Time, kind, terminal, detail string) error {
	return ledgerErr(t.led.Update(t.bg(), now, func(tx *ledger.Tx) error {
		return tx.Event(kind, terminal, "", 0, detail)
	}))
}

// SetInService is a terminal's report of its technician mode (Table.SetInService), for the seat
// of the terminal's own certificate: a terminal cannot report another's.
func (s *terminalService) SetInService(ctx context.Context, req *pb.SetInServiceRequest) (*pb.SetInServiceResponse, error) {
	// The technician is as the terminal reports it (a certificate's id, or its technicians
	// file's where the terminal checks PINs itself): the wire reader holds it to that shape.
	rep, err := wire.SetInServiceOf(req)
	if err != nil {
		return nil, status.Errorf(codes.InvalidArgument, "%v", err)
	}
	since, err := s.t.SetInService(callerID(ctx), rep)
	if err != nil {
		return nil, err
	}
	return &pb.SetInServiceResponse{SinceUnixNanos: wire.TimeNanos(since)}, nil
}
