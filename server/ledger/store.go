package ledger

// The two stores behind the one Ledger. SQLite (Open, OpenWith) is the default: one file per
// table server, nothing else to run. PostgreSQL (OpenStore with a postgres:// DSN) is for a
// floor of tables sharing one ticket and money store: one database, each table server's own
// rows in its schema table_<id>, the rows the floor shares — tickets and every cage_* and
// floor_* table — in schema floor, and the connection's search_path "table_<id>, floor", so
// the ledger's SQL is the same text on both: unqualified names, ? placeholders (rewritten to
// $n for PostgreSQL by the connection, once per query text), portable upserts.
//
// What differs is kept here: the DDL (translated from the one schema text: BIGINT for
// INTEGER, BYTEA for BLOB, BIGSERIAL for the events' seq, the floor's tables in schema floor),
// the catalogue queries (migrate.go, seal.go), and on PostgreSQL the row lock a ticket read
// takes inside an Update and Update's retry of a transaction the database aborted to keep
// concurrent tables apart (a deadlock or serialization failure): the whole fn runs again.

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
)

// dialect is the store a Ledger is on.
type dialect int

const (
	dialectSQLite dialect = iota
	dialectPostgres
)

func (d dialect) String() string {
	if d == dialectPostgres {
		return "postgres"
	}
	return "sqlite"
}

// FloorSchema is the PostgreSQL schema of the rows a floor's table servers share.
const FloorSchema = "floor"

// StoreConfig says which store to open.
type StoreConfig struct {
	// DSN is a postgres:// (or postgresql://) URL for PostgreSQL; anything else is the path of
	// a SQLite file.
	DSN string
	// TableID is the table server's table id (e.g. "T1"): on PostgreSQL its rows live in
	// schema table_<id> (lower case, [a-z0-9_]). Required for PostgreSQL.
	TableID string
	// KeyPath is the ledger key file. On SQLite "" means beside the file (KeyPath); on
	// PostgreSQL it is required.
	KeyPath string
	// FloorKeyPath is the key the floor's shared rows are sealed under on PostgreSQL: the same
	// file for every table server of the floor. "" means KeyPath (every table server of the
	// floor is then given the same key file).
	FloorKeyPath string
	// MustExist refuses to make a ledger that is not there yet (offline commands such as
	// tableserver verify): no SQLite file, or no schema for the table on PostgreSQL.
	MustExist bool
	// reseal is set by Reseal only: the operator's order to seal the table's rows as they stand.
	reseal *resealOrder
}

// IsPostgres reports whether dsn names a PostgreSQL database rather than a SQLite file.
func IsPostgres(dsn string) bool {
	return strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://")
}

