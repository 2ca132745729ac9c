package ledger

import (
	"context"
	"crypto/hmac"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5/pgconn"
)

// The pre-image check: before the seal writes a row's new MAC over its old one, the row as it
// was last committed — its pre-image, before this transaction touched it — must still match
// that old MAC. Without it, an editor who drops the seal's triggers (their SQL is in
// sqlite_master / pg_trigger for anyone to read), edits a row and puts the triggers back
// leaves no note for outsideWrites to find; the edit is found by the next verification —
// unless the server writes that row first, and then its seal covers the edited value and the
// server's change together, and the ledger verifies clean: the edit laundered.
//
// The pre-images are read on a second connection, which sees only what is committed:
//   - SQLite: the server's transaction holds the file's one write lock from BEGIN IMMEDIATE,
//     so nothing commits until it does, and a read on another connection (WAL) sees exactly
//     the state it began from.
//   - PostgreSQL: READ COMMITTED on another session sees none of this transaction's changes,
//     and the rows it wrote are its own until it commits (the row locks of its updates and
//     deletes, the unique index entries of its inserts), so no other writer — another table
//     server of the floor — can commit them meanwhile. Other rows another server committed are
//     not read: only this transaction's notes are checked.
//
// For each row the transaction noted, by (table, key): a committed row and an old seal must
// match; a committed row without a seal was written without the key; an old seal without a
// committed row means the row was deleted without it; neither is a row this transaction
// inserted. Any of the three refuses the transaction (ErrTampered, naming the table and key),
// nothing committed, and leaves the edit for `tableserver verify` to find.
//
// The read runs beside the read-back of the rows as the transaction leaves them (sealScope),
// each on its own connection.

// preReader is the second connection the pre-images are read on. One connection: the table
// server seals one transaction at a time.
type preReader struct {
	db *sql.DB
	// SQLite's statements are kept prepared, as the writer's are (Tx.stmt). PostgreSQL's are
	// not: see openPostgres.
	mu    sync.Mutex
	stmts map[string]*sql.Stmt
}

// openPreSQLite opens the pre-image reader of the SQLite ledger at path: read only
// (query_only), waiting out a checkpoint's brief lock as the writer does.
func openPreSQLite(path string) (*preReader, error) {
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(5000)&_pragma=query_only(1)")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	return &preReader{db: db}, nil
}

func (p *preReader) close() error {
	if p == nil {
		return nil
	}
	p.mu.Lock()
	for q, st := range p.stmts {
		st.Close()
		delete(p.stmts, q)
	}
	p.mu.Unlock()
	return p.db.Close()
}

// errPreimageLocked: on PostgreSQL the pre-image read waited preLockTimeout for a table's
// lock. A plain read waits only behind a lock that excludes readers (ALTER TABLE: another
// table server's migration of a floor table), and that one may itself be waiting for this
// transaction to end — a deadlock PostgreSQL cannot see, the two sessions being tied only
// here in Go. Update then rolls the transaction back and runs it again (retryable), as for a
// deadlock PostgreSQL found: the ALTER goes through, and the retry reads after it.
var errPreimageLocked = errors.New("the seal's read of the rows as last committed waited too long for a lock")

// preLockTimeout is the pre-image reader's lock_timeout on PostgreSQL.
const preLockTimeout = "200ms"

// preErr marks a lock timeout of the pre-image reader's (errPreimageLocked), wherever it
// surfaces: the query, or reading its rows.
func preErr(err error) error {
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == "55P03" { // lock_not_available: lock_timeout
		return fmt.Errorf("%w: %w", errPreimageLocked, err)
	}
	return err
}

func (p *preReader) query(ctx context.Context, d dialect, q string, args ...any) (*sql.Rows, error) {
	if d == dialectPostgres {
		rows, err := p.db.QueryContext(ctx, q, args...)
		return rows, preErr(err)
	}
	p.mu.Lock()
	st, ok := p.stmts[q]
	if !ok {
		var err error
		if st, err = p.db.PrepareContext(ctx, q); err != nil {
			p.mu.Unlock()
			return nil, err
		}
		if p.stmts == nil {
			p.stmts = map[string]*sql.Stmt{}
		}
		p.stmts[q] = st
	}
	p.mu.Unlock()
	return st.QueryContext(ctx, args...)
}

