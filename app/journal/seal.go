package journal

// The seal. A SHA-256 chain only shows accidental damage: whoever can write the file can
// recompute it after deleting, editing or forging a record. So each record's chain value is an
// HMAC-SHA256 under a secret key of this terminal, over the record and the previous value: a
// record can only be written by the holder of the key. The key lives in its own file (by
// default the journal's path + ".key", mode 0600), never in the journal, created when the
// terminal is first provisioned (the first Open of a journal with no key).
//
// A MAC chain still cannot see its own end cut off, nor the whole file put back to an older
// copy, nor a new empty journal started in its place: each is a valid chain. That is what the
// table server's anchor is for: every money request carries the journal head (Head: the last
// record's seq and MAC), the server keeps the last one it acknowledged per terminal, and on
// start the terminal checks its journal against it (CheckAnchor).
//
// Migration: a journal written before the seal (a plain SHA-256 chain) keeps its old records
// as they are, verified by their SHA-256 chain; on its first Open with a key the journal
// appends a "journal-sealed" record, the first MAC'd one, and notes its seq in the seal table.
// Records before it are only as trustworthy as they were; everything after is sealed. The seal
// table is not itself trusted: the record it points at must be a journal-sealed record with a
// valid MAC, so moving the mark cannot unseal anything, and a journal with no seal row whose
// terminal already has a key (an unsealed copy put in its place) is refused.

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/tablegames/ats/internal/keyfile"
)

// KindSealed is the record that starts the MAC chain of a journal written before the seal.
const KindSealed = "journal-sealed"

// ErrKey is wrapped by errors about the journal's key file: missing for a sealed journal,
// unreadable, malformed, or readable by others.
var ErrKey = errors.New("journal key")

// ErrAnchor is wrapped by CheckAnchor's errors: the journal is not the one the table server
// acknowledged (records deleted, an older copy, a new journal, a forged record).
var ErrAnchor = errors.New("journal does not match the table server's anchor")

const sealSchema = `CREATE TABLE IF NOT EXISTS seal (from_seq INTEGER NOT NULL);`

// KeyPath is where the key of the journal at path is kept unless the caller says otherwise.
func KeyPath(journal string) string { return journal + ".key" }

// readKey reads a key file (internal/keyfile): ok is false when the file does not exist.
func readKey(path string) (key []byte, ok bool, err error) {
	if key, ok, err = keyfile.Read(path); err != nil {
		return nil, false, fmt.Errorf("journal: %w %s: %w", ErrKey, path, err)
	}
	return key, ok, nil
}

// newKeyFile makes a key and writes it durably to path+".new" (0600); installKey moves it to
// path. The two steps let a migration write its first MAC'd record between them: a crash before
// the rename leaves the journal unsealed (or sealed with the .new key, which Open then installs).
func newKeyFile(path string) ([]byte, error) {
	key, err := keyfile.Create(path)
	if err != nil {
		return nil, fmt.Errorf("journal: %w %s.new: %w", ErrKey, path, err)
	}
	return key, nil
}

func installKey(path string) error {
	if err := keyfile.Install(path); err != nil {
		return fmt.Errorf("journal: %w %s: %w", ErrKey, path, err)
	}
	return nil
}

// macOf is a sealed record's chain value: HMAC-SHA256 under the terminal's key of the previous
// value and the record, every field length-prefixed as in hashOf.
func macOf(key []byte, prev [32]byte, r *Record) [32]byte {
	h := hmac.New(sha256.New, key)
	h.Write([]byte("ats-journal-v2"))
	h.Write(prev[:])
	writeRecord(h, r)
	var out [32]byte
	h.Sum(out[:0])
	return out
}

type writer interface{ Write([]byte) (int, error) }

func writeRecord(h writer, r *Record) {
	var n [8]byte
	putInt := func(v int64) { binary.BigEndian.PutUint64(n[:], uint64(v)); h.Write(n[:]) }
	putBytes := func(b []byte) { putInt(int64(len(b))); h.Write(b) }
	putInt(r.Seq)
	putInt(r.At.UnixNano())
	putBytes([]byte(r.Kind))
	putBytes([]byte(r.Key))
	putBytes([]byte(r.Round))
	putInt(r.Amount)
	putBytes(r.Body)
	putBytes([]byte(r.Flow))
}

// chainOf is the chain value record r must carry: the SHA-256 of a record from before the seal,
// the MAC of one after it.
func (j *Journal) chainOf(prev [32]byte, r *Record) [32]byte {
	if j.sealFrom > 0 && r.Seq >= j.sealFrom {
		return macOf(j.key, prev, r)
	}
	return hashOf(prev, r)
}

// readSeal reads the seq the MAC chain starts at; 0 when the journal has no seal row.
func readSeal(ctx context.Context, q querier) (int64, error) {
	rows, err := q.QueryContext(ctx, `SELECT from_seq FROM seal`)
	if err != nil {
		return 0, fmt.Errorf("journal: seal: %w", damaged(err))
	}
	defer rows.Close()
	var from []any
	for rows.Next() {
		var v any
		if err := rows.Scan(&v); err != nil {
			return 0, fmt.Errorf("journal: seal: %w", damaged(err))
		}
		from = append(from, v)
	}
	if err := rows.Err(); err != nil {
		return 0, fmt.Errorf("journal: seal: %w", damaged(err))
	}
	switch {
	case len(from) == 0:
		return 0, nil
	case len(from) > 1:
		return 0, fmt.Errorf("journal: %w: %d seal rows", ErrCorrupt, len(from))
	}
	n, ok := from[0].(int64)
	if !ok || n < 1 {
		return 0, fmt.Errorf("journal: %w: seal row holds %v", ErrCorrupt, from[0])
	}
	return n, nil
}

