package ledger

// The seal: tamper evidence for the ledger file. Whoever can write the SQLite file could raise a
// balance, and the conservation identity would not see it if the meters were raised to match.
// So every row of every ledger table carries a MAC — HMAC-SHA256 under the server's ledger
// key, over the table, the row's primary key and every column by name, type and value — kept
// in seal_rows, and seal_head carries a MAC over the number of sealed rows and the XOR of all
// their MACs. A row edited, inserted or deleted without the key fails its own MAC or its
// absence; a row put back to an older version with its older (valid) MAC fails the head. Open
// verifies everything before the server uses the ledger (ErrTampered, naming the first bad
// row), and Verify lets `tableserver verify` do the same on a stopped server.
//
// The key is a file (by default the ledger's path + ".key", 0600, in the server's data
// directory), never in the database. Writers need not know any of this: triggers note every
// row a transaction touches (seal_dirty), and Update seals them before it commits, in the
// same transaction — so a table added later (by a migration) is sealed too.
//
// While the server runs, nothing it seals may cover a change it did not make. A change made
// behind its back with the triggers in place leaves a note no transaction of the server's made
// (outsideWrites refuses it). An editor who drops the triggers first (their SQL is in the
// catalogue), edits a row and recreates them — or deletes the notes after — leaves none; so
// before a row's new seal replaces its old one, the row as last committed, read on a second
// connection (its pre-image: sealpreimage.go), must match that old seal, and a committed row
// needs a seal and a seal a committed row. Otherwise the transaction is refused (ErrTampered,
// naming the row), nothing of it committed, and the edit stays for `tableserver verify`. Without
// it the server's next write to the edited row sealed the edit with its own change, and the
// ledger verified clean.
//
// What a MAC cannot show: the whole file (or its last transactions, head included) put back
// to an older copy is a valid, older ledger. The terminals' journals show that: each holds the
// money it was told of. A single row put back with its own older seal passes the pre-image
// check (it matches that seal), but not the head, which the server moves from what it held: it
// is found by the next verification, whether or not the server wrote the row since. And an
// edited row the server only reads, never writes, is found by the next verification, not at
// the read: rows are checked against their seals as they are sealed over, not as they are read.
//
// On PostgreSQL (store.go) there is a seal per schema: the table's own rows under its key, the
// floor's rows (tickets, cage_*, floor_*) under the floor's key, which every table server of the
// floor holds. PL/pgSQL statement triggers note each row a statement wrote, from its transition
// tables, by its primary key (there is no rowid) and the transaction that wrote it; the floor's head, which every table server moves, is locked FOR
// UPDATE while a transaction seals, so they seal one after another over what the last committed.
// Open verifies both schemas in one repeatable-read snapshot.
//
// Never sealed as found (issue 34, finding 3): a ledger with rows and no seal head — its seal
// stripped, with or without its key file, to have edited rows sealed as the server's own, or a
// ledger from before the seal — is refused at start (ErrUnsealed), naming what is missing. Only
// a new, empty ledger is sealed on its first Open. If an operator must trust a ledger as it
// stands, Reseal (`tableserver reseal -by WHO -why TEXT`) seals it, under its key or a new one,
// and leaves a permanent mark: a ledger_reseals row (sealed with the rest, so it cannot be
// taken out without the key), a ledger-resealed event and an alarm for the console. A ledger
// without a seal_head whose key already exists (an unsealed copy put in place of a sealed one)
// is refused as tampered.

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"io/fs"
	"math"
	"os"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/tablegames/ats/internal/keyfile"
)

// ErrTampered is wrapped by every error about a ledger that fails its seal.
var ErrTampered = errors.New("ledger tampered with")

// ErrUnsealed is wrapped by the refusal of a ledger that holds rows but no seal: it is never
// sealed as found, only by the operator's Reseal.
var ErrUnsealed = errors.New("ledger not sealed")

// ErrKey is wrapped by errors about the ledger key file.
var ErrKey = errors.New("ledger key")

const sealSchema = `
CREATE TABLE IF NOT EXISTS seal_rows (
	tbl TEXT NOT NULL,
	pk  TEXT NOT NULL,
	mac BLOB NOT NULL,
	PRIMARY KEY (tbl, pk)
);
CREATE TABLE IF NOT EXISTS seal_head (
	id    INTEGER PRIMARY KEY CHECK (id = 1),
	rows  INTEGER NOT NULL,
	agg   BLOB NOT NULL,
	mac   BLOB NOT NULL,
	since INTEGER NOT NULL,
	n     INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS seal_dirty (
	tbl TEXT NOT NULL,
	pk  TEXT NOT NULL,
	rid INTEGER NOT NULL
);
`

// KeyPath is where the key of the ledger at path is kept unless the caller says otherwise.
func KeyPath(ledger string) string { return ledger + ".key" }

// scope is a set of sealed tables under one key, with its own seal_rows, seal_head and
// seal_dirty. SQLite has one, the file. PostgreSQL has two: the table server's schema, under
// its key, and the floor's schema (tickets, cage_*, floor_*), under the floor's key, which
// every table server of the floor holds, as each writes the floor's rows.
type scope struct {
	schema  string // PostgreSQL schema; "" on SQLite
	keyPath string
	key     []byte
	floor   bool
	// reseal is the operator's order to seal this scope as it stands (Reseal); nil at a start.
	reseal *resealOrder
}

// t is a seal table's name in this scope.
func (sc *scope) t(name string) string {
	if sc.schema == "" {
		return name
	}
	return sc.schema + "." + name
}

func (sc *scope) String() string {
	if sc.schema == "" {
		return "ledger"
	}
	return "schema " + sc.schema
}

// sealed is a table under the seal: its name, the SQL expression of its primary key as text,
// and on PostgreSQL its primary key's columns and their types (dirty rows are found by them).
type sealed struct {
	name  string
	pk    string // over the bare column names: quote(a)||','||quote(b)
	cols  []string
	types []string
	scope *scope
	// keyCols: on SQLite, the primary key's columns (none: the key is the rowid).
	keyCols []string
}

// from is the table's name to select from.
func (st sealed) from() string {
	if st.scope.schema == "" {
		return quoteIdent(st.name)
	}
	return quoteIdent(st.scope.schema) + "." + quoteIdent(st.name)
}

// sealer holds the keys and the sealed tables of an open ledger.
type sealer struct {
	d      dialect
	scopes []*scope // on PostgreSQL: the table's, then the floor's (the order rows are sealed in)
	tables []sealed
	byName map[string]sealed
}

func (s *sealer) setTables(tables []sealed) {
	s.tables = tables
	s.byName = map[string]sealed{}
	for _, t := range tables {
		s.byName[t.name] = t
	}
}

type querier interface {
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
}

func readKey(path string) ([]byte, bool, error) {
	key, ok, err := keyfile.Read(path)
	if err != nil {
		return nil, false, fmt.Errorf("ledger: %w %s: %w", ErrKey, path, err)
	}
	return key, ok, nil
}