// checkPreimages checks every row the transaction noted in scope sc (ds, with their old seals)
// against its pre-image, as above, a table at a time in the order the notes first name them.
// It uses its own macer: it runs beside sealScope's.
func (s *sealer) checkPreimages(ctx context.Context, pre *preReader, sc *scope, ds []dirty) error {
	byTable := map[string][]dirty{}
	var tables []string
	for _, d := range ds {
		if _, seen := byTable[d.tbl]; !seen {
			tables = append(tables, d.tbl)
		}
		byTable[d.tbl] = append(byTable[d.tbl], d)
	}
	m := sc.macer()
	for _, tbl := range tables {
		st, ok := s.byName[tbl]
		if !ok || st.scope != sc {
			return fmt.Errorf("ledger: seal: a write to table %s, which is not sealed", tbl)
		}
		if err := s.checkTable(ctx, pre, m, st, byTable[tbl]); err != nil {
			return err
		}
	}
	return nil
}

// checkTable checks one table's noted rows. Each committed row found is MAC'd as it is read
// and compared with its key's old seal at once, so only the keys are kept, not the rows.
func (s *sealer) checkTable(ctx context.Context, pre *preReader, m *macer, st sealed, ds []dirty) error {
	// Every noted key, with its old seal (nil: none); a key is taken out when its committed
	// row is found, so what is left has none.
	old := make(map[string][]byte, len(ds))
	for _, d := range ds {
		old[d.pk] = d.old
	}
	check := func(pk string, cols []string, vals []any) error {
		seal, noted := old[pk]
		if !noted {
			return nil // a row at a noted rowid, under a key this transaction did not write
		}
		delete(old, pk)
		if seal == nil {
			return fmt.Errorf("ledger: %w: table %s row %s was committed without a seal (%s): written behind the table server's back, with the seal's triggers dropped or their notes removed; the server refuses to seal over it. Stop the table server and run `tableserver verify`, which names what is wrong", ErrTampered, st.name, pk, describe(cols, vals))
		}
		mac, err := m.rowMAC(st.name, pk, cols, vals)
		if err != nil {
			return err
		}
		if !hmac.Equal(mac, seal) {
			return fmt.Errorf("ledger: %w: table %s row %s does not match its seal as last committed (%s): it was changed behind the table server's back, with the seal's triggers dropped or their notes removed; the server refuses to seal over it. Stop the table server and run `tableserver verify`, which names what is wrong", ErrTampered, st.name, pk, describe(cols, vals))
		}
		return nil
	}
	if err := s.preRows(ctx, pre, st, ds, check); err != nil {
		if errors.Is(err, ErrTampered) {
			return err
		}
		return fmt.Errorf("ledger: seal: the rows of %s as last committed: %w", st.name, err)
	}
	// The keys left have no committed row where the notes looked. Without an old seal, that is
	// a row this transaction inserted. With one, on SQLite, the row may still be there at
	// another rowid (an UPDATE that sets rowid keeps its key and its seal): it is looked for by
	// its key, a scan of the table, as only a sealed row not at any rowid noted for it comes
	// here. Otherwise it was deleted without the key. In the notes' order, so the error names
	// the same row every time.
	for _, d := range ds {
		seal, left := old[d.pk]
		if !left || seal == nil {
			continue
		}
		if s.d != dialectPostgres && len(st.keyCols) > 0 {
			if err := s.preRowByKey(ctx, pre, st, d.pk, check); err != nil {
				if errors.Is(err, ErrTampered) {
					return err
				}
				return fmt.Errorf("ledger: seal: the row %s %s as last committed: %w", st.name, d.pk, err)
			}
			if _, left = old[d.pk]; !left {
				continue // found, and it matched
			}
		}
		return fmt.Errorf("ledger: %w: table %s row %s is sealed but was deleted behind the table server's back, with the seal's triggers dropped or their notes removed; the server refuses to seal over it. Stop the table server and run `tableserver verify`, which names what is wrong", ErrTampered, st.name, d.pk)
	}
	return nil
}