// SchemaOf is the PostgreSQL schema of a table server's own rows: table_ and its table id in
// lower case, every character but [a-z0-9_] made _.
func SchemaOf(tableID string) string {
	var b strings.Builder
	b.WriteString("table_")
	for _, r := range strings.ToLower(tableID) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') || r == '_' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}

// OpenStore opens the ledger cfg names: SQLite as OpenWith does, or PostgreSQL.
func OpenStore(ctx context.Context, cfg StoreConfig) (*Ledger, error) {
	if !IsPostgres(cfg.DSN) {
		if cfg.MustExist {
			if _, err := os.Stat(cfg.DSN); err != nil {
				return nil, fmt.Errorf("ledger: %w", err)
			}
		}
		return openSQLite(cfg.DSN, cfg.KeyPath, cfg.reseal)
	}
	return openPostgres(ctx, cfg)
}

// placeholders rewrites a query's ? placeholders to PostgreSQL's $1, $2, …, leaving those in
// string literals, quoted identifiers and comments alone. Results are cached by query text:
// the ledger runs a few dozen distinct texts, millions of times.
var placeholders sync.Map // query text -> rewritten

func rewrite(q string) string {
	if r, ok := placeholders.Load(q); ok {
		return r.(string)
	}
	if !strings.Contains(q, "?") {
		placeholders.Store(q, q)
		return q
	}
	var b strings.Builder
	n := 0
	for i := 0; i < len(q); i++ {
		c := q[i]
		switch c {
		case '\'', '"':
			j := i + 1
			for j < len(q) {
				if q[j] == c {
					if j+1 < len(q) && q[j+1] == c { // doubled quote inside
						j += 2
						continue
					}
					break
				}
				j++
			}
			b.WriteString(q[i:min(j+1, len(q))])
			i = j
		case '-':
			if i+1 < len(q) && q[i+1] == '-' {
				j := strings.IndexByte(q[i:], '\n')
				if j < 0 {
					j = len(q) - i
				}
				b.WriteString(q[i : i+j])
				i += j - 1
			} else {
				b.WriteByte(c)
			}
		case '?':
			// ?NNN is SQLite's numbered parameter, $NNN; a bare ? is the one after the
			// highest so far, as SQLite numbers them.
			j := i + 1
			for j < len(q) && q[j] >= '0' && q[j] <= '9' {
				j++
			}
			if j > i+1 {
				if v, err := strconv.Atoi(q[i+1 : j]); err == nil {
					n = max(n, v)
				}
				b.WriteByte('$')
				b.WriteString(q[i+1 : j])
				i = j - 1
				continue
			}
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
		default:
			b.WriteByte(c)
		}
	}
	r := b.String()
	placeholders.Store(q, r)
	return r
}

// pgConnector makes the ledger's PostgreSQL connections: pgx's, with the placeholders
// rewritten and bool arguments sent as the 0/1 integers the schema stores them as (as SQLite
// does), so the same Go code writes both.
type pgConnector struct{ inner driver.Connector }

func (c pgConnector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	sc, ok := conn.(*stdlib.Conn)
	if !ok {
		conn.Close()
		return nil, fmt.Errorf("ledger: unexpected PostgreSQL connection %T", conn)
	}
	return pgConn{sc}, nil
}

func (c pgConnector) Driver() driver.Driver { return c.inner.Driver() }

// pgConn embeds pgx's connection (and so every optional interface it has) and rewrites what
// passes through.
type pgConn struct{ *stdlib.Conn }

func (c pgConn) Prepare(q string) (driver.Stmt, error) { return c.Conn.Prepare(rewrite(q)) }
func (c pgConn) PrepareContext(ctx context.Context, q string) (driver.Stmt, error) {
	return c.Conn.PrepareContext(ctx, rewrite(q))
}
func (c pgConn) ExecContext(ctx context.Context, q string, args []driver.NamedValue) (driver.Result, error) {
	return c.Conn.ExecContext(ctx, rewrite(q), args)
}
func (c pgConn) QueryContext(ctx context.Context, q string, args []driver.NamedValue) (driver.Rows, error) {
	return c.Conn.QueryContext(ctx, rewrite(q), args)
}
func (c pgConn) CheckNamedValue(v *driver.NamedValue) error {
	if b, ok := v.Value.(bool); ok {
		v.Value = int64(0)
		if b {
			v.Value = int64(1)
		}
	}
	return nil
}

// retryable reports whether PostgreSQL aborted a transaction only to keep it apart from a
// concurrent one (serialization failure, deadlock, or the seal's pre-image read waiting on a
// lock that waits on the transaction: errPreimageLocked): running it again is safe and right.
func retryable(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && (pe.Code == "40001" || pe.Code == "40P01") || errors.Is(err, errPreimageLocked)
}

// maxAttempts bounds Update's retries of a transaction PostgreSQL aborted for a concurrent
// one: each retry waits on the rows the other holds, so a handful is plenty.
const maxAttempts = 10

// retryPause waits before attempt+1 of a transaction: up to attempt × 5 ms, at random.
func retryPause(ctx context.Context, attempt int) error {
	d := time.Duration(1+rand.Int64N(int64(attempt)*5000)) * time.Microsecond
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d):
		return nil
	}
}

var (
	createTableRE = regexp.MustCompile(`(?s)CREATE TABLE IF NOT EXISTS (\w+) \((.*?)\n\);`)
	integerRE     = regexp.MustCompile(`\bINTEGER\b`)
)

// floorTable reports whether a table is one the floor shares (schema floor on PostgreSQL).
func floorTable(name string) bool {
	return name == "tickets" || strings.HasPrefix(name, "cage_") || strings.HasPrefix(name, "floor_")
}

// pgType translates a SQLite column declaration to PostgreSQL's.
func pgType(decl string) string {
	decl = strings.ReplaceAll(decl, "INTEGER PRIMARY KEY AUTOINCREMENT", "BIGSERIAL PRIMARY KEY")
	decl = integerRE.ReplaceAllString(decl, "BIGINT")
	return strings.ReplaceAll(decl, "BLOB", "BYTEA")
}

