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
// What a MAC cannot show: the whole file (or its last transactions, head included) put back
// to an older copy is a valid, older ledger. The terminals' journals show that: each holds the
// money it was told of.
//
// Migration: a ledger from before the seal (no seal_head) is sealed as found on its first Open
// — trusted once, with a ledger-sealed event saying when and how many rows. A ledger without a
// seal_head whose key already exists (an unsealed copy put in place of a sealed one) is refused.

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/tablegames/ats/internal/keyfile"
)

// ErrTampered is wrapped by every error about a ledger that fails its seal.
var ErrTampered = errors.New("ledger tampered with")

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
	since INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS seal_dirty (
	tbl TEXT NOT NULL,
	pk  TEXT NOT NULL,
	rid INTEGER NOT NULL
);
`

// KeyPath is where the key of the ledger at path is kept unless the caller says otherwise.
func KeyPath(ledger string) string { return ledger + ".key" }

// sealed is a table under the seal: its name and the SQL expression of its primary key as text.
type sealed struct {
	name string
	pk   string // over the bare column names: quote(a)||','||quote(b)
}

// sealer holds the key and the sealed tables of an open ledger.
type sealer struct {
	key    []byte
	tables []sealed
	byName map[string]sealed
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

// sealedTables lists the tables under the seal — every table but the seal's own and SQLite's —
// and (re)creates the triggers that note each row written.
func sealedTables(ctx context.Context, db *sql.DB) ([]sealed, error) {
	rows, err := db.QueryContext(ctx, `SELECT name FROM sqlite_master WHERE type = 'table'
		AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'seal_%' ORDER BY name`)
	if err != nil {
		return nil, err
	}
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			rows.Close()
			return nil, err
		}
		names = append(names, n)
	}
	rows.Close()
	var out []sealed
	for _, n := range names {
		cols, err := db.QueryContext(ctx, `SELECT name, pk FROM pragma_table_info(?) ORDER BY pk`, n)
		if err != nil {
			return nil, err
		}
		var pks []string
		for cols.Next() {
			var c string
			var pk int
			if err := cols.Scan(&c, &pk); err != nil {
				cols.Close()
				return nil, err
			}
			if pk > 0 {
				pks = append(pks, c)
			}
		}
		cols.Close()
		s := sealed{name: n}
		if len(pks) == 0 {
			s.pk = "quote(rowid)"
		} else {
			parts := make([]string, len(pks))
			for i, c := range pks {
				parts[i] = "quote(" + quoteIdent(c) + ")"
			}
			s.pk = strings.Join(parts, "||','||")
		}
		out = append(out, s)
	}
	return out, nil
}

func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// triggers are recreated on every Open, so none an editor left can stand in for ours. seal_dirty
// has no unique key — a trigger's OR IGNORE gives way to an upsert's own conflict clause — so
// seal takes each row once however often it was noted.
func createTriggers(ctx context.Context, db *sql.DB, tables []sealed) error {
	for _, s := range tables {
		for _, ev := range []struct{ when, rows string }{{"INSERT", "NEW"}, {"UPDATE", "NEW"}, {"UPDATE", "OLD"}, {"DELETE", "OLD"}} {
			name := quoteIdent("seal_" + s.name + "_" + strings.ToLower(ev.when) + "_" + strings.ToLower(ev.rows))
			pk := strings.ReplaceAll(s.pk, "quote(", "quote("+ev.rows+".")
			q := fmt.Sprintf(`DROP TRIGGER IF EXISTS %s; CREATE TRIGGER %s AFTER %s ON %s BEGIN
				INSERT INTO seal_dirty(tbl, pk, rid) VALUES ('%s', %s, %s.rowid); END;`,
				name, name, ev.when, quoteIdent(s.name), strings.ReplaceAll(s.name, "'", "''"), pk, ev.rows)
			if _, err := db.ExecContext(ctx, q); err != nil {
				return fmt.Errorf("seal trigger on %s: %w", s.name, err)
			}
		}
	}
	return nil
}

// rowMAC is a row's seal: the table, its key and every column by name, type and value.
func (s *sealer) rowMAC(table, pk string, cols []string, vals []any) ([]byte, error) {
	h := hmac.New(sha256.New, s.key)
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

func (s *sealer) headMAC(rows int64, agg []byte) []byte {
	h := hmac.New(sha256.New, s.key)
	h.Write([]byte("ats-ledger-head-v1"))
	var n [8]byte
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

// readRow reads the row of table at rowid: its key text, column names and values; ok false
// when there is none.
func readRow(t *Tx, s sealed, rid int64) (pk string, cols []string, vals []any, ok bool, err error) {
	rows, err := t.query(`SELECT `+s.pk+`, * FROM `+quoteIdent(s.name)+` WHERE rowid = ?`, rid)
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

// seal seals the rows the transaction wrote (seal_dirty) and moves the head; Update calls it
// just before it commits.
func (s *sealer) seal(t *Tx) error {
	type dirty struct {
		tbl, pk string
		rid     int64
	}
	rows, err := t.query(`SELECT tbl, pk, rid FROM seal_dirty`)
	if err != nil {
		return fmt.Errorf("ledger: seal: %w", err)
	}
	var ds []dirty
	for rows.Next() {
		var d dirty
		if err := rows.Scan(&d.tbl, &d.pk, &d.rid); err != nil {
			rows.Close()
			return fmt.Errorf("ledger: seal: %w", err)
		}
		ds = append(ds, d)
	}
	rows.Close()
	if len(ds) == 0 {
		return nil
	}
	var n int64
	var agg, hmacHead []byte
	if err := t.queryRow(`SELECT rows, agg, mac FROM seal_head WHERE id = 1`).Scan(&n, &agg, &hmacHead); err != nil {
		return fmt.Errorf("ledger: seal head: %w", err)
	}
	agg = bytes.Clone(agg)
	// Each (table, key) once: the row as it is now, wherever its rowid went.
	type rowKey struct{ tbl, pk string }
	rids := map[rowKey][]int64{}
	var order []rowKey
	for _, d := range ds {
		k := rowKey{d.tbl, d.pk}
		if _, ok := rids[k]; !ok {
			order = append(order, k)
		}
		if !slices.Contains(rids[k], d.rid) {
			rids[k] = append(rids[k], d.rid)
		}
	}
	for _, k := range order {
		st, ok := s.byName[k.tbl]
		if !ok {
			return fmt.Errorf("ledger: seal: a write to table %s, which is not sealed", k.tbl)
		}
		var mac []byte
		for _, rid := range rids[k] {
			pk, cols, vals, found, err := readRow(t, st, rid)
			if err != nil {
				return fmt.Errorf("ledger: seal %s %s: %w", k.tbl, k.pk, err)
			}
			if found && pk == k.pk {
				if mac, err = s.rowMAC(k.tbl, k.pk, cols, vals); err != nil {
					return err
				}
				break
			}
		}
		var old []byte
		err := t.queryRow(`SELECT mac FROM seal_rows WHERE tbl = ? AND pk = ?`, k.tbl, k.pk).Scan(&old)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			old = nil
		case err != nil:
			return fmt.Errorf("ledger: seal %s %s: %w", k.tbl, k.pk, err)
		}
		if old != nil {
			xorInto(agg, old)
			n--
		}
		if mac == nil {
			if _, err := t.exec(`DELETE FROM seal_rows WHERE tbl = ? AND pk = ?`, k.tbl, k.pk); err != nil {
				return fmt.Errorf("ledger: seal %s %s: %w", k.tbl, k.pk, err)
			}
			continue
		}
		xorInto(agg, mac)
		n++
		if _, err := t.exec(`INSERT INTO seal_rows(tbl, pk, mac) VALUES (?,?,?)
			ON CONFLICT(tbl, pk) DO UPDATE SET mac = excluded.mac`, k.tbl, k.pk, mac); err != nil {
			return fmt.Errorf("ledger: seal %s %s: %w", k.tbl, k.pk, err)
		}
	}
	if _, err := t.exec(`UPDATE seal_head SET rows = ?, agg = ?, mac = ? WHERE id = 1`, n, agg, s.headMAC(n, agg)); err != nil {
		return fmt.Errorf("ledger: seal head: %w", err)
	}
	if _, err := t.exec(`DELETE FROM seal_dirty`); err != nil {
		return fmt.Errorf("ledger: seal: %w", err)
	}
	return nil
}

// verify checks every row of every sealed table against its seal, and the head against them
// all. The error wraps ErrTampered and names the first bad row.
func (s *sealer) verify(ctx context.Context, q interface {
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
}) (rowsSealed int64, err error) {
	stored := map[string][]byte{}
	rows, err := q.QueryContext(ctx, `SELECT tbl, pk, mac FROM seal_rows`)
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
		n        int64
		agg, mac []byte
	}
	hr, err := q.QueryContext(ctx, `SELECT rows, agg, mac FROM seal_head WHERE id = 1`)
	if err != nil {
		return 0, fmt.Errorf("ledger: verify: %w", err)
	}
	found := hr.Next()
	if found {
		err = hr.Scan(&head.n, &head.agg, &head.mac)
	}
	hr.Close()
	if err != nil {
		return 0, fmt.Errorf("ledger: verify: %w", err)
	}
	if !found {
		return 0, fmt.Errorf("ledger: %w: the seal head is missing", ErrTampered)
	}
	agg := make([]byte, sha256.Size)
	var n int64
	for _, st := range s.tables {
		rows, err := q.QueryContext(ctx, `SELECT `+st.pk+`, * FROM `+quoteIdent(st.name)+` ORDER BY rowid`)
		if err != nil {
			return 0, fmt.Errorf("ledger: verify %s: %w", st.name, err)
		}
		for rows.Next() {
			pk, cols, vals, err := scanSealed(rows)
			if err != nil {
				rows.Close()
				return 0, fmt.Errorf("ledger: verify %s: %w", st.name, err)
			}
			mac, err := s.rowMAC(st.name, pk, cols, vals)
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
	if !hmac.Equal(s.headMAC(head.n, head.agg), head.mac) {
		return 0, fmt.Errorf("ledger: %w: the seal head does not match its MAC", ErrTampered)
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
func openSeal(ctx context.Context, db *sql.DB, path, keyPath string) (*sealer, error) {
	tables, err := sealedTables(ctx, db)
	if err != nil {
		return nil, err
	}
	s := &sealer{tables: tables, byName: map[string]sealed{}}
	for _, t := range tables {
		s.byName[t.name] = t
	}
	var heads int
	if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM seal_head`).Scan(&heads); err != nil {
		return nil, err
	}
	key, haveKey, err := readKey(keyPath)
	if err != nil {
		return nil, err
	}
	pending, havePending, err := readKey(keyPath + ".new")
	if err != nil {
		return nil, err
	}
	if err := createTriggers(ctx, db, tables); err != nil {
		return nil, err
	}
	switch {
	case heads > 0 && (haveKey || havePending):
		s.key = key
		if !haveKey {
			s.key = pending // sealed, then a crash before the key was installed
		}
		if _, err := s.verify(ctx, db); err != nil {
			return nil, fmt.Errorf("%w (the table server refuses a ledger that fails its seal: restore it from a good copy; `tableserver verify -db %s` names what is wrong)", err, path)
		}
		if !haveKey {
			return s, installKey(keyPath)
		}
		return s, nil
	case heads > 0:
		return nil, fmt.Errorf("ledger: %s is sealed but its %w file %s is missing: restore it", path, ErrKey, keyPath)
	}
	var rows int64
	for _, t := range tables {
		var c int64
		if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM `+quoteIdent(t.name)).Scan(&c); err != nil {
			return nil, err
		}
		rows += c
	}
	if haveKey && rows > 0 {
		return nil, fmt.Errorf("ledger: %s: %w: it holds %d unsealed rows but this server already has a ledger key (%s): an unsealed ledger was put in place of the sealed one", path, ErrTampered, rows, keyPath)
	}
	if !haveKey {
		if key, err = writeKey(keyPath); err != nil {
			return nil, err
		}
	}
	s.key = key
	if err := s.sealAll(ctx, db, rows); err != nil {
		return nil, err
	}
	if !haveKey {
		return s, installKey(keyPath)
	}
	return s, nil
}

// sealAll seals every row as it is: a new ledger, one from before the seal, or one whose schema
// a migration just changed (after it was verified under the old one).
func (s *sealer) sealAll(ctx context.Context, db *sql.DB, found int64) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback() //nolint:errcheck // no-op after Commit
	for _, q := range []string{`DELETE FROM seal_rows`, `DELETE FROM seal_head`, `DELETE FROM seal_dirty`} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	agg := make([]byte, sha256.Size)
	var n int64
	for _, st := range s.tables {
		rows, err := tx.QueryContext(ctx, `SELECT `+st.pk+`, * FROM `+quoteIdent(st.name))
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
			mac, err := s.rowMAC(st.name, pk, cols, vals)
			if err != nil {
				rows.Close()
				return err
			}
			all = append(all, row{pk, mac})
		}
		rows.Close()
		for _, r := range all {
			if _, err := tx.ExecContext(ctx, `INSERT INTO seal_rows(tbl, pk, mac) VALUES (?,?,?)`, st.name, r.pk, r.mac); err != nil {
				return err
			}
			xorInto(agg, r.mac)
			n++
		}
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO seal_head(id, rows, agg, mac, since) VALUES (1,?,?,?,?)`,
		n, agg, s.headMAC(n, agg), time.Now().UnixNano()); err != nil {
		return err
	}
	if found > 0 {
		// Said in the audit log (itself sealed from here on, by the commit's own seal).
		if _, err := tx.ExecContext(ctx, `INSERT INTO events(at, kind, terminal, round, amount, detail) VALUES (?,?,?,?,?,?)`,
			time.Now().UnixNano(), "ledger-sealed", "", "", found, fmt.Sprintf("sealing started: %d rows found were sealed as they stood", found)); err != nil {
			return err
		}
		if err := s.seal(&Tx{l: &Ledger{}, ctx: ctx, tx: tx}); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// schemaOf is the SQL of every sealed table, to tell whether a migration changed a table (its
// rows' seals then cover other columns, and are written again).
func schemaOf(ctx context.Context, db *sql.DB) (string, error) {
	var s sql.NullString
	err := db.QueryRowContext(ctx, `SELECT group_concat(sql, ';') FROM (SELECT sql FROM sqlite_master
		WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'seal_%' ORDER BY name)`).Scan(&s)
	return s.String, err
}

// Verify checks the whole ledger against its seal (Open does it too), and returns how many rows
// are sealed. `tableserver verify` runs it.
func (l *Ledger) Verify(ctx context.Context) (int64, error) {
	tx, err := l.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return 0, err
	}
	defer tx.Rollback() //nolint:errcheck // read only
	return l.seal.verify(ctx, tx)
}

// migrated seals the ledger again if a migration changed a table since before: it was verified
// under the old schema just now, and its rows' seals must cover the new columns.
func (s *sealer) migrated(ctx context.Context, db *sql.DB, before string) error {
	after, err := schemaOf(ctx, db)
	if err != nil || after == before {
		return err
	}
	if s.tables, err = sealedTables(ctx, db); err != nil {
		return err
	}
	s.byName = map[string]sealed{}
	for _, t := range s.tables {
		s.byName[t.name] = t
	}
	if err := createTriggers(ctx, db, s.tables); err != nil {
		return err
	}
	return s.sealAll(ctx, db, 0)
}
