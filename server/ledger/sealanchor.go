package ledger

// The head anchor: a ledger put back to an older copy (issue 34). Every MAC of an older copy
// is valid, its head its own: nothing inside the ledger can tell it from the ledger it
// replaced. So the head's commit count (seal_head.n, moved by every commit that seals a row,
// covered by the head's MAC) is also kept outside it, in a file beside the ledger key
// (KEY.head, or KEY.<schema>.head on PostgreSQL, where one key file may serve a floor's
// tables), 0600, MAC'd under the key. Open refuses a ledger whose head is older than its
// anchor (ErrRolledBack), and a new, empty ledger where an anchor says one was sealed.
//
// Why there: the anchor keeps the key's protection — whoever cannot read the key cannot have
// kept an older copy of the anchor to put back with the ledger, nor write a newer one. The
// terminals' journals (each holding the heads it was told of) would anchor it as well, but only
// once a terminal reconnects, and only for tables with terminals that played since the copy.
//
// The anchor is written after the commit, off the commit's path (one writer goroutine, the
// newest count only, durably: write, fsync, rename, fsync the directory), so a settlement does
// not wait for two more fsyncs. It may lag the ledger — a kill between the commit and the
// write — but never lead it; a lagging anchor is moved forward at the next Open.

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// ErrRolledBack is wrapped (with ErrTampered) by the refusal of a ledger older than its anchor.
var ErrRolledBack = errors.New("ledger put back to an older copy")

// anchorPath is the anchor file of the ledger whose key is keyPath; schema is the table's
// PostgreSQL schema ("" on SQLite).
func anchorPath(keyPath, schema string) string {
	if schema == "" {
		return keyPath + ".head"
	}
	return keyPath + "." + schema + ".head"
}

// headAnchor writes one ledger's anchor.
type headAnchor struct {
	path string
	key  []byte

	mu      sync.Mutex
	want    int64 // the newest count to write
	written int64
	err     error // the last write's failure, told at Close
	busy    bool
	closed  bool // the ledger closed: a commit that returned as it closed moves nothing on disk
	idle    *sync.Cond
}

func newHeadAnchor(path string, key []byte) *headAnchor {
	a := &headAnchor{path: path, key: key}
	a.idle = sync.NewCond(&a.mu)
	return a
}

func (a *headAnchor) mac(n int64) []byte {
	h := hmac.New(sha256.New, a.key)
	h.Write([]byte("ats-ledger-anchor-v1"))
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], uint64(n))
	h.Write(b[:])
	return h.Sum(nil)
}

// read is the anchored count; ok false when there is no anchor file (a ledger sealed before
// the anchor, or new). A file that is not one this key wrote is an error.
func (a *headAnchor) read() (int64, bool, error) {
	b, err := os.ReadFile(a.path)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, fmt.Errorf("ledger: head anchor %s: %w", a.path, err)
	}
	f := strings.Fields(string(b))
	if len(f) == 2 {
		n, err := strconv.ParseInt(f[0], 10, 64)
		mac, herr := hex.DecodeString(f[1])
		if err == nil && herr == nil && n >= 0 && hmac.Equal(mac, a.mac(n)) {
			return n, true, nil
		}
	}
	return 0, false, fmt.Errorf("ledger: %w: the head anchor %s was not written under this ledger's key", ErrTampered, a.path)
}

// write writes count n durably now.
func (a *headAnchor) write(n int64) error {
	tmp := a.path + ".new"
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(f, "%d %x\n", n, a.mac(n))
	if err == nil {
		err = f.Sync()
	}
	if e := f.Close(); err == nil {
		err = e
	}
	if err == nil {
		err = os.Rename(tmp, a.path)
	}
	if err != nil {
		return fmt.Errorf("ledger: head anchor %s: %w", a.path, err)
	}
	d, err := os.Open(filepath.Dir(a.path))
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// advance has the anchor moved to n (if newer) by the writer goroutine, started if idle.
func (a *headAnchor) advance(n int64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	// After Close the ledger's directory may be gone or handed on (a test's TempDir removed, a
	// copy taken): the anchor lags, which the next Open moves forward, and never leads.
	if n <= a.want || a.closed {
		return
	}
	a.want = n
	if !a.busy {
		a.busy = true
		go a.run()
	}
}

func (a *headAnchor) run() {
	a.mu.Lock()
	defer a.mu.Unlock()
	for a.written < a.want {
		n := a.want
		a.mu.Unlock()
		err := a.write(n)
		a.mu.Lock()
		if err != nil {
			a.err = err
			break
		}
		a.written = n
	}
	a.busy = false
	a.idle.Broadcast()
}

// close waits for the writer, stops any later advance, and returns the last write's failure.
func (a *headAnchor) close() error {
	if a == nil {
		return nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.closed = true
	for a.busy {
		a.idle.Wait()
	}
	return a.err
}
