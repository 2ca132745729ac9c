// Package pgtest gives tests a throwaway PostgreSQL: one cluster per test binary (initdb and
// pg_ctl in a temporary directory, listening only on a unix socket there, fsync off), started
// by the first test that asks and stopped by Main when the package's tests end, and a fresh
// database per test, dropped after it. Starting a cluster takes about a second, a database a
// few milliseconds, so a package's tests share the one.
//
// Tests that need PostgreSQL call DSN; a package that uses it runs its tests through Main:
//
//	func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }
//
// Where PostgreSQL is not installed the test is skipped, saying so, unless the environment
// says ATS_REQUIRE_POSTGRES=1 (packaging/test.sh does): then it fails, so a CI machine that
// lost its PostgreSQL cannot pass by skipping. initdb refuses to run as root; as root the
// cluster is run as the postgres system user (made by Debian's postgresql package) with
// runuser.
package pgtest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // database/sql driver "pgx"
)

// RequireEnv is the environment variable that turns a missing PostgreSQL into a failure.
const RequireEnv = "ATS_REQUIRE_POSTGRES"

// cluster is the package's running cluster.
type cluster struct {
	dir    string // temporary directory: data/, the socket, the log
	bin    string // directory of initdb, pg_ctl
	asUser string // "postgres" when run by root, else ""
	admin  *sql.DB
}

var (
	mu       sync.Mutex
	running  *cluster
	startErr error
	missing  string // why PostgreSQL is not available, when it is not installed
	inMain   bool   // the package's tests run through Main, which stops the cluster
)

// Main runs the package's tests and stops the cluster, if one was started, when they end.
func Main(m *testing.M) int {
	mu.Lock()
	inMain = true
	mu.Unlock()
	code := m.Run()
	Stop()
	return code
}

// Stop stops the cluster (Main does it); the next DSN starts another.
func Stop() {
	mu.Lock()
	defer mu.Unlock()
	if running == nil {
		return
	}
	running.admin.Close()
	running.pgctl("-m", "immediate", "stop") //nolint:errcheck // best effort: the directory goes anyway
	os.RemoveAll(running.dir)
	running = nil
}

const ownerFile = "owner.pid"

// sweep stops the clusters this package left behind in test processes that have died: a
// temporary directory of ours whose owner process is gone. Directories without an owner file
// are not ours to touch.
func sweep() {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), "pgtest*"))
	for _, dir := range dirs {
		b, err := os.ReadFile(filepath.Join(dir, ownerFile))
		if err != nil {
			continue
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil || pid <= 0 || processAlive(pid) {
			continue
		}
		bin, err := binDir()
		if err != nil {
			return
		}
		c := &cluster{dir: dir, bin: bin}
		if st, err := os.Stat(dir); err == nil && os.Geteuid() == 0 && ownerUID(st) != 0 {
			c.asUser = "postgres"
		}
		if _, err := os.Stat(filepath.Join(dir, "data", "postmaster.pid")); err == nil {
			c.pgctl("-m", "immediate", "stop") //nolint:errcheck // best effort
		}
		os.RemoveAll(dir)
	}
}

// binDir finds the directory of PostgreSQL's server programs: initdb on $PATH, else the newest
// of Debian's /usr/lib/postgresql/<version>/bin.
func binDir() (string, error) {
	if p, err := exec.LookPath("initdb"); err == nil {
		if _, err := exec.LookPath("pg_ctl"); err == nil {
			return filepath.Dir(p), nil
		}
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return version(dirs[i]) > version(dirs[j]) })
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "initdb")); err == nil {
			return d, nil
		}
	}
	return "", errors.New("PostgreSQL's initdb and pg_ctl are neither on $PATH nor in /usr/lib/postgresql/*/bin (packaging/setup.sh installs Debian's postgresql)")
}

func version(binDir string) int {
	v, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return v
}

func (c *cluster) run(name string, args ...string) error {
	prog := filepath.Join(c.bin, name)
	var cmd *exec.Cmd
	if c.asUser != "" {
		cmd = exec.Command("runuser", append([]string{"-u", c.asUser, "--", prog}, args...)...)
	} else {
		cmd = exec.Command(prog, args...)
	}
	cmd.Dir = c.dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s %v: %w\n%s", name, args, err, out)
	}
	return nil
}

func (c *cluster) pgctl(args ...string) error {
	return c.run("pg_ctl", append([]string{"-D", filepath.Join(c.dir, "data"), "-w", "-t", "60"}, args...)...)
}

func (c *cluster) socket() string { return filepath.Join(c.dir, "sock") }