// writeKey makes a key and writes it durably to path+".new"; installKey renames it into place
// once the ledger is sealed with it, so a crash between leaves either no key and no seal, or
// the .new key that the next Open installs.
func writeKey(path string) ([]byte, error) {
	key, err := keyfile.Create(path)
	if err != nil {
		return nil, fmt.Errorf("ledger: %w %s: %w", ErrKey, path, err)
	}
	return key, nil
}

func installKey(path string) error {
	if err := keyfile.Install(path); err != nil {
		return fmt.Errorf("ledger: %w %s: %w", ErrKey, path, err)
	}
	return nil
}

func names(ctx context.Context, q querier, query string, args ...any) ([]string, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, rows.Err()
}

// sealedTables lists the tables under the seal — every table but the seal's own and the
// database's — in every scope.
func (s *sealer) sealedTables(ctx context.Context, db *sql.DB) ([]sealed, error) {
	if s.d == dialectPostgres {
		return s.pgSealedTables(ctx, db)
	}
	tables, err := names(ctx, db, `SELECT name FROM sqlite_master WHERE type = 'table'
		AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'seal_%' ORDER BY name`)
	if err != nil {
		return nil, err
	}
	var out []sealed
	for _, n := range tables {
		cols, err := db.QueryContext(ctx, `SELECT name, pk, upper(type) FROM pragma_table_info(?) ORDER BY pk`, n)
		if err != nil {
			return nil, err
		}
		var pks []string
		alias := false
		for cols.Next() {
			var c, typ string
			var pk int
			if err := cols.Scan(&c, &pk, &typ); err != nil {
				cols.Close()
				return nil, err
			}
			if pk > 0 {
				pks = append(pks, c)
				alias = typ == "INTEGER"
			}
		}
		cols.Close()
		st := sealed{name: n, scope: s.scopes[0], keyCols: pks}
		if alias && len(pks) == 1 {
			// An INTEGER PRIMARY KEY is the rowid: an UPDATE that sets rowid changes the key
			// without naming its column, so the row before an update is told by comparing.
			st.keyCols = nil
		}
		if len(pks) == 0 {
			st.pk = "quote(rowid)"
		} else {
			parts := make([]string, len(pks))
			for i, c := range pks {
				parts[i] = "quote(" + quoteIdent(c) + ")"
			}
			st.pk = strings.Join(parts, "||','||")
		}
		out = append(out, st)
	}
	return out, nil
}

// pgSealedTables: PostgreSQL has no rowid, so every sealed table must have a primary key;
// its key as text is quote_literal of each column.
func (s *sealer) pgSealedTables(ctx context.Context, db *sql.DB) ([]sealed, error) {
	var out []sealed
	for _, sc := range s.scopes {
		tables, err := names(ctx, db, `SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
			WHERE n.nspname = ? AND c.relkind IN ('r', 'p') AND c.relname NOT LIKE 'seal\_%' ORDER BY c.relname`, sc.schema)
		if err != nil {
			return nil, err
		}
		for _, n := range tables {
			rows, err := db.QueryContext(ctx, `SELECT a.attname, format_type(a.atttypid, a.atttypmod)
				FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
				WHERE i.indrelid = (quote_ident(?) || '.' || quote_ident(?))::regclass AND i.indisprimary
				ORDER BY array_position(i.indkey::int2[], a.attnum)`, sc.schema, n)
			if err != nil {
				return nil, err
			}
			st := sealed{name: n, scope: sc}
			for rows.Next() {
				var c, typ string
				if err := rows.Scan(&c, &typ); err != nil {
					rows.Close()
					return nil, err
				}
				st.cols, st.types = append(st.cols, c), append(st.types, typ)
			}
			err = rows.Err()
			rows.Close()
			if err != nil {
				return nil, err
			}
			if len(st.cols) == 0 {
				return nil, fmt.Errorf("ledger: table %s.%s has no primary key: it cannot be sealed", sc.schema, n)
			}
			st.pk = st.pkExpr("")
			out = append(out, st)
		}
	}
	return out, nil
}

// pkExpr is, on PostgreSQL, the text of a row's primary key (of row "NEW" or "OLD" in a
// trigger, or "" for the bare columns), and pkValues its columns' values as a JSON array of
// text, by which seal finds the row again.
func (st sealed) pkExpr(row string) string {
	parts := make([]string, len(st.cols))
	for i, c := range st.cols {
		parts[i] = "quote_literal(" + qualify(row, c) + "::text)"
	}
	return strings.Join(parts, "||','||")
}

func (st sealed) pkValues(row string) string {
	parts := make([]string, len(st.cols))
	for i, c := range st.cols {
		parts[i] = qualify(row, c) + "::text"
	}
	return "array_to_json(ARRAY[" + strings.Join(parts, ", ") + "])::text"
}

func qualify(row, col string) string {
	if row == "" {
		return quoteIdent(col)
	}
	return row + "." + quoteIdent(col)
}

func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

func quoteString(s string) string { return `'` + strings.ReplaceAll(s, `'`, `''`) + `'` }

// triggers are recreated on every Open, so none an editor left can stand in for ours. seal_dirty
// has no unique key — a trigger's OR IGNORE gives way to an upsert's own conflict clause — so
// seal takes each row once however often it was noted.
func (s *sealer) createTriggers(ctx context.Context, db *sql.DB) error {
	if s.d == dialectPostgres {
		return s.pgCreateTriggers(ctx, db)
	}
	for _, st := range s.tables {
		for _, ev := range []struct{ when, rows string }{{"INSERT", "NEW"}, {"UPDATE", "NEW"}, {"UPDATE", "OLD"}, {"DELETE", "OLD"}} {
			name := quoteIdent("seal_" + st.name + "_" + strings.ToLower(ev.when) + "_" + strings.ToLower(ev.rows))
			pk := strings.ReplaceAll(st.pk, "quote(", "quote("+ev.rows+".")
			when, of := "", ""
			if ev.when == "UPDATE" && ev.rows == "OLD" {
				// The row before an update is noted only when its key may have changed: otherwise
				// its note is the new row's key, which seal takes once anyway (a row whose rowid
				// alone moved is found by the new note's rowid, under the same key). A table with
				// a primary key has its trigger fire only for an UPDATE that sets a key column
				// (UPDATE OF): a settlement updates 1,000 accounts' balances in place, and a WHEN
				// clause, which quoted the key twice a row, was evaluated for each of them.
				if len(st.keyCols) > 0 {
					cols := make([]string, len(st.keyCols))
					for i, c := range st.keyCols {
						cols[i] = quoteIdent(c)
					}
					of = " OF " + strings.Join(cols, ", ")
				} else {
					when = fmt.Sprintf(" WHEN (%s) IS NOT (%s) OR OLD.rowid IS NOT NEW.rowid", pk, strings.ReplaceAll(st.pk, "quote(", "quote(NEW."))
				}
			}
			q := fmt.Sprintf(`DROP TRIGGER IF EXISTS %s; CREATE TRIGGER %s AFTER %s%s ON %s%s BEGIN
				INSERT INTO seal_dirty(tbl, pk, rid) VALUES (%s, %s, %s.rowid); END;`,
				name, name, ev.when, of, quoteIdent(st.name), when, quoteString(st.name), pk, ev.rows)
			if _, err := db.ExecContext(ctx, q); err != nil {
				return fmt.Errorf("seal trigger on %s: %w", st.name, err)
			}
		}
	}
	return nil
}

