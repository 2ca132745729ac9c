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

// committedRow is a pre-image: a row as last committed.
type committedRow struct {
	cols []string
	vals []any
}

// checkPreimages checks every row the transaction noted in scope sc (ds, with their old seals)
// against its pre-image, as above. It uses its own macer: it runs beside sealScope's.
func (s *sealer) checkPreimages(ctx context.Context, pre *preReader, sc *scope, ds []dirty) error {
	type key struct{ tbl, pk string }
	committed := map[key]committedRow{}
	var order []key
	old := map[key][]byte{}
	byTable := map[string][]dirty{}
	var tables []string
	for _, d := range ds {
		k := key{d.tbl, d.pk}
		if _, seen := old[k]; !seen {
			order = append(order, k)
			old[k] = d.old
		}
		if _, seen := byTable[d.tbl]; !seen {
			tables = append(tables, d.tbl)
		}
		byTable[d.tbl] = append(byTable[d.tbl], d)
	}
	for _, tbl := range tables {
		st, ok := s.byName[tbl]
		if !ok || st.scope != sc {
			return fmt.Errorf("ledger: seal: a write to table %s, which is not sealed", tbl)
		}
		rows, err := s.preRows(ctx, pre, st, byTable[tbl])
		if err != nil {
			return fmt.Errorf("ledger: seal: the rows of %s as last committed: %w", tbl, err)
		}
		for pk, r := range rows {
			committed[key{tbl, pk}] = r
		}
	}
	m := sc.macer()
	for _, k := range order {
		r, found := committed[k]
		st := s.byName[k.tbl]
		if !found && old[k] != nil && s.d != dialectPostgres && len(st.keyCols) > 0 {
			// On SQLite the row was looked for at the rowids the transaction noted. A row
			// whose rowid alone moved since (an UPDATE that sets rowid keeps its key and its
			// seal) is elsewhere: it is looked for by its key. Rare, so by the key's text.
			var err error
			if r, found, err = s.preRowByKey(ctx, pre, st, k.pk); err != nil {
				return fmt.Errorf("ledger: seal: the row %s %s as last committed: %w", k.tbl, k.pk, err)
			}
		}
		switch {
		case found && old[k] != nil:
			mac, err := m.rowMAC(k.tbl, k.pk, r.cols, r.vals)
			if err != nil {
				return err
			}
			if !hmac.Equal(mac, old[k]) {
				return fmt.Errorf("ledger: %w: table %s row %s does not match its seal as last committed (%s): it was changed behind the table server's back, with the seal's triggers dropped or their notes removed; the server refuses to seal over it. Stop the table server and run `tableserver verify`, which names what is wrong", ErrTampered, k.tbl, k.pk, describe(r.cols, r.vals))
			}
		case found:
			return fmt.Errorf("ledger: %w: table %s row %s was committed without a seal (%s): written behind the table server's back, with the seal's triggers dropped or their notes removed; the server refuses to seal over it. Stop the table server and run `tableserver verify`, which names what is wrong", ErrTampered, k.tbl, k.pk, describe(r.cols, r.vals))
		case old[k] != nil:
			return fmt.Errorf("ledger: %w: table %s row %s is sealed but was deleted behind the table server's back, with the seal's triggers dropped or their notes removed; the server refuses to seal over it. Stop the table server and run `tableserver verify`, which names what is wrong", ErrTampered, k.tbl, k.pk)
		}
	}
	return nil
}

// preRows reads the committed rows of one table at the notes ds, by key text.
//
// SQLite: by the rowids noted, one statement (the rowids a JSON array). Every committed row
// this transaction updated or deleted is noted at its committed rowid (the update's new row
// keeps it unless rowid itself is set; a moved key notes the row before too), so its pre-image
// is found there, and a row found there counts under its own key, whichever note found it. A
// noted key not found is one the transaction inserted — a committed row under that key could
// only have been replaced (REPLACE, which the ledger never uses) — or one whose rowid alone
// moved (checkPreimages looks for it by key).
//
// PostgreSQL: by the noted keys' values, one statement, each key found by the primary key
// (LATERAL ... OFFSET 0, as readRows).
func (s *sealer) preRows(ctx context.Context, pre *preReader, st sealed, ds []dirty) (map[string]committedRow, error) {
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
		var b strings.Builder
		b.WriteByte('[')
		seen := make(map[int64]bool, len(ds))
		for _, d := range ds {
			if seen[d.rid] {
				continue
			}
			if len(seen) > 0 {
				b.WriteByte(',')
			}
			seen[d.rid] = true
			b.WriteString(strconv.FormatInt(d.rid, 10))
		}
		b.WriteByte(']')
		q = `SELECT ` + strings.ReplaceAll(st.pk, "quote(", "quote(t.") + `, t.* FROM ` + st.from() + ` t
			WHERE t.rowid IN (SELECT value FROM json_each(?))`
		arg = b.String()
	}
	rows, err := pre.query(ctx, s.d, q, arg)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := make(map[string]committedRow, len(ds))
	for rows.Next() {
		pk, cols, vals, err := scanSealed(rows)
		if err != nil {
			return nil, preErr(err)
		}
		out[pk] = committedRow{cols, vals}
	}
	return out, preErr(rows.Err())
}

// preRowByKey finds a committed row on SQLite by its key's text (a scan of the table: it is
// only looked for so when a sealed row is not at any rowid the transaction noted for it).
func (s *sealer) preRowByKey(ctx context.Context, pre *preReader, st sealed, pk string) (committedRow, bool, error) {
	rows, err := pre.query(ctx, s.d, `SELECT `+st.pk+`, * FROM `+st.from()+` WHERE `+st.pk+` = ?`, pk)
	if err != nil {
		return committedRow{}, false, err
	}
	defer rows.Close()
	if !rows.Next() {
		return committedRow{}, false, rows.Err()
	}
	_, cols, vals, err := scanSealed(rows)
	if err != nil {
		return committedRow{}, false, err
	}
	return committedRow{cols, vals}, true, nil
}