// start makes and starts a cluster. Its directory is under /tmp with a short name: a unix
// socket's path has a limit of about a hundred bytes.
func start() (*cluster, error) {
	bin, err := binDir()
	if err != nil {
		missing = err.Error()
		return nil, err
	}
	dir, err := os.MkdirTemp("", "pgtest")
	if err != nil {
		return nil, err
	}
	c := &cluster{dir: dir, bin: bin}
	// Who owns the cluster: a test process killed before Main could stop it (a timeout's
	// panic, SIGKILL) leaves it running, and the next start stops it (sweep).
	if err := os.WriteFile(filepath.Join(dir, ownerFile), []byte(strconv.Itoa(os.Getpid())), 0o644); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	fail := func(err error) (*cluster, error) {
		if b, rerr := os.ReadFile(filepath.Join(dir, "log")); rerr == nil {
			err = fmt.Errorf("%w\nserver log:\n%s", err, b)
		}
		os.RemoveAll(dir)
		return nil, fmt.Errorf("pgtest: %w", err)
	}
	if err := os.Mkdir(c.socket(), 0o700); err != nil {
		return fail(err)
	}
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			return fail(fmt.Errorf("running as root, the cluster runs as the postgres user, which does not exist (Debian's postgresql package makes it): %w", err))
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		for _, p := range []string{dir, c.socket()} {
			if err := os.Chown(p, uid, gid); err != nil {
				return fail(err)
			}
		}
		c.asUser = "postgres"
	}
	data := filepath.Join(dir, "data")
	if err := c.run("initdb", "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync"); err != nil {
		return fail(err)
	}
	// Settings for a test cluster: no TCP, the socket in our directory, no durability (the
	// tests do not crash the cluster), room for the race tests' connections.
	conf := fmt.Sprintf("\nlisten_addresses = ''\nunix_socket_directories = '%s'\nfsync = off\nsynchronous_commit = off\nfull_page_writes = off\nmax_connections = 300\nshared_buffers = 32MB\n", c.socket())
	f, err := os.OpenFile(filepath.Join(data, "postgresql.conf"), os.O_APPEND|os.O_WRONLY, 0)
	if err == nil {
		_, err = f.WriteString(conf)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		return fail(err)
	}
	if err := c.pgctl("-l", filepath.Join(dir, "log"), "start"); err != nil {
		return fail(err)
	}
	c.admin, err = sql.Open("pgx", c.dsn("postgres"))
	if err == nil {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		err = c.admin.PingContext(ctx)
		cancel()
	}
	if err != nil {
		c.pgctl("-m", "immediate", "stop") //nolint:errcheck // failing anyway
		return fail(err)
	}
	return c, nil
}

func (c *cluster) dsn(db string) string {
	return "postgres://postgres@/" + db + "?host=" + c.socket() + "&sslmode=disable"
}

// DSN returns the address of a new, empty database for the test (dropped when it ends),
// starting the package's cluster if it is not running. Without PostgreSQL installed the test
// is skipped (failed under ATS_REQUIRE_POSTGRES=1).
func DSN(t testing.TB) string {
	t.Helper()
	mu.Lock()
	if !inMain {
		mu.Unlock()
		// Without Main nothing stops the cluster when the tests end: it would outlive them.
		t.Fatal("pgtest: the package's tests must run through pgtest.Main: func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }")
	}
	if running == nil && startErr == nil {
		sweep()
		running, startErr = start()
	}
	c, err := running, startErr
	mu.Unlock()
	if err != nil {
		if missing != "" && os.Getenv(RequireEnv) != "1" {
			t.Skipf("PostgreSQL is not installed, so this test does not run: %s (set %s=1 to make that a failure)", missing, RequireEnv)
		}
		t.Fatalf("PostgreSQL test cluster: %v", err)
	}
	var b [6]byte
	rand.Read(b[:])
	name := "t_" + hex.EncodeToString(b[:])
	if _, err := c.admin.Exec(`CREATE DATABASE ` + name); err != nil {
		t.Fatalf("pgtest: create database: %v", err)
	}
	t.Cleanup(func() {
		// FORCE: a connection the test left open must not keep its database alive.
		if _, err := c.admin.Exec(`DROP DATABASE IF EXISTS ` + name + ` WITH (FORCE)`); err != nil {
			t.Errorf("pgtest: drop database %s: %v", name, err)
		}
	})
	return c.dsn(name)
}

// Available reports whether DSN can give a database (PostgreSQL is installed), without
// starting anything: for table-driven tests that list the stores to run on.
func Available() bool {
	if os.Getenv(RequireEnv) == "1" {
		return true
	}
	_, err := binDir()
	return err == nil
}

// Temp starts a cluster of its own for a program that is not a test (loadgen's -pg-temp) and
// returns the address of an empty database on it and a function that stops the cluster and
// removes its directory. Unlike the tests' cluster it is durable (fsync, synchronous commit,
// full page writes on, as a floor's database is): what a program measures on it is what a
// commit costs.
func Temp() (dsn string, stop func(), err error) {
	c, err := start()
	if err != nil {
		return "", nil, err
	}
	stop = func() {
		c.admin.Close()
		c.pgctl("-m", "immediate", "stop") //nolint:errcheck // best effort: the directory goes anyway
		os.RemoveAll(c.dir)
	}
	for _, q := range []string{`ALTER SYSTEM SET fsync = on`, `ALTER SYSTEM SET synchronous_commit = on`,
		`ALTER SYSTEM SET full_page_writes = on`, `SELECT pg_reload_conf()`, `CREATE DATABASE temp`} {
		if _, err := c.admin.Exec(q); err != nil {
			stop()
			return "", nil, fmt.Errorf("pgtest: %s: %w", q, err)
		}
	}
	return c.dsn("temp"), stop, nil
}

// processAlive reports whether a process exists (signal 0: nothing is sent).
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

func ownerUID(st os.FileInfo) uint32 {
	if s, ok := st.Sys().(*syscall.Stat_t); ok {
		return s.Uid
	}
	return 0
}