// pgCreateTriggers: one PL/pgSQL function per table and three statement triggers (insert,
// update, delete), noting the key of every row before and after each change, and the
// transaction. The floor's servers open at any time and replacing a function concurrently
// fails, so they take the schema lock to do it.
//
// The triggers are statement triggers over the statement's transition tables (every row it
// inserted, updated or deleted, as PostgreSQL hands them to AFTER ... FOR EACH STATEMENT): one
// INSERT ... SELECT a statement. They were row triggers, a PL/pgSQL call and an INSERT a row —
// 3,000 a settlement of 1,000 terminals, most of its time in the database. The rows noted are
// the same: any statement that writes a sealed table, the server's or psql's, fires them (an
// upsert fires the insert and the update trigger, each with its own rows), and what they note
// and how seal reads it has not changed, but for an update's rows noted once per key, not once
// before and once after. The row trigger of an older server is dropped; one that an older
// server puts back only notes rows twice, which seal takes once.
func (s *sealer) pgCreateTriggers(ctx context.Context, db *sql.DB) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback() //nolint:errcheck // no-op after Commit
	if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(hashtext('ats-ledger-schema'))`); err != nil {
		return err
	}
	for _, st := range s.tables {
		fn := quoteIdent(st.scope.schema) + "." + quoteIdent("seal_note_"+st.name)
		dirty := quoteIdent(st.scope.schema) + ".seal_dirty"
		q := fmt.Sprintf(`CREATE OR REPLACE FUNCTION %[1]s() RETURNS trigger LANGUAGE plpgsql AS $seal$
BEGIN
	IF TG_OP = 'UPDATE' THEN
		-- each key once: a row updated in place is the same key before and after
		INSERT INTO %[2]s(tbl, pk, pkv) SELECT %[3]s, u.pk, u.pkv FROM (
			SELECT %[4]s AS pk, %[5]s AS pkv FROM seal_old AS seal_o
			UNION SELECT %[6]s, %[7]s FROM seal_new AS seal_n) AS u;
	ELSIF TG_OP = 'INSERT' THEN
		INSERT INTO %[2]s(tbl, pk, pkv) SELECT %[3]s, %[6]s, %[7]s FROM seal_new AS seal_n;
	ELSE
		INSERT INTO %[2]s(tbl, pk, pkv) SELECT %[3]s, %[4]s, %[5]s FROM seal_old AS seal_o;
	END IF;
	RETURN NULL;
END $seal$;
DROP TRIGGER IF EXISTS seal_note ON %[8]s;
CREATE OR REPLACE TRIGGER seal_note_insert AFTER INSERT ON %[8]s REFERENCING NEW TABLE AS seal_new
	FOR EACH STATEMENT EXECUTE FUNCTION %[1]s();
CREATE OR REPLACE TRIGGER seal_note_update AFTER UPDATE ON %[8]s REFERENCING OLD TABLE AS seal_old NEW TABLE AS seal_new
	FOR EACH STATEMENT EXECUTE FUNCTION %[1]s();
