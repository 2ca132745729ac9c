// Package journal is the terminal's durable record of every money event and every wager: a
// SQLite file in WAL mode with synchronous=FULL, so a record is on disk before Append returns
// and the caller may act on it (tell the server, ACK the note acceptor, print).
//
// Records form a sealed chain: each record's chain value is an HMAC-SHA256, under the
// terminal's secret key (a file beside the journal, never in it), of its content and the
// previous record's value, so a record changed, lost, reordered or forged on disk is detected
// on open and by Verify, with an error that names the first bad record, instead of being
// silently trusted — and recomputing the chain needs the key. What a chain cannot see (its end
// cut off, an older copy, a new journal in its place) the table server's anchor shows: see
// seal.go, Head and CheckAnchor.
//
// Money movements that span several steps (a note escrowed, stacked, credited; a cash-out
// ticket issued, printed) are flows: each record may move its flow to a new state, and
// Pending lists the flows not yet finished — what start-up recovery must complete or reverse.
package journal

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"modernc.org/sqlite" // and database/sql driver "sqlite"
)

// Record is one journal entry. Amount is in cents; Body is the caller's JSON (or any bytes).
type Record struct {
	Seq    int64 // assigned by Append, from 1
	At     time.Time
	Kind   string // e.g. "note-stacked", "credit-acked", "slip-acked", "settled"
	Key    string // the idempotency key / flow id; "" for records outside a flow
	Round  string
	Amount int64
	Body   []byte
	Flow   FlowState // the state this record moves Key's flow to; "" leaves it as it was
	Hash   [32]byte  // the chain value: the record's MAC (its SHA-256 before the seal)
}

// FlowState is the state of a multi-step money movement. Done and Reversed close a flow.
type FlowState string

const (
	// Done closes a flow that completed.
	Done FlowState = "done"
	// Reversed closes a flow that was undone (a note returned, a ticket given back).
	Reversed FlowState = "reversed"
)

// Flow is an unfinished money movement.
type Flow struct {
	Key     string
	Kind    string // the kind of the record that opened it
	State   FlowState
	Amount  int64
	Opened  int64 // seq of the record that opened it
	Updated int64 // seq of the record that last moved it
}

// ErrCorrupt is wrapped by every error about a record that fails its hash chain.
var ErrCorrupt = errors.New("journal corrupt")

// ErrInUse is wrapped by Open's error when another Journal — in another process, or this one —
// has the file open for writing. The chain head lives in the writer's memory, so a second
// writer would fork the chain; a technician reads a running terminal's journal with
// OpenReadOnly instead.
var ErrInUse = errors.New("journal in use by another process: stop the terminal first")

// ErrReadOnly is returned by Append on a journal opened with OpenReadOnly.
var ErrReadOnly = errors.New("journal opened read-only")

// ErrFlowState is wrapped by AppendIf's error when the flow is not in the state the caller
// checked it was in: someone else moved it first.
var ErrFlowState = errors.New("flow not in the expected state")

// Journal is an open journal file. It is safe for concurrent use.
type Journal struct {
	db       *sql.DB
	lock     *os.File // the held lock file; nil when read-only
	readOnly bool
	unlock   sync.Once

	mu   sync.Mutex // serialises Append and Verify, which move the chain head
	last [32]byte
	seq  int64
	now  func() time.Time
	seen func(Record)

	key        []byte // the terminal's journal key (seal.go)
	sealFrom   int64  // the first MAC'd record; 0: an unsealed journal from before the seal
	installKey string // a key file to install once Verify has proved its .new copy
}

// Observe sets a function told of each record once it is on disk — how the crash harness knows
// the moment after each step, to kill the terminal there. It runs under the journal's lock and
// must not call the journal.
func (j *Journal) Observe(fn func(Record)) {
	j.mu.Lock()
	j.seen = fn
	j.mu.Unlock()
}