// pgTickets is the floor's ticket table: SQLite's columns, the ones a floor needs (who printed
// it, who holds it, where, by whom and when it was redeemed), and the ticket number unique per
// issuing table, as each table numbers its own. The issuer is by default the table of the
// connection that inserts it (ats.table_id, set for each connection by OpenStore).
const pgTickets = `
CREATE TABLE IF NOT EXISTS floor.tickets (
	validation     TEXT PRIMARY KEY,
	number         BIGINT NOT NULL,
	terminal       TEXT NOT NULL,
	amount         BIGINT NOT NULL CHECK (amount > 0),
	issued         BIGINT NOT NULL,
	expires        BIGINT NOT NULL,
	state          TEXT NOT NULL,
	holder         TEXT NOT NULL,
	held_at        BIGINT NOT NULL DEFAULT 0,
	issuer_table   TEXT NOT NULL DEFAULT COALESCE(current_setting('ats.table_id', true), ''),
	holder_table   TEXT NOT NULL DEFAULT '',
	redeemed_where TEXT NOT NULL DEFAULT '',
	redeemed_by    TEXT NOT NULL DEFAULT '',
	redeemed_at    BIGINT NOT NULL DEFAULT 0,
	UNIQUE (issuer_table, number)
);
CREATE TABLE IF NOT EXISTS floor.cage_payments (
	id         TEXT PRIMARY KEY,
	validation TEXT NOT NULL UNIQUE,
	cashier    TEXT NOT NULL,
	amount     BIGINT NOT NULL CHECK (amount > 0),
	at         BIGINT NOT NULL,
	via_table  TEXT NOT NULL
);
`

// pgSchema is the PostgreSQL DDL of the ledger's tables: the same schema text, translated,
// tickets as pgTickets, and any other floor table put in schema floor.
func pgSchema(sqlite string) string {
	var b strings.Builder
	b.WriteString(pgTickets)
	rest := createTableRE.ReplaceAllStringFunc(sqlite, func(m string) string {
		sub := createTableRE.FindStringSubmatch(m)
		name, body := sub[1], sub[2]
		if name == "tickets" || (floorTable(name) && strings.Contains(pgTickets, "floor."+name+" ")) {
			return ""
		}
		if floorTable(name) {
			name = FloorSchema + "." + name
		}
		return "CREATE TABLE IF NOT EXISTS " + name + " (" + pgType(body) + "\n);"
	})
	b.WriteString(rest)
	return b.String()
}

// pgSealSchema is the seal's own tables in one schema (seal.go): the dirty rows are noted by
// their primary key and the transaction that wrote them.
func pgSealSchema(schema string) string {
	return fmt.Sprintf(`
CREATE TABLE IF NOT EXISTS %[1]s.seal_rows (
	tbl TEXT NOT NULL,
	pk  TEXT NOT NULL,
	mac BYTEA NOT NULL,
	PRIMARY KEY (tbl, pk)
);
CREATE TABLE IF NOT EXISTS %[1]s.seal_head (
	id    BIGINT PRIMARY KEY CHECK (id = 1),
	rows  BIGINT NOT NULL,
	agg   BYTEA NOT NULL,
	mac   BYTEA NOT NULL,
	since BIGINT NOT NULL,
	n     BIGINT NOT NULL DEFAULT 0
);
ALTER TABLE %[1]s.seal_head ADD COLUMN IF NOT EXISTS n BIGINT NOT NULL DEFAULT 0;
CREATE TABLE IF NOT EXISTS %[1]s.seal_dirty (
	tbl TEXT NOT NULL,
	pk  TEXT NOT NULL,
	pkv TEXT NOT NULL,
	tx  BIGINT NOT NULL DEFAULT txid_current()
);
CREATE INDEX IF NOT EXISTS seal_dirty_tx ON %[1]s.seal_dirty(tx);
-- A round's seals as one range of bytes, whatever the collation (checkReadAll).
CREATE INDEX IF NOT EXISTS seal_rows_prefix ON %[1]s.seal_rows(tbl, pk text_pattern_ops);
`, schema)
}