// preRows reads the committed rows of one table at the notes ds, and hands each to fn.
//
// SQLite: by the rowids noted, one statement (the rowids a JSON array). Every committed row
// this transaction updated or deleted is noted at its committed rowid (the update's new row
// keeps it unless rowid itself is set; a moved key notes the row before too), so its pre-image
// is found there, and a row found there counts under its own key, whichever note found it. A
// noted key not found is one the transaction inserted — a committed row under that key could
// only have been replaced (REPLACE, which the ledger never uses) — or one whose rowid alone
// moved (checkTable looks for it by key). Rowids above the table's largest committed one are
// not looked for: no committed row is there. They are the rows the transaction inserted — a
// settlement's 1,000 — and looking for them was a third of the check's time.
//
// PostgreSQL: by the noted keys' values, one statement, each key found by the primary key
// (LATERAL ... OFFSET 0, as readRows).
func (s *sealer) preRows(ctx context.Context, pre *preReader, st sealed, ds []dirty, fn func(pk string, cols []string, vals []any) error) error {
	var q string
	var arg any
	if s.d == dialectPostgres {
		on := make([]string, len(st.cols))
		for i, c := range st.cols {
			on[i] = fmt.Sprintf("t.%s = CAST(d.pkv::json->>%d AS %s)", quoteIdent(c), i, st.types[i])
		}
		pkvs := make([]string, 0, len(ds))
		seen := make(map[string]bool, len(ds))
		for _, d := range ds {
			if !seen[d.pkv] {
				seen[d.pkv] = true
				pkvs = append(pkvs, d.pkv)
			}
		}
		q = `SELECT ` + st.pkExpr("t") + `, t.* FROM unnest(CAST(? AS text[])) d(pkv)
			CROSS JOIN LATERAL (SELECT * FROM ` + st.from() + ` t WHERE ` + strings.Join(on, " AND ") + ` OFFSET 0) t`
		arg = pkvs
	} else {
		var top sql.NullInt64
		rows, err := pre.query(ctx, s.d, `SELECT max(rowid) FROM `+st.from())
		if err != nil {
			return err
		}
		if rows.Next() {
			err = rows.Scan(&top)
		}
		rows.Close()
		if err != nil {
			return err
		}
		var b strings.Builder
		b.WriteByte('[')
		n := 0
		for _, d := range ds {
			if !top.Valid || d.rid > top.Int64 {
				continue
			}
			if n > 0 {
				b.WriteByte(',')
			}
			n++
			b.WriteString(strconv.FormatInt(d.rid, 10))
		}
		if n == 0 {
			return nil
		}
		b.WriteByte(']')
		q = `SELECT ` + strings.ReplaceAll(st.pk, "quote(", "quote(t.") + `, t.* FROM ` + st.from() + ` t
			WHERE t.rowid IN (SELECT value FROM json_each(?))`
		arg = b.String()
	}
	rows, err := pre.query(ctx, s.d, q, arg)
	if err != nil {
		return err
	}
	return preEach(rows, fn)
}

// preEach hands each row of rows to fn — its key text, column names and values — and closes
// rows. The names are read once, and one buffer of values serves every row: fn MACs a row
// before the next is scanned over it.
func preEach(rows *sql.Rows, fn func(pk string, cols []string, vals []any) error) error {
	defer rows.Close()
	names, err := rows.Columns()
	if err != nil {
		return preErr(err)
	}
	vals := make([]any, len(names))
	ptrs := make([]any, len(names))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		clear(vals)
		if err := rows.Scan(ptrs...); err != nil {
			return preErr(err)
		}
		pk, _ := vals[0].(string)
		if err := fn(pk, names[1:], vals[1:]); err != nil {
			return err
		}
	}
	return preErr(rows.Err())
}

// preRowByKey hands the committed row of SQLite table st with key text pk, if there is one, to
// fn: a scan of the table (checkTable says when).
func (s *sealer) preRowByKey(ctx context.Context, pre *preReader, st sealed, pk string, fn func(pk string, cols []string, vals []any) error) error {
	rows, err := pre.query(ctx, s.d, `SELECT `+st.pk+`, * FROM `+st.from()+` WHERE `+st.pk+` = ?`, pk)
	if err != nil {
		return err
	}
	return preEach(rows, fn)
}