const schema = `
CREATE TABLE IF NOT EXISTS records (
	seq    INTEGER PRIMARY KEY,
	at     INTEGER NOT NULL,
	kind   TEXT    NOT NULL,
	key    TEXT    NOT NULL,
	round  TEXT    NOT NULL,
	amount INTEGER NOT NULL,
	body   BLOB    NOT NULL,
	flow   TEXT    NOT NULL,
	hash   BLOB    NOT NULL
);
CREATE TABLE IF NOT EXISTS flows (
	key     TEXT PRIMARY KEY,
	kind    TEXT    NOT NULL,
	state   TEXT    NOT NULL,
	amount  INTEGER NOT NULL,
	opened  INTEGER NOT NULL,
	updated INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS records_kind ON records(kind, seq);
CREATE INDEX IF NOT EXISTS flows_open ON flows(state) WHERE state NOT IN ('done', 'reversed');
`

// Options are Open's settings.
type Options struct {
	Now func() time.Time // stamps new records; nil means time.Now
	Key string           // the key file; "" means KeyPath(path), beside the journal
}

// Open opens the journal at path with its key beside it (KeyPath): OpenWith with Options{Now: now}.
func Open(path string, now func() time.Time) (*Journal, error) {
	return OpenWith(path, Options{Now: now})
}