// openPostgres opens a table server's ledger in a floor's PostgreSQL database.
func openPostgres(ctx context.Context, cfg StoreConfig) (*Ledger, error) {
	if cfg.TableID == "" {
		return nil, errors.New("ledger: a PostgreSQL ledger needs the table id (its rows live in schema table_<id>)")
	}
	if cfg.KeyPath == "" {
		return nil, fmt.Errorf("ledger: a PostgreSQL ledger needs a %w file (-ledger-key)", ErrKey)
	}
	if cfg.FloorKeyPath == "" {
		cfg.FloorKeyPath = cfg.KeyPath
	}
	pc, err := pgx.ParseConfig(cfg.DSN)
	if err != nil {
		return nil, fmt.Errorf("ledger: %s: %w", redact(cfg.DSN), err)
	}
	schema := SchemaOf(cfg.TableID)
	pc.RuntimeParams["search_path"] = schema + ", " + FloorSchema
	pc.RuntimeParams["ats.table_id"] = cfg.TableID
	// No statements prepared and kept on the server: a floor table another table server's
	// migration altered would fail every kept "SELECT *" of it ("cached plan must not change
	// result type"). Each query is parsed with its arguments in one round trip instead.
	pc.DefaultQueryExecMode = pgx.QueryExecModeExec
	db := sql.OpenDB(pgConnector{stdlib.GetConnector(*pc)})
	// One connection, as on SQLite: the engine serialises its writes anyway, and a table's
	// transactions then never wait on each other, only on other tables'.
	db.SetMaxOpenConns(1)
	l := &Ledger{db: db, dialect: dialectPostgres, schema: schema, tableID: cfg.TableID}
	fail := func(err error) (*Ledger, error) {
		db.Close()
		return nil, fmt.Errorf("ledger: %s (table %s): %w", redact(cfg.DSN), cfg.TableID, err)
	}
	if cfg.MustExist {
		var found bool
		if err := db.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = ?)`, schema).Scan(&found); err != nil {
			return fail(err)
		}
		if !found {
			return fail(fmt.Errorf("no ledger of table %s here (schema %s): check -table", cfg.TableID, schema))
		}
	}
	if err := l.createPostgres(ctx); err != nil {
		return fail(err)
	}
	seal, err := openSealPostgres(ctx, l, cfg)
	if err != nil {
		db.Close()
		return nil, err
	}
	l.seal = seal
	before, err := schemaOf(ctx, l)
	if err != nil {
		return fail(err)
	}
	applied, err := migrate(ctx, l)
	if err != nil {
		return fail(err)
	}
	if err := seal.migrated(ctx, l, before, applied); err != nil {
		return fail(err)
	}
	// The seal's pre-image check reads the rows as last committed on a session of its own
	// (sealpreimage.go): one more connection per table server. Its reads wait for no lock
	// longer than preLockTimeout (see preReader.query).
	rpc := pc.Copy()
	rpc.RuntimeParams["lock_timeout"] = preLockTimeout
	pdb := sql.OpenDB(pgConnector{stdlib.GetConnector(*rpc)})
	pdb.SetMaxOpenConns(1)
	l.pre = &preReader{db: pdb}
	return l, nil
}

// createPostgres makes the schemas and tables that are not there yet. The floor's servers may
// start together: an advisory lock takes them through it one at a time. The seal's triggers
// are replaced on tables the floor's running servers are writing (and a restarted server's old
// sessions may still hold until PostgreSQL has ended them): a deadlock with one of those is
// PostgreSQL keeping them apart, and the creation is run again, as Update runs a transaction
// again.
func (l *Ledger) createPostgres(ctx context.Context) error {
	for attempt := 1; ; attempt++ {
		err := l.createPostgresOnce(ctx)
		if !retryable(err) || attempt == maxAttempts {
			return err
		}
		if err := retryPause(ctx, attempt); err != nil { // as update pauses
			return err
		}
	}
}

func (l *Ledger) createPostgresOnce(ctx context.Context) error {
	tx, err := l.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback() //nolint:errcheck // no-op after Commit
	if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(hashtext('ats-ledger-schema'))`); err != nil {
		return err
	}
	ddl := `CREATE SCHEMA IF NOT EXISTS ` + FloorSchema + `; CREATE SCHEMA IF NOT EXISTS ` + l.schema + `;` +
		pgSchema(schema+anchorSchema+tournamentSchema+floorSchema+cardsSchema+cardOwnersSchema+cagePartsSchema+migrationsSchema) + pgSealSchema(l.schema) + pgSealSchema(FloorSchema)
	if _, err := tx.ExecContext(ctx, ddl); err != nil {
		return fmt.Errorf("creating the schema: %w", err)
	}
	return tx.Commit()
}

// redact drops a DSN's password from messages.
func redact(dsn string) string {
	if i := strings.Index(dsn, "://"); i >= 0 {
		if at := strings.LastIndex(dsn, "@"); at > i {
			if colon := strings.Index(dsn[i+3:at], ":"); colon >= 0 {
				return dsn[:i+3+colon] + ":…" + dsn[at:]
			}
		}
	}
	return dsn
}

// lockRow is what a read of a shared row inside an Update adds so it keeps the row until the
// commit: on PostgreSQL the row lock, so two tables taking one ticket go one after the other,
// the second reading what the first committed. SQLite has one writer: nothing to add.
func (l *Ledger) lockRow() string {
	if l.dialect == dialectPostgres {
		return " FOR UPDATE"
	}
	return ""
}

// Dialect names the store the ledger is on: "sqlite" or "postgres".
func (l *Ledger) Dialect() string { return l.dialect.String() }
