package server

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/tablegames/ats/internal/pgtest"
	"github.com/tablegames/ats/server/pki"
)

// The server's tests that need PostgreSQL share one throwaway cluster (internal/pgtest),
// stopped when the package's tests end.
func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// newPGRig is newRigWith on a PostgreSQL ledger: the table's rows in schema table_<id> of
// database dsn, sealed under keyPath (the floor's key when tables share the database).
func newPGRig(t testing.TB, dsn, keyPath string, config func(*Config), opts ...Option) *rig {
	t.Helper()
	m, err := pki.NewMemory()
	if err != nil {
		t.Fatal(err)
	}
	r := &rig{t: t, clock: &fakeClock{t: time.Date(2026, 11, 22, 20, 0, 0, 0, time.UTC)}, pki: m,
		dbPath: dsn, keyPath: keyPath, config: config, grpcOpts: opts}
	r.start()
	t.Cleanup(r.shutdown)
	return r
}

// bothStores runs a table test on a SQLite ledger and on a PostgreSQL one (skipped, saying
// why, where PostgreSQL is not installed, unless ATS_REQUIRE_POSTGRES=1).
func bothStores(t *testing.T, fn func(t *testing.T, r *rig)) { bothStoresWith(t, nil, fn) }

// bothStoresWith is bothStores on a table changed by config.
func bothStoresWith(t *testing.T, config func(*Config), fn func(t *testing.T, r *rig)) {
	t.Run("sqlite", func(t *testing.T) { fn(t, newRigWith(t, config)) })
	t.Run("postgres", func(t *testing.T) {
		fn(t, newPGRig(t, pgtest.DSN(t), filepath.Join(t.TempDir(), "floor.key"), config))
	})
}