CREATE OR REPLACE TRIGGER seal_note_delete AFTER DELETE ON %[8]s REFERENCING OLD TABLE AS seal_old
	FOR EACH STATEMENT EXECUTE FUNCTION %[1]s();`,
			fn, dirty, quoteString(st.name), st.pkExpr("seal_o"), st.pkValues("seal_o"), st.pkExpr("seal_n"), st.pkValues("seal_n"), st.from())
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("seal trigger on %s: %w", st.name, err)
		}
	}
	return tx.Commit()
}

// rowMAC is a row's seal: the table, its key and every column by name, type and value.
func (sc *scope) rowMAC(table, pk string, cols []string, vals []any) ([]byte, error) {
	return sc.macer().rowMAC(table, pk, cols, vals)
}

// macer computes one scope's row seals one after another with one keyed HMAC, Reset between
// rows: hmac.New hashes the key's two pads again for every row, a third of the work for a
// settlement's 2,000 short rows. Not for use by two goroutines at once.
type macer struct{ h hash.Hash }

func (sc *scope) macer() *macer { return &macer{hmac.New(sha256.New, sc.key)} }

func (m *macer) rowMAC(table, pk string, cols []string, vals []any) ([]byte, error) {
	h := m.h
	h.Reset()
	var n [8]byte
	putInt := func(v int64) { binary.BigEndian.PutUint64(n[:], uint64(v)); h.Write(n[:]) }
	putBytes := func(b []byte) { putInt(int64(len(b))); h.Write(b) }
	h.Write([]byte("ats-ledger-v1"))
	putBytes([]byte(table))
	putBytes([]byte(pk))
	putInt(int64(len(cols)))
	for i, c := range cols {
		putBytes([]byte(c))
		switch v := vals[i].(type) {
		case nil:
			h.Write([]byte{0})
		case int64:
			h.Write([]byte{1})
			putInt(v)
		case float64:
			h.Write([]byte{2})
			putInt(int64(math.Float64bits(v)))
		case string:
			h.Write([]byte{3})
			putBytes([]byte(v))
		case []byte:
			h.Write([]byte{4})
			putBytes(v)
		case bool:
			h.Write([]byte{5})
			if v {
				putInt(1)
			} else {
				putInt(0)
			}
		case time.Time:
			h.Write([]byte{6})
			putInt(v.UnixNano())
		default:
			return nil, fmt.Errorf("ledger: %s %s: column %s holds %T", table, pk, c, v)
		}
	}
	return h.Sum(nil), nil
}

// headMAC is the head's seal: over the commits that sealed rows (commits, which the head
// anchor keeps outside the ledger: sealanchor.go), the number of rows and the XOR of their MACs.
// A head from before the count (commits 0) has the older MAC, without it.
func (sc *scope) headMAC(commits, rows int64, agg []byte) []byte {
	h := hmac.New(sha256.New, sc.key)
	var n [8]byte
	if commits == 0 {
		h.Write([]byte("ats-ledger-head-v1"))
	} else {
		h.Write([]byte("ats-ledger-head-v2"))
		binary.BigEndian.PutUint64(n[:], uint64(commits))
		h.Write(n[:])
	}
	binary.BigEndian.PutUint64(n[:], uint64(rows))
	h.Write(n[:])
	h.Write(agg)
	return h.Sum(nil)
}

func xorInto(dst, b []byte) {
	for i := range dst {
		dst[i] ^= b[i]
	}
}

// dirty is a row a transaction wrote: its table and key, and where to find it now — its rowid
// on SQLite, its key's values (a JSON array of text) on PostgreSQL.
type dirty struct {
	tbl, pk string
	rid     int64
	pkv     string
	// On SQLite: the row's seal as the transaction found it (nil: none), read with the notes
	// in one join.
	old []byte
}

// readRow reads a dirty row as it is now on SQLite, by its rowid: its key text, column names
// and values; ok false when there is none (it was deleted, or its rowid now holds another
// row). PostgreSQL's rows are read a table at a time (pgBatch.readRows).
func (s *sealer) readRow(t *Tx, st sealed, d dirty) (pk string, cols []string, vals []any, ok bool, err error) {
	rows, err := t.query(`SELECT `+st.pk+`, * FROM `+st.from()+` WHERE rowid = ?`, d.rid)
	if err != nil {
		return "", nil, nil, false, err
	}
	defer rows.Close()
	if !rows.Next() {
		return "", nil, nil, false, rows.Err()
	}
	pk, cols, vals, err = scanSealed(rows)
	return pk, cols, vals, err == nil, err
}

func scanSealed(rows *sql.Rows) (string, []string, []any, error) {
	names, err := rows.Columns()
	if err != nil {
		return "", nil, nil, err
	}
	vals := make([]any, len(names))
	ptrs := make([]any, len(names))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	if err := rows.Scan(ptrs...); err != nil {
		return "", nil, nil, err
	}
	pk, _ := vals[0].(string)
	return pk, names[1:], vals[1:], nil
}

// dirtyRows reads the rows the transaction wrote in one scope. On PostgreSQL only its own:
// seal_dirty is shared by the schema's writers, and a row noted by a write behind the
// server's back (psql, committed with its note) must not be sealed by the server's next
// transaction — it stays unsealed and the next verification names it.
func (s *sealer) dirtyRows(t *Tx, sc *scope) ([]dirty, error) {
	var ds []dirty
	if s.d == dialectPostgres {
		// With each note its row's old seal, found by the seal's primary key one note at a
		// time (LATERAL ... OFFSET 0 keeps the planner from making it a join): as a join of
		// the keys with seal_rows the planner hashed all of seal_rows, a sequential scan of
		// every seal the table ever wrote — 7.7 ms of a settlement after 20 rounds, and more
		// each round. They are read before sealScope locks the head, as they were not before:
		// the seal of a row this transaction wrote changes only with that row, which this
		// transaction holds locked (its write's row lock, or the key's unique index) until it
		// commits.
		rows, err := t.query(`SELECT d.tbl, d.pk, d.pkv, r.mac FROM ` + sc.t("seal_dirty") + ` d
			LEFT JOIN LATERAL (SELECT s.mac FROM ` + sc.t("seal_rows") + ` s WHERE s.tbl = d.tbl AND s.pk = d.pk OFFSET 0) r ON true
			WHERE d.tx = txid_current()`)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		for rows.Next() {
			var d dirty
			if err := rows.Scan(&d.tbl, &d.pk, &d.pkv, &d.old); err != nil {
				return nil, err
			}
			ds = append(ds, d)
		}
		return ds, rows.Err()
	}
	// Each note with the seal of its row, by the seal's own index: one statement, where the
	// old seals were read 256 keys to an IN list, eight statements and 2,000 keys bound for a
	// settlement of 1,000 terminals.
	rows, err := t.query(`SELECT d.tbl, d.pk, d.rid, r.mac FROM seal_dirty d
		LEFT JOIN seal_rows r ON r.tbl = d.tbl AND r.pk = d.pk`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var d dirty
		if err := rows.Scan(&d.tbl, &d.pk, &d.rid, &d.old); err != nil {
			return nil, err
		}
		ds = append(ds, d)
	}
	return ds, rows.Err()
}

// seal seals the rows the transaction wrote (seal_dirty) and moves the head of each scope it
// wrote in; Update calls it just before it commits. On PostgreSQL the head is read FOR UPDATE:
// the floor's head is written by every table server, and they must seal one after another,
// each over what the one before committed.
func (s *sealer) seal(t *Tx) error {
	for _, sc := range s.scopes {
		if s.d == dialectPostgres {
			// Checked after the transaction's own writes: a row it updated is locked by it
			// from that write on, so a change made behind its back to that row committed
			// before, and its note is seen now.
			if err := s.outsideWrites(t, sc); err != nil {
				return err
			}
		}
		if err := s.sealScope(t, sc); err != nil {
			return err
		}
	}
	return nil
}

// outsideWrites refuses to seal when seal_dirty holds a note no transaction of the table
// server's made: a row written behind its back (sqlite3 on the file, psql on the database)
// while it ran, with the triggers still in place. The server's own notes never outlive their
// transaction — seal deletes them before the commit, and a transaction rolled back takes them
// with it — so a note another transaction committed is a change nobody sealed. Sealing over it
// would launder it: the edited row sealed as it stood, or the server's next write to it (a
// balance plus a win) sealed over the edited value, and the ledger would then verify. On
// SQLite it is called as the transaction begins (it holds the file's one write lock until it
// commits); on PostgreSQL at the seal, for the notes of other transactions.
func (s *sealer) outsideWrites(t *Tx, sc *scope) error {
	q := `SELECT tbl, pk FROM seal_dirty LIMIT 1`
	if s.d == dialectPostgres {
		q = `SELECT tbl, pk FROM ` + sc.t("seal_dirty") + ` WHERE tx <> txid_current() LIMIT 1`
	}
	var tbl, pk string
	switch err := t.queryRow(q).Scan(&tbl, &pk); {
	case errors.Is(err, sql.ErrNoRows):
		return nil
	case err != nil:
		return fmt.Errorf("ledger: seal: %w", err)
	}
	return fmt.Errorf("ledger: %w: table %s row %s was written behind the table server's back while it ran (a change its transactions did not make, noted by the seal's trigger): it refuses to seal over it; stop the table server and run `tableserver verify`, which names what is wrong", ErrTampered, tbl, pk)
}

// oldSeals are the seals the noted rows had as the transaction found them, by (table, key):
// dirtyRows reads them with the notes.
func oldSeals(ds []dirty) map[[2]string][]byte {
	old := map[[2]string][]byte{}
	for _, d := range ds {
		if d.old != nil {
			old[[2]string{d.tbl, d.pk}] = d.old
		}
	}
	return old
}

// tablesOf are the tables the notes name, each once, in the order first noted.
func tablesOf(ds []dirty) []string {
	var tables []string
	seen := map[string]bool{}
	for _, d := range ds {
		if !seen[d.tbl] {
			seen[d.tbl] = true
			tables = append(tables, d.tbl)
		}
	}
	return tables
}

func (s *sealer) sealScope(t *Tx, sc *scope) (err error) {
	ds, err := s.dirtyRows(t, sc)
	if err != nil {
		return fmt.Errorf("ledger: seal: %w", err)
	}
	if len(ds) == 0 {
		return nil
	}
	// The rows' pre-images are checked against their old seals (sealpreimage.go) on the
	// second connection, while this one reads the rows back and computes their new seals;
	// nothing is committed unless both are done and the check found nothing.
	if pre := t.l.pre; pre != nil {
		checked := make(chan error, 1)
		go func() { checked <- s.checkPreimages(t.ctx, pre, sc, ds) }()
		defer func() {
			if perr := <-checked; perr != nil && (err == nil || errors.Is(perr, ErrTampered)) {
				err = perr
			}
		}()
	}
	lock := ""
	if s.d == dialectPostgres {
		lock = " FOR UPDATE"
	}
	var n, commits int64
	var agg, hmacHead []byte
	if err := t.queryRow(`SELECT rows, agg, mac, n FROM `+sc.t("seal_head")+` WHERE id = 1`+lock).Scan(&n, &agg, &hmacHead, &commits); err != nil {
		return fmt.Errorf("ledger: seal head of %s: %w", sc, err)
	}
	agg = bytes.Clone(agg)
	m := sc.macer()
	// Each (table, key) once: the row as it is now, wherever its rowid went.
	type rowKey struct{ tbl, pk string }
	where := map[rowKey][]dirty{}
	var order []rowKey
	for _, d := range ds {
		k := rowKey{d.tbl, d.pk}
		if _, ok := where[k]; !ok {
			order = append(order, k)
		}
		if !slices.ContainsFunc(where[k], func(o dirty) bool { return o.rid == d.rid && o.pkv == d.pkv }) {
			where[k] = append(where[k], d)
		}
	}
	// On PostgreSQL every statement is a round trip to the server: the old seals come with the
	// notes (dirtyRows), the rows are read a table at a time, and the new seals written in one
	// statement (pgBatch). On SQLite, in the process, a statement
	// still costs its parse, plan and call: a settlement of 1,000 terminals seals 2,000 rows,
	// and three statements a row were two thirds of its CPU, so the rows are read back and the
	// seals written up to 256 rows to a statement (sqliteBatch), and the old seals come with
	// the notes, in one join (dirtyRows).
	var batch *pgBatch
	if s.d != dialectPostgres {
		if batch, err = s.sqliteBatch(t, sc, order2(order, func(k rowKey) [2]string { return [2]string{k.tbl, k.pk} }), ds); err != nil {
			return fmt.Errorf("ledger: seal: %w", err)
		}
	}
	if s.d == dialectPostgres {
		// The old seals came with the notes; the rows as they are now, a table at a time.
		batch = &pgBatch{old: oldSeals(ds), rows: make(map[[2]string]rowNow, len(order))}
		for _, tbl := range tablesOf(ds) {
			st, ok := s.byName[tbl]
			if !ok || st.scope != sc {
				return fmt.Errorf("ledger: seal: a write to table %s, which is not sealed", tbl)
			}
			if err := batch.readRows(t, st); err != nil {
				return fmt.Errorf("ledger: seal %s: %w", tbl, err)
			}
		}
	}
	for _, k := range order {
		st, ok := s.byName[k.tbl]
		if !ok || st.scope != sc {
			return fmt.Errorf("ledger: seal: a write to table %s, which is not sealed", k.tbl)
		}
		var mac []byte
		if batch != nil {
			if r, ok := batch.rows[[2]string{k.tbl, k.pk}]; ok {
				if mac, err = m.rowMAC(k.tbl, k.pk, r.cols, r.vals); err != nil {
					return err
				}
			}
			where[k] = nil // read already
		}
		for _, d := range where[k] {
			pk, cols, vals, found, err := s.readRow(t, st, d)
			if err != nil {
				return fmt.Errorf("ledger: seal %s %s: %w", k.tbl, k.pk, err)
			}
			if found && pk == k.pk {
				if mac, err = m.rowMAC(k.tbl, k.pk, cols, vals); err != nil {
					return err
				}
				break
			}
		}
		var old []byte
		if batch != nil {
			old = batch.old[[2]string{k.tbl, k.pk}]
		} else {
			err := t.queryRow(`SELECT mac FROM `+sc.t("seal_rows")+` WHERE tbl = ? AND pk = ?`, k.tbl, k.pk).Scan(&old)
			switch {
			case errors.Is(err, sql.ErrNoRows):
				old = nil
			case err != nil:
				return fmt.Errorf("ledger: seal %s %s: %w", k.tbl, k.pk, err)
			}
		}
		if old != nil {
			xorInto(agg, old)
			n--
		}
		if batch != nil {
			batch.put(k.tbl, k.pk, mac)
			if mac != nil {
				xorInto(agg, mac)
				n++
			}
			continue
		}
		if mac == nil {
			if _, err := t.exec(`DELETE FROM `+sc.t("seal_rows")+` WHERE tbl = ? AND pk = ?`, k.tbl, k.pk); err != nil {
				return fmt.Errorf("ledger: seal %s %s: %w", k.tbl, k.pk, err)
			}
			continue
		}
		xorInto(agg, mac)
		n++
		if _, err := t.exec(`INSERT INTO `+sc.t("seal_rows")+`(tbl, pk, mac) VALUES (?,?,?)
			ON CONFLICT(tbl, pk) DO UPDATE SET mac = excluded.mac`, k.tbl, k.pk, mac); err != nil {
			return fmt.Errorf("ledger: seal %s %s: %w", k.tbl, k.pk, err)
		}
	}
	if batch != nil {
		if err := batch.write(t, sc); err != nil {
			return fmt.Errorf("ledger: seal: %w", err)
		}
	}
	commits++
	if _, err := t.exec(`UPDATE `+sc.t("seal_head")+` SET rows = ?, agg = ?, mac = ?, n = ? WHERE id = 1`, n, agg, sc.headMAC(commits, n, agg), commits); err != nil {
		return fmt.Errorf("ledger: seal head: %w", err)
	}
	if !sc.floor {
		t.commits = commits // the head anchor moves to it once committed
	}
	del := `DELETE FROM seal_dirty`
	if s.d == dialectPostgres {
		del = `DELETE FROM ` + sc.t("seal_dirty") + ` WHERE tx = txid_current()`
	}
	if _, err := t.exec(del); err != nil {
		return fmt.Errorf("ledger: seal: %w", err)
	}
	return nil
}

// pgBatch is a PostgreSQL transaction's seals: the old ones of the rows it wrote, read at
// once, and the new ones, written at once.
type pgBatch struct {
	sqlite          bool // made by sqliteBatch: written by writeSQLite
	old             map[[2]string][]byte
	rows            map[[2]string]rowNow
	putTbl, putPK   []string
	putMAC          [][]byte
	goneTbl, gonePK []string
}

// rowNow is a sealed row as the transaction leaves it.
type rowNow struct {
	cols []string
	vals []any
}

// readRows reads the rows of one table the transaction noted, as they are now: one query, each
// noted key's values (pkv, the JSON array of text the triggers wrote) cast back to the key
// columns' types in the database, and the row found by its primary key one key at a time
// (LATERAL ... OFFSET 0, as dirtyRows: as a join the planner hashed the whole table, every
// settlement ever written). The keys were sent back from Go, 2,000 of them for a settlement of
// 1,000 terminals, each parsed from its JSON here and encoded again as text arrays.
func (b *pgBatch) readRows(t *Tx, st sealed) error {
	on := make([]string, len(st.cols))
	for i, c := range st.cols {
		on[i] = fmt.Sprintf("t.%s = CAST(d.pkv::json->>%d AS %s)", quoteIdent(c), i, st.types[i])
	}
	rows, err := t.query(`SELECT `+st.pkExpr("t")+`, t.* FROM (SELECT DISTINCT pkv FROM `+st.scope.t("seal_dirty")+`
		WHERE tx = txid_current() AND tbl = ?) d CROSS JOIN LATERAL (SELECT * FROM `+st.from()+` t WHERE `+strings.Join(on, " AND ")+` OFFSET 0) t`, st.name)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		pk, cols, vals, err := scanSealed(rows)
		if err != nil {
			return err
		}
		b.rows[[2]string{st.name, pk}] = rowNow{cols, vals}
	}
	return rows.Err()
}

// put notes a row's new seal; nil: the row is gone.
func (b *pgBatch) put(tbl, pk string, mac []byte) {
	if mac == nil {
		b.goneTbl, b.gonePK = append(b.goneTbl, tbl), append(b.gonePK, pk)
		return
	}
	b.putTbl, b.putPK, b.putMAC = append(b.putTbl, tbl), append(b.putPK, pk), append(b.putMAC, mac)
}

func (b *pgBatch) write(t *Tx, sc *scope) error {
	if b.sqlite {
		return b.writeSQLite(t, sc)
	}
	if len(b.putTbl) > 0 {
		if _, err := t.exec(`INSERT INTO `+sc.t("seal_rows")+`(tbl, pk, mac)
			SELECT * FROM unnest(CAST(? AS text[]), CAST(? AS text[]), CAST(? AS bytea[]))
			ON CONFLICT(tbl, pk) DO UPDATE SET mac = excluded.mac`, b.putTbl, b.putPK, b.putMAC); err != nil {
			return err
		}
	}
	if len(b.goneTbl) > 0 {
		if _, err := t.exec(`DELETE FROM `+sc.t("seal_rows")+` r USING unnest(CAST(? AS text[]), CAST(? AS text[])) AS k(tbl, pk)
			WHERE r.tbl = k.tbl AND r.pk = k.pk`, b.goneTbl, b.gonePK); err != nil {
			return err
		}
	}
	return nil
}

// verify checks every row of every sealed table against its seal, and the heads against them
// all. The error wraps ErrTampered and names the first bad row. On PostgreSQL q is a
// repeatable-read transaction: the floor's rows and head are read as of one instant while
// other tables write them.
func (s *sealer) verify(ctx context.Context, q querier) (rowsSealed int64, err error) {
	for _, sc := range s.scopes {
		n, err := s.verifyScope(ctx, q, sc)
		if err != nil {
			return 0, err
		}
		rowsSealed += n
	}
	return rowsSealed, nil
}

func (s *sealer) verifyScope(ctx context.Context, q querier, sc *scope) (int64, error) {
	stored := map[string][]byte{}
	rows, err := q.QueryContext(ctx, `SELECT tbl, pk, mac FROM `+sc.t("seal_rows"))
	if err != nil {
		return 0, fmt.Errorf("ledger: verify: %w", err)
	}
	for rows.Next() {
		var tbl, pk string
		var mac []byte
		if err := rows.Scan(&tbl, &pk, &mac); err != nil {
			rows.Close()
			return 0, fmt.Errorf("ledger: verify: %w", err)
		}
		stored[tbl+"\x00"+pk] = mac
	}
	rows.Close()
	var head struct {
		n, commits int64
		agg, mac   []byte
	}
	hr, err := q.QueryContext(ctx, `SELECT rows, agg, mac, n FROM `+sc.t("seal_head")+` WHERE id = 1`)
	if err != nil {
		return 0, fmt.Errorf("ledger: verify: %w", err)
	}
	found := hr.Next()
	if found {
		err = hr.Scan(&head.n, &head.agg, &head.mac, &head.commits)
	}
	hr.Close()
	if err != nil {
		return 0, fmt.Errorf("ledger: verify: %w", err)
	}
	if !found {
		return 0, fmt.Errorf("ledger: %w: the seal head is missing (%s)", ErrTampered, sc)
	}
	order := "rowid"
	if s.d == dialectPostgres {
		order = "1"
	}
	agg := make([]byte, sha256.Size)
	var n int64
	m := sc.macer()
	for _, st := range s.tables {
		if st.scope != sc {
			continue
		}
		rows, err := q.QueryContext(ctx, `SELECT `+st.pk+`, * FROM `+st.from()+` ORDER BY `+order)
		if err != nil {
			return 0, fmt.Errorf("ledger: verify %s: %w", st.name, err)
		}
		for rows.Next() {
			pk, cols, vals, err := scanSealed(rows)
			if err != nil {
				rows.Close()
				return 0, fmt.Errorf("ledger: verify %s: %w", st.name, err)
			}
			mac, err := m.rowMAC(st.name, pk, cols, vals)
			if err != nil {
				rows.Close()
				return 0, err
			}
			want, ok := stored[st.name+"\x00"+pk]
			if !ok {
				rows.Close()
				return 0, fmt.Errorf("ledger: %w: table %s row %s has no seal: written without the server's key", ErrTampered, st.name, pk)
			}
			if !hmac.Equal(mac, want) {
				rows.Close()
				return 0, fmt.Errorf("ledger: %w: table %s row %s does not match its seal: edited without the server's key (%s)", ErrTampered, st.name, pk, describe(cols, vals))
			}
			delete(stored, st.name+"\x00"+pk)
			xorInto(agg, mac)
			n++
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return 0, fmt.Errorf("ledger: verify %s: %w", st.name, err)
		}
	}
	if len(stored) > 0 {
		var gone []string
		for k := range stored {
			gone = append(gone, strings.Replace(k, "\x00", " row ", 1))
		}
		sort.Strings(gone)
		return 0, fmt.Errorf("ledger: %w: table %s is sealed but missing: deleted without the server's key", ErrTampered, gone[0])
	}
	if !hmac.Equal(sc.headMAC(head.commits, head.n, head.agg), head.mac) {
		return 0, fmt.Errorf("ledger: %w: the seal head does not match its MAC (%s)", ErrTampered, sc)
	}
	if head.n != n || !hmac.Equal(agg, head.agg) {
		return 0, fmt.Errorf("ledger: %w: the rows are not the ones the seal head was written over (%d rows, head says %d): a row was put back to an older version", ErrTampered, n, head.n)
	}
	return n, nil
}

func describe(cols []string, vals []any) string {
	var b strings.Builder
	for i, c := range cols {
		if i > 0 {
			b.WriteString(", ")
		}
		v := vals[i]
		if bs, ok := v.([]byte); ok {
			v = fmt.Sprintf("%d bytes", len(bs))
		}
		fmt.Fprintf(&b, "%s=%v", c, v)
	}
	return b.String()
}

// openSeal loads (or on a first Open creates) the key, verifies the ledger against it and
// installs the triggers. A ledger never sealed is sealed as found.
func openSeal(ctx context.Context, l *Ledger, path, keyPath string, reseal *resealOrder) (*sealer, error) {
	s := &sealer{d: dialectSQLite, scopes: []*scope{{keyPath: keyPath, reseal: reseal}}}
	if err := s.open(ctx, l, path); err != nil {
		return nil, err
	}
	return s, nil
}

// openSealPostgres is openSeal for a table server on a floor's database: the floor's scope
// first (its key is the one the floor already uses, or the floor is new), then the table's.
func openSealPostgres(ctx context.Context, l *Ledger, cfg StoreConfig) (*sealer, error) {
	s := &sealer{d: dialectPostgres, scopes: []*scope{
		{schema: l.schema, keyPath: cfg.KeyPath, reseal: cfg.reseal},
		{schema: FloorSchema, keyPath: cfg.FloorKeyPath, floor: true},
	}}
	if err := s.open(ctx, l, redact(cfg.DSN)); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *sealer) open(ctx context.Context, l *Ledger, where string) error {
	tables, err := s.sealedTables(ctx, l.db)
	if err != nil {
		return err
	}
	s.setTables(tables)
	if err := s.createTriggers(ctx, l.db); err != nil {
		return err
	}
	// The floor's scope before the table's: a table server given a key the floor was not
	// sealed with is told so before it seals anything of its own.
	scopes := slices.Clone(s.scopes)
	slices.Reverse(scopes)
	for _, sc := range scopes {
		if err := s.openScope(ctx, l, sc, where); err != nil {
			return err
		}
	}
	return nil
}

func (s *sealer) openScope(ctx context.Context, l *Ledger, sc *scope, where string) error {
	var heads int
	if err := l.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM `+sc.t("seal_head")).Scan(&heads); err != nil {
		return err
	}
	key, haveKey, err := readKey(sc.keyPath)
	if err != nil {
		return err
	}
	pending, havePending, err := readKey(sc.keyPath + ".new")
	if err != nil {
		return err
	}
	switch {
	case heads > 0 && (haveKey || havePending) && sc.reseal == nil:
		sc.key = key
		if !haveKey {
			sc.key = pending // sealed, then a crash before the key was installed
		}
		if _, err := s.verifyOne(ctx, l, sc); err != nil {
			if sc.floor {
				return fmt.Errorf("%w (the floor's rows — tickets, cage — are sealed under the floor's key, which every table server of the floor must be given: if %s is that key, a floor row was changed without it; `tableserver verify` names what is wrong)", err, sc.keyPath)
			}
			return fmt.Errorf("%w (the table server refuses a ledger that fails its seal: restore it from a good copy; `tableserver verify -db %s` names what is wrong)", err, where)
		}
		if !haveKey {
			if err := installKey(sc.keyPath); err != nil {
				return err
			}
		}
		return s.anchorHead(ctx, l, sc, false)
	case heads > 0 && sc.floor && sc.reseal == nil:
		return fmt.Errorf("ledger: the floor in %s is sealed but this table server's floor %w file %s is missing: copy the floor's key file from another table server of the floor", where, ErrKey, sc.keyPath)
	case heads > 0 && sc.reseal == nil:
		return fmt.Errorf("ledger: %s is sealed but its %w file %s is missing: restore it", where, ErrKey, sc.keyPath)
	}
	var rows int64
	for _, t := range s.tables {
		if t.scope != sc {
			continue
		}
		var c int64
		if err := l.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM `+t.from()).Scan(&c); err != nil {
			return err
		}
		rows += c
	}
	switch {
	case sc.reseal != nil:
		// The operator's order: sealed as it stands, under its key or a new one, marked.
		sc.reseal.found = resealFound(heads, haveKey || havePending, sc.keyPath)
	case haveKey && rows > 0:
		return fmt.Errorf("ledger: %s: %w: it holds %d unsealed rows but this server already has a ledger key (%s): an unsealed ledger was put in place of the sealed one", where, ErrTampered, rows, sc.keyPath)
	case rows > 0:
		var seals int64
		if err := l.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM `+sc.t("seal_rows")).Scan(&seals); err != nil {
			return err
		}
		missing := "its seal head and its key file " + sc.keyPath + " are"
		if seals == 0 {
			missing = "its seal head, every row's seal and its key file " + sc.keyPath + " are"
		}
		return fmt.Errorf("ledger: %s: %w: it holds %d rows but %s missing. A ledger is sealed from its creation and never sealed again as found: a seal stripped is how edited rows would pass for the server's own. Restore the ledger and its key from a good copy; if an operator must trust it as it stands, `tableserver reseal -db %s -by WHO -why TEXT` seals it and marks it for good", where, ErrUnsealed, rows, missing, where)
	case !sc.floor:
		// A new ledger: none may have been sealed here before (its anchor says so).
		if _, err := os.Stat(anchorPath(sc.keyPath, sc.schema)); err == nil {
			return fmt.Errorf("ledger: %s: %w: %w: the ledger is new and empty, but the head anchor %s says this table server sealed a ledger here: it was replaced by a new one (restore it; if an operator must start anew, `tableserver reseal`)", where, ErrTampered, ErrRolledBack, anchorPath(sc.keyPath, sc.schema))
		}
	}
	if !haveKey {
		if havePending {
			key = pending
		} else if key, err = writeKey(sc.keyPath); err != nil {
			return err
		}
	}
	sc.key = key
	if err := s.sealAll(ctx, l, sc, sc.reseal); err != nil {
		return err
	}
	if !haveKey {
		if err := installKey(sc.keyPath); err != nil {
			return err
		}
	}
	if sc.reseal != nil && !sc.floor {
		// The reseal starts the anchor again from the head it wrote.
		if err := os.Remove(anchorPath(sc.keyPath, sc.schema)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("ledger: head anchor: %w", err)
		}
	}
	return s.anchorHead(ctx, l, sc, true)
}