// provision loads the writer's key, creating it for a new journal, and seals a journal written
// before the seal. It runs before Verify, under the writer's lock.
func (j *Journal) provision(ctx context.Context, path, keyPath string) error {
	from, err := readSeal(ctx, j.db)
	if err != nil {
		return err
	}
	var records int64
	if err := j.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM records`).Scan(&records); err != nil {
		return fmt.Errorf("journal: %s: %w", path, damaged(err))
	}
	key, haveKey, err := readKey(keyPath)
	if err != nil {
		return err
	}
	pendingKey, havePending, err := readKey(keyPath + ".new")
	if err != nil {
		return err
	}
	switch {
	case from > 0 && haveKey:
		j.key, j.sealFrom = key, from
		return nil
	case from > 0 && havePending:
		// A migration (or a first provisioning) that crashed before installing its key: the
		// key it sealed with is the .new one; Verify proves it, then it is installed.
		j.key, j.sealFrom, j.installKey = pendingKey, from, keyPath
		return nil
	case from > 0:
		return fmt.Errorf("journal: %s is sealed but its %w file %s is missing: restore it (the journal cannot be verified without it)", path, ErrKey, keyPath)
	case haveKey && records > 0:
		return fmt.Errorf("journal: %s: %w: it holds %d unsealed records but this terminal already has a key (%s): an unsealed journal was put in place of the sealed one", path, ErrCorrupt, records, keyPath)
	}
	if !haveKey {
		if key, err = newKeyFile(keyPath); err != nil {
			return err
		}
	}
	j.key = key
	if records == 0 {
		// A new journal: sealed from its first record.
		if _, err := j.db.ExecContext(ctx, `INSERT INTO seal(from_seq) VALUES (1)`); err != nil {
			return fmt.Errorf("journal: %s: seal: %w", path, err)
		}
		j.sealFrom = 1
	} else {
		// A journal from before the seal: check its SHA-256 chain, then seal from the next
		// record on, with a record saying so.
		if err := j.Verify(ctx); err != nil {
			return err
		}
		j.sealFrom = j.seq + 1
		body := fmt.Appendf(nil, `{"legacy_through":%d}`, j.seq)
		mark := func(tx *sql.Tx) error {
			_, err := tx.ExecContext(ctx, `INSERT INTO seal(from_seq) VALUES (?)`, j.sealFrom)
			return err
		}
		if _, err := j.append(ctx, Record{Kind: KindSealed, Body: body}, "", mark); err != nil {
			return err
		}
	}
	if !haveKey {
		return installKey(keyPath)
	}
	return nil
}

// Head is the journal's chain head: the seq of its last record and that record's MAC (zero for
// an empty journal). Every money request carries it, and the table server keeps the last one
// it acknowledged as this terminal's anchor.
func (j *Journal) Head() (seq int64, mac [32]byte) {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.seq, j.last
}

// CheckAnchor checks the journal against the head the table server last acknowledged from this
// terminal (seq 0: none). The journal must still hold that record with that MAC: a journal that
// ends before it lost records (deleted, or an older copy put back), an empty one was started in
// place of this one, and a different MAC there means the journal is not the one the server
// heard from (replaced, or forged with another key). Each is an error wrapping ErrAnchor.
func (j *Journal) CheckAnchor(ctx context.Context, seq int64, mac []byte) error {
	if seq == 0 {
		return nil
	}
	head, _ := j.Head()
	switch {
	case head == 0:
		return fmt.Errorf("journal: %w: the journal is empty (new, or replaced) but the table server acknowledged record %d from this terminal: the terminal's records are missing", ErrAnchor, seq)
	case head < seq:
		lost := fmt.Sprintf("records %d–%d", head+1, seq)
		if head+1 == seq {
			lost = fmt.Sprintf("record %d", seq)
		}
		return fmt.Errorf("journal: %w: the journal ends at record %d but the table server acknowledged record %d from this terminal: %s deleted, or an older copy of the journal put back", ErrAnchor, head, seq, lost)
	}
	rs, err := j.Records(ctx, seq-1, 1)
	if err != nil {
		return err
	}
	if len(rs) != 1 || !bytes.Equal(rs[0].Hash[:], mac) {
		return fmt.Errorf("journal: %w: record %d is not the record the table server acknowledged (MAC %x, server has %x): the journal was replaced or rewritten", ErrAnchor, seq, short(rs), short32(mac))
	}
	return nil
}

func short(rs []Record) []byte {
	if len(rs) == 0 {
		return nil
	}
	return rs[0].Hash[:6]
}

func short32(b []byte) []byte { return b[:min(len(b), 6)] }

// SealedFrom is the first record of the MAC chain: 1 for a journal sealed from its start, the
// journal-sealed record's seq for one written before the seal, 0 for one not sealed yet (only
// a read-only open of an old journal sees that).
func (j *Journal) SealedFrom() int64 {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.sealFrom
}