// OpenWith opens (creating if needed) the journal at path for writing and verifies its whole
// sealed chain. A journal with no key file is being provisioned: the key is created (0600);
// a journal written before the seal is sealed from its next record on (seal.go).
//
// Only one writer at a time: Open holds an exclusive lock on path+".lock" until Close, and
// fails with ErrInUse while another holds it. The lock is flock(2)'s, so the kernel drops it
// when the holder dies however it dies (a SIGKILL, a power cut): it never needs clearing by
// hand, and the file is left in place (removing it could let two writers lock two files).
func OpenWith(path string, o Options) (*Journal, error) {
	now := o.Now
	if now == nil {
		now = time.Now
	}
	keyPath := o.Key
	if keyPath == "" {
		keyPath = KeyPath(path)
	}
	// The lock comes before SQLite touches the file: the schema and the WAL recovery write.
	lock, err := lockFile(path)
	if err != nil {
		return nil, err
	}
	// One connection: SQLite serialises writers anyway, and a single connection keeps the
	// in-memory chain head consistent with the file without cross-connection races.
	dsn := "file:" + path + "?_pragma=journal_mode(WAL)&_pragma=synchronous(FULL)&_pragma=busy_timeout(5000)&_txlock=immediate"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		lock.Close()
		return nil, fmt.Errorf("journal: open %s: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	j := &Journal{db: db, lock: lock, now: now}
	if _, err := db.Exec(schema + sealSchema); err != nil {
		j.Close()
		return nil, fmt.Errorf("journal: %s: schema: %w", path, damaged(err))
	}
	if err := j.provision(context.Background(), path, keyPath); err != nil {
		j.Close()
		return nil, err
	}
	if err := j.Verify(context.Background()); err != nil {
		j.Close()
		return nil, err
	}
	if j.installKey != "" {
		if err := installKey(j.installKey); err != nil {
			j.Close()
			return nil, err
		}
		j.installKey = ""
	}
	return j, nil
}

// OpenReadOnly opens an existing journal for reading with its key beside it (KeyPath).
func OpenReadOnly(path string) (*Journal, error) { return OpenReadOnlyWith(path, "") }

// OpenReadOnlyWith opens an existing journal for reading, without the writer's lock, so a
// technician can read (and verify) the journal of a terminal that is running; it verifies the
// whole chain like Open, with the key file keyPath ("": beside the journal), which a sealed
// journal needs. Append on it returns ErrReadOnly, and SQLite itself refuses writes
// (mode=ro). WAL mode gives each query a consistent snapshot while the terminal appends.
func OpenReadOnlyWith(path, keyPath string) (*Journal, error) {
	if keyPath == "" {
		keyPath = KeyPath(path)
	}
	// No journal_mode: setting it is a write. The file is in WAL mode already, written so by
	// Open; mode=ro also refuses to create a missing file.
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro&_pragma=busy_timeout(5000)")
	if err != nil {
		return nil, fmt.Errorf("journal: open %s: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	j := &Journal{db: db, readOnly: true, now: time.Now}
	if j.key, _, err = readKey(keyPath); err != nil {
		db.Close()
		return nil, err
	}
	if j.key == nil {
		// A key left .new by a provisioning that crashed before installing it.
		if j.key, _, err = readKey(keyPath + ".new"); err != nil {
			db.Close()
			return nil, err
		}
	}
	if err := j.Verify(context.Background()); err != nil {
		db.Close()
		return nil, err
	}
	return j, nil
}

// Close closes the file and then releases the writer's lock (after the last write, the
// checkpoint SQLite makes on close included). Closing twice is harmless.
func (j *Journal) Close() error {
	err := j.db.Close()
	j.unlock.Do(func() {
		if j.lock != nil {
			if e := j.lock.Close(); err == nil {
				err = e
			}
		}
	})
	return err
}

// hashOf computes a record's chain hash from the previous hash and its content. Every field is
// length-prefixed so no two different records can encode to the same bytes.
// Only records from before the seal (an old journal's) are chained this way now.
func hashOf(prev [32]byte, r *Record) [32]byte {
	h := sha256.New()
	h.Write(prev[:])
	writeRecord(h, r)
	var out [32]byte
	h.Sum(out[:0])
	return out
}

// Append writes r durably (fsync) and returns it with Seq, At and Hash set. If r.Flow is set,
// r.Key's flow moves to that state in the same transaction; the first record of a key opens it.
// Moving a closed flow is an error: a flow that finished cannot be finished again, which is
// what stops a retried step from paying twice.
func (j *Journal) Append(ctx context.Context, r Record) (Record, error) {
	return j.append(ctx, r, "", nil)
}

// AppendIf is Append only if r.Key's flow is in state from now, checked in the same
// transaction as the write: a decision taken on the flow's state (an attendant's) cannot act on
// a state another writer has just changed. Otherwise it fails with ErrFlowState.
func (j *Journal) AppendIf(ctx context.Context, r Record, from FlowState) (Record, error) {
	if from == "" || r.Key == "" {
		return Record{}, fmt.Errorf("journal: %s: AppendIf needs a key and a state to move from", r.Kind)
	}
	return j.append(ctx, r, from, nil)
}

// append writes r; also, if set, runs in the same transaction (the seal's mark).
func (j *Journal) append(ctx context.Context, r Record, from FlowState, also func(*sql.Tx) error) (Record, error) {
	if j.readOnly {
		return Record{}, fmt.Errorf("journal: %s: %w", r.Kind, ErrReadOnly)
	}
	if r.Kind == "" {
		return Record{}, errors.New("journal: record without a kind")
	}
	if r.Flow != "" && r.Key == "" {
		return Record{}, fmt.Errorf("journal: %s: a flow state needs a key", r.Kind)
	}
	if r.Body == nil {
		r.Body = []byte{}
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	tx, err := j.db.BeginTx(ctx, nil)
	if err != nil {
		return Record{}, fmt.Errorf("journal: begin: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // after Commit this is a no-op

	if r.Flow != "" || from != "" {
		var state string
		err := tx.QueryRowContext(ctx, `SELECT state FROM flows WHERE key = ?`, r.Key).Scan(&state)
		switch {
		case errors.Is(err, sql.ErrNoRows) && from != "":
			return Record{}, fmt.Errorf("journal: no flow %s: %w (want %s); %s refused", r.Key, ErrFlowState, from, r.Kind)
		case errors.Is(err, sql.ErrNoRows):
		case err != nil:
			return Record{}, fmt.Errorf("journal: flow %s: %w", r.Key, err)
		case from != "" && FlowState(state) != from:
			return Record{}, fmt.Errorf("journal: flow %s is %s: %w (want %s); %s refused", r.Key, state, ErrFlowState, from, r.Kind)
		case r.Flow != "" && (FlowState(state) == Done || FlowState(state) == Reversed):
			return Record{}, fmt.Errorf("journal: flow %s is already %s; %s refused", r.Key, state, r.Kind)
		}
	}

	r.Seq = j.seq + 1
	r.At = j.now().UTC()
	if j.sealFrom == 0 || j.key == nil {
		// Open seals every journal before it appends; this only guards the invariant.
		return Record{}, fmt.Errorf("journal: %s: the journal is not sealed", r.Kind)
	}
	r.Hash = j.chainOf(j.last, &r)
	if _, err := tx.ExecContext(ctx,
		`INSERT INTO records(seq, at, kind, key, round, amount, body, flow, hash) VALUES (?,?,?,?,?,?,?,?,?)`,
		r.Seq, r.At.UnixNano(), r.Kind, r.Key, r.Round, r.Amount, r.Body, string(r.Flow), r.Hash[:]); err != nil {
		return Record{}, fmt.Errorf("journal: append %s: %w", r.Kind, err)
	}
	if r.Flow != "" {
		if _, err := tx.ExecContext(ctx, `
			INSERT INTO flows(key, kind, state, amount, opened, updated) VALUES (?,?,?,?,?,?)
			ON CONFLICT(key) DO UPDATE SET state = excluded.state, updated = excluded.updated`,
			r.Key, r.Kind, string(r.Flow), r.Amount, r.Seq, r.Seq); err != nil {
			return Record{}, fmt.Errorf("journal: flow %s: %w", r.Key, err)
		}
	}
	if also != nil {
		if err := also(tx); err != nil {
			return Record{}, fmt.Errorf("journal: append %s: %w", r.Kind, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return Record{}, fmt.Errorf("journal: commit %s: %w", r.Kind, err)
	}
	j.seq, j.last = r.Seq, r.Hash
	if j.seen != nil {
		j.seen(r)
	}
	return r, nil
}

// Pending returns the flows that are neither done nor reversed, oldest first.
func (j *Journal) Pending(ctx context.Context) ([]Flow, error) {
	rows, err := j.db.QueryContext(ctx, `
		SELECT key, kind, state, amount, opened, updated FROM flows
		WHERE state NOT IN ('done', 'reversed') ORDER BY opened`)
	if err != nil {
		return nil, fmt.Errorf("journal: pending: %w", err)
	}
	defer rows.Close()
	var out []Flow
	for rows.Next() {
		f, err := scanFlow(rows)
		if err != nil {
			return nil, fmt.Errorf("journal: pending: %w", err)
		}
		out = append(out, f)
	}
	return out, rows.Err()
}

// FlowOf returns the flow of key, and false if no record ever opened it.
func (j *Journal) FlowOf(ctx context.Context, key string) (Flow, bool, error) {
	f, err := scanFlow(j.db.QueryRowContext(ctx, `SELECT key, kind, state, amount, opened, updated FROM flows WHERE key = ?`, key))
	if errors.Is(err, sql.ErrNoRows) {
		return Flow{}, false, nil
	}
	if err != nil {
		return Flow{}, false, fmt.Errorf("journal: flow %s: %w", key, err)
	}
	return f, true, nil
}

// NewestFlow is the most recently opened flow whose opening record is of one of the kinds, in
// whatever state it is now.
func (j *Journal) NewestFlow(ctx context.Context, kinds ...string) (Flow, bool, error) {
	if len(kinds) == 0 {
		return Flow{}, false, nil
	}
	q := `SELECT key, kind, state, amount, opened, updated FROM flows WHERE kind IN (?` + strings.Repeat(",?", len(kinds)-1) + `) ORDER BY opened DESC LIMIT 1`
	args := make([]any, len(kinds))
	for i, k := range kinds {
		args[i] = k
	}
	f, err := scanFlow(j.db.QueryRowContext(ctx, q, args...))
	if errors.Is(err, sql.ErrNoRows) {
		return Flow{}, false, nil
	}
	if err != nil {
		return Flow{}, false, fmt.Errorf("journal: newest flow: %w", err)
	}
	return f, true, nil
}

// Records returns up to limit records with seq > after, in order (limit <= 0: all), checking
// each against the chain as it goes.
func (j *Journal) Records(ctx context.Context, after int64, limit int) ([]Record, error) {
	var out []Record
	err := j.scan(ctx, j.db, after, limit, func(r Record) error { out = append(out, r); return nil })
	return out, err
}

// Last returns the most recent records of one kind, newest first.
func (j *Journal) Last(ctx context.Context, kind string, n int) ([]Record, error) {
	rows, err := j.db.QueryContext(ctx,
		`SELECT seq, at, kind, key, round, amount, body, flow, hash FROM records WHERE kind = ? ORDER BY seq DESC LIMIT ?`, kind, n)
	if err != nil {
		return nil, fmt.Errorf("journal: last %s: %w", kind, err)
	}
	defer rows.Close()
	var out []Record
	for rows.Next() {
		r, err := scanRecord(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

type scanner interface{ Scan(dest ...any) error }

// querier is the database or one transaction on it.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

func scanRecord(s scanner) (Record, error) {
	var v [9]any
	if err := s.Scan(&v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8]); err != nil {
		return Record{}, fmt.Errorf("journal: read record: %w", err) // *any takes every value
	}
	var r Record
	var at int64
	var flow string
	var hash []byte
	var bad []string
	ints := map[int]*int64{0: &r.Seq, 1: &at, 5: &r.Amount}
	texts := map[int]*string{2: &r.Kind, 3: &r.Key, 4: &r.Round, 7: &flow}
	blobs := map[int]*[]byte{6: &r.Body, 8: &hash}
	names := [9]string{"seq", "at", "kind", "key", "round", "amount", "body", "flow", "hash"}
	for i, x := range v {
		ok := false
		switch {
		case ints[i] != nil:
			var n int64
			if n, ok = x.(int64); ok {
				*ints[i] = n
			}
		case texts[i] != nil:
			var t string
			if t, ok = x.(string); ok {
				*texts[i] = t
			}
		default:
			var b []byte
			if b, ok = x.([]byte); ok {
				*blobs[i] = bytes.Clone(b)
			}
		}
		if !ok {
			bad = append(bad, fmt.Sprintf("%s holds %T", names[i], x))
		}
	}
	if len(bad) > 0 {
		// Append writes each column with one type; a value of another — only damage to the file
		// puts it there — would read back as the same content yet not be found by the queries
		// that select on it (a BLOB 'credited' is not the TEXT 'credited').
		return Record{}, fmt.Errorf("journal: record %d: %w: %s", r.Seq, ErrCorrupt, strings.Join(bad, ", "))
	}
	if len(hash) != len(r.Hash) {
		return Record{}, fmt.Errorf("journal: record %d: %w: hash is %d bytes", r.Seq, ErrCorrupt, len(hash))
	}
	r.At = time.Unix(0, at).UTC()
	r.Flow = FlowState(flow)
	copy(r.Hash[:], hash)
	return r, nil
}

// scanFlow reads a row of the flow table. Each value is checked for the type Append writes
// rather than left to database/sql's conversions, so a value of another type — which only
// damage to the file can put there — is ErrCorrupt, not a conversion error or a silent
// reinterpretation (a REAL amount rounded, a BLOB 'done' that the query for open flows,
// comparing with the TEXT 'done', takes for open).
func scanFlow(s scanner) (Flow, error) {
	var v [6]any
	if err := s.Scan(&v[0], &v[1], &v[2], &v[3], &v[4], &v[5]); err != nil {
		return Flow{}, err // no row, or the query failed: *any takes every value
	}
	names := [6]string{"key", "kind", "state", "amount", "opened", "updated"}
	var text [3]string
	for i := range 3 {
		x, ok := v[i].(string)
		if !ok {
			return Flow{}, fmt.Errorf("flow row: %w: %s holds %T", ErrCorrupt, names[i], v[i])
		}
		text[i] = x
	}
	var ints [3]int64
	for i := range 3 {
		x, ok := v[3+i].(int64)
		if !ok {
			return Flow{}, fmt.Errorf("flow %s: %w: %s holds %T", text[0], ErrCorrupt, names[3+i], v[3+i])
		}
		ints[i] = x
	}
	return Flow{Key: text[0], Kind: text[1], State: FlowState(text[2]), Amount: ints[0], Opened: ints[1], Updated: ints[2]}, nil
}

// scan walks the records after seq `after`, recomputing the chain from the start so a record
// is only handed out once everything before it has been checked.
func (j *Journal) scan(ctx context.Context, q querier, after int64, limit int, fn func(Record) error) error {
	rows, err := q.QueryContext(ctx,
		`SELECT seq, at, kind, key, round, amount, body, flow, hash FROM records ORDER BY seq`)
	if err != nil {
		return fmt.Errorf("journal: read: %w", damaged(err))
	}
	defer rows.Close()
	var prev [32]byte
	want := int64(1)
	n := 0
	for rows.Next() {
		r, err := scanRecord(rows)
		if err != nil {
			return err
		}
		if r.Seq != want {
			return fmt.Errorf("journal: record %d: %w: expected record %d (records missing or reordered)", r.Seq, ErrCorrupt, want)
		}
		if j.sealFrom > 0 && r.Seq >= j.sealFrom && j.key == nil {
			return fmt.Errorf("journal: record %d: sealed, and its %w file is missing", r.Seq, ErrKey)
		}
		if r.Seq == j.sealFrom && r.Seq > 1 && r.Kind != KindSealed {
			// The mark that the MAC chain starts here: only the migration's own record may be
			// there, so moving the mark down the chain cannot unseal records.
			return fmt.Errorf("journal: record %d (%s): %w: the seal says the MAC chain starts here, but this is not the %s record", r.Seq, r.Kind, ErrCorrupt, KindSealed)
		}
		if got := j.chainOf(prev, &r); !hmac.Equal(got[:], r.Hash[:]) {
			what := "its hash (SHA-256, before the seal)"
			if j.sealFrom > 0 && r.Seq >= j.sealFrom {
				what = "its MAC: changed or forged without this terminal's key"
			}
			return fmt.Errorf("journal: record %d (%s): %w: content does not match %s", r.Seq, r.Kind, ErrCorrupt, what)
		}
		prev = r.Hash
		want++
		if r.Seq <= after {
			continue
		}
		if limit > 0 && n >= limit {
			break
		}
		if err := fn(r); err != nil {
			return err
		}
		n++
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("journal: read: %w", damaged(err))
	}
	return nil
}

// damaged makes SQLite's own finding that the file is damaged (SQLITE_CORRUPT and its
// extended codes, SQLITE_NOTADB) an ErrCorrupt, like a record that fails the chain: either
// way the journal cannot be trusted and an attendant must be called.
func damaged(err error) error {
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() & 0xff {
		case 11, 26: // SQLITE_CORRUPT, SQLITE_NOTADB
			return fmt.Errorf("%w: %w", ErrCorrupt, err)
		}
	}
	return err
}

// Verify checks the whole chain and that the flow table agrees with the records, and sets the
// chain head for the next Append.
func (j *Journal) Verify(ctx context.Context) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	// One read transaction: the records and the flow table from the same snapshot, though the
	// terminal appends to a journal opened read-only as it is verified.
	tx, err := j.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return fmt.Errorf("journal: verify: %w", damaged(err))
	}
	defer tx.Rollback() //nolint:errcheck // read only: nothing to keep
	from, err := readSeal(ctx, tx)
	if err != nil {
		return err
	}
	if j.sealFrom != 0 && from != j.sealFrom {
		return fmt.Errorf("journal: %w: the seal moved from record %d to %d", ErrCorrupt, j.sealFrom, from)
	}
	j.sealFrom = from
	var last Record
	flows := map[string]Flow{}
	err = j.scan(ctx, tx, 0, 0, func(r Record) error {
		last = r
		if r.Flow != "" {
			f, ok := flows[r.Key]
			if !ok {
				f = Flow{Key: r.Key, Kind: r.Kind, Amount: r.Amount, Opened: r.Seq}
			}
			f.State, f.Updated = r.Flow, r.Seq
			flows[r.Key] = f
		}
		return nil
	})
	if err != nil {
		return err
	}
	rows, err := tx.QueryContext(ctx, `SELECT key, kind, state, amount, opened, updated FROM flows`)
	if err != nil {
		return fmt.Errorf("journal: verify flows: %w", damaged(err))
	}
	defer rows.Close()
	stored := 0
	for rows.Next() {
		f, err := scanFlow(rows)
		if err != nil {
			return fmt.Errorf("journal: verify flows: %w", damaged(err))
		}
		if flows[f.Key] != f {
			return fmt.Errorf("journal: flow %s: %w: table says %+v, records say %+v", f.Key, ErrCorrupt, f, flows[f.Key])
		}
		stored++
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("journal: verify flows: %w", damaged(err))
	}
	if stored != len(flows) {
		return fmt.Errorf("journal: %w: %d flows in the records, %d in the flow table", ErrCorrupt, len(flows), stored)
	}
	j.seq, j.last = last.Seq, last.Hash
	return nil
}