// anchorHead checks the table scope's head against its anchor outside the ledger
// (sealanchor.go) — a head older than the anchor is a ledger put back to an older copy — and
// moves the anchor to the head; the floor's scope has none. Called once the scope is verified
// or sealed. fresh says the scope was sealed just now (a new ledger, or an operator's reseal),
// so no anchor can exist yet.
func (s *sealer) anchorHead(ctx context.Context, l *Ledger, sc *scope, fresh bool) error {
	if sc.floor {
		return nil
	}
	var commits int64
	if err := l.db.QueryRowContext(ctx, `SELECT n FROM `+sc.t("seal_head")+` WHERE id = 1`).Scan(&commits); err != nil {
		return fmt.Errorf("ledger: seal head: %w", err)
	}
	a := newHeadAnchor(anchorPath(sc.keyPath, sc.schema), sc.key)
	anchored, ok, err := a.read()
	if err != nil {
		return err
	}
	if !ok && !fresh && commits > 0 {
		// A head that counts commits was written by a server that anchored it from the
		// ledger's first open (the count starts with the anchor): the anchor was deleted, the
		// way an older copy of the ledger would be made to pass (issue 34 part 3).
		return fmt.Errorf("ledger: %w: %w: its seal head is at commit %d but its head anchor %s is missing: it was deleted, as it would be to put an older copy of the ledger in place. Restore the anchor, or the newest copy of the ledger; if an operator must trust the ledger as it stands, `tableserver reseal`", ErrTampered, ErrRolledBack, commits, a.path)
	}
	if ok && anchored > commits {
		return fmt.Errorf("ledger: %w: %w: its seal head is at commit %d but this table server sealed commit %d (head anchor %s): the ledger was put back to an older copy, and what moved since would be forgotten. Restore the newest copy", ErrTampered, ErrRolledBack, commits, anchored, a.path)
	}
	if !ok || anchored < commits {
		if err := a.write(commits); err != nil {
			return err
		}
	}
	a.want, a.written = commits, commits
	l.anchor = a
	return nil
}

// verifyOne verifies one scope (on PostgreSQL in a repeatable-read transaction).
func (s *sealer) verifyOne(ctx context.Context, l *Ledger, sc *scope) (int64, error) {
	tx, err := l.db.BeginTx(ctx, l.readOnly())
	if err != nil {
		return 0, err
	}
	defer tx.Rollback() //nolint:errcheck // read only
	return s.verifyScope(ctx, tx, sc)
}

// sealAll seals every row of a scope as it is: a new ledger, one from before the seal, or one
// whose schema a migration just changed (after it was verified under the old one). On
// PostgreSQL the head is locked first, so a floor's other servers seal after this.
func (s *sealer) sealAll(ctx context.Context, l *Ledger, sc *scope, mark *resealOrder) error {
	tx, err := l.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback() //nolint:errcheck // no-op after Commit
	if s.d == dialectPostgres {
		if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(hashtext('ats-ledger-seal-' || ?))`, sc.schema); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `SELECT id FROM `+sc.t("seal_head")+` FOR UPDATE`); err != nil {
			return err
		}
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM `+sc.t("seal_rows")); err != nil {
		return err
	}
	agg := make([]byte, sha256.Size)
	var n int64
	for _, st := range s.tables {
		if st.scope != sc {
			continue
		}
		rows, err := tx.QueryContext(ctx, `SELECT `+st.pk+`, * FROM `+st.from())
		if err != nil {
			return err
		}
		type row struct {
			pk  string
			mac []byte
		}
		var all []row
		for rows.Next() {
			pk, cols, vals, err := scanSealed(rows)
			if err != nil {
				rows.Close()
				return err
			}
			mac, err := sc.rowMAC(st.name, pk, cols, vals)
			if err != nil {
				rows.Close()
				return err
			}
			all = append(all, row{pk, mac})
		}
		rows.Close()
		for _, r := range all {
			if _, err := tx.ExecContext(ctx, `INSERT INTO `+sc.t("seal_rows")+`(tbl, pk, mac) VALUES (?,?,?)`, st.name, r.pk, r.mac); err != nil {
				return err
			}
			xorInto(agg, r.mac)
			n++
		}
	}
	// The head is rewritten in place, never deleted: another table server waiting for its
	// lock would find no head at all.
	// The commit count goes on from the head's, if there is one (a migration's sealing).
	var commits int64
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(n), 0) FROM `+sc.t("seal_head")).Scan(&commits); err != nil {
		return err
	}
	commits++
	if _, err := tx.ExecContext(ctx, `INSERT INTO `+sc.t("seal_head")+`(id, rows, agg, mac, since, n) VALUES (1,?,?,?,?,?)
		ON CONFLICT(id) DO UPDATE SET rows = excluded.rows, agg = excluded.agg, mac = excluded.mac, since = excluded.since, n = excluded.n`,
		n, agg, sc.headMAC(commits, n, agg), time.Now().UnixNano(), commits); err != nil {
		return err
	}
	// Every note: all are sealed now. (On PostgreSQL, what other transactions have not
	// committed is not seen, so not deleted.)
	if _, err := tx.ExecContext(ctx, `DELETE FROM `+sc.t("seal_dirty")); err != nil {
		return err
	}
	if mark != nil && !sc.floor {
		// The mark (reseal.go), itself sealed from here on by the commit's own seal.
		if err := mark.write(ctx, tx, n); err != nil {
			return err
		}
		// No pre-image reader (Ledger.pre): this transaction has just sealed every row as it
		// stood, so there is no old seal of the marks to check.
		if err := s.sealScope(&Tx{l: &Ledger{dialect: s.d}, ctx: ctx, tx: tx}, sc); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// schemaOf is the definition of every sealed table, by scope, to tell whether a migration
// changed a table (its rows' seals then cover other columns, and are written again).
func schemaOf(ctx context.Context, l *Ledger) (map[string]string, error) {
	out := map[string]string{}
	if l.dialect == dialectPostgres {
		for _, schema := range []string{l.schema, FloorSchema} {
			var s sql.NullString
			err := l.db.QueryRowContext(ctx, `SELECT string_agg(table_name || '.' || column_name || ' ' || data_type || ' ' || COALESCE(column_default, ''), ';'
				ORDER BY table_name, ordinal_position) FROM information_schema.columns
				WHERE table_schema = ? AND table_name NOT LIKE 'seal\_%'`, schema).Scan(&s)
			if err != nil {
				return nil, err
			}
			out[schema] = s.String
		}
		return out, nil
	}
	var s sql.NullString
	err := l.db.QueryRowContext(ctx, `SELECT group_concat(sql, ';') FROM (SELECT sql FROM sqlite_master
		WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'seal_%' ORDER BY name)`).Scan(&s)
	out[""] = s.String
	return out, err
}

// Verify checks the whole ledger against its seal (Open does it too), and returns how many rows
// are sealed. `tableserver verify` runs it.
func (l *Ledger) Verify(ctx context.Context) (int64, error) {
	tx, err := l.db.BeginTx(ctx, l.readOnly())
	if err != nil {
		return 0, err
	}
	defer tx.Rollback() //nolint:errcheck // read only
	return l.seal.verify(ctx, tx)
}

// readOnly is the transaction a verification reads in: one snapshot of everything.
func (l *Ledger) readOnly() *sql.TxOptions {
	if l.dialect == dialectPostgres {
		return &sql.TxOptions{ReadOnly: true, Isolation: sql.LevelRepeatableRead}
	}
	return &sql.TxOptions{ReadOnly: true}
}

// migrated seals a scope again if a migration changed one of its tables since before, or (for
// the table's own scope) recorded a migration: it was verified under the old schema just now,
// and its rows' seals must cover the new columns and rows.
func (s *sealer) migrated(ctx context.Context, l *Ledger, before map[string]string, applied int) error {
	after, err := schemaOf(ctx, l)
	if err != nil {
		return err
	}
	changed := func(sc *scope) bool { return after[sc.schema] != before[sc.schema] || (applied > 0 && !sc.floor) }
	if !slices.ContainsFunc(s.scopes, changed) {
		return nil
	}
	tables, err := s.sealedTables(ctx, l.db)
	if err != nil {
		return err
	}
	s.setTables(tables)
	if err := s.createTriggers(ctx, l.db); err != nil {
		return err
	}
	for _, sc := range s.scopes {
		if changed(sc) {
			if err := s.sealAll(ctx, l, sc, nil); err != nil {
				return err
			}
			if err := s.anchorHead(ctx, l, sc, false); err != nil {
				return err
			}
		}
	}
	return nil
}
