package pgtest

import (
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tablegames/ats/internal/testwait"
)

func TestMain(m *testing.M) { os.Exit(Main(m)) }

// Two tests get two databases of one cluster: what one creates, the other does not see.
func TestFreshDatabasePerTest(t *testing.T) {
	a, b := DSN(t), DSN(t)
	if a == b {
		t.Fatalf("one database for two callers: %s", a)
	}
	da, err := sql.Open("pgx", a)
	if err != nil {
		t.Fatal(err)
	}
	defer da.Close()
	if _, err := da.Exec(`CREATE TABLE x (v BIGINT); INSERT INTO x VALUES (7)`); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("pgx", b)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow(`SELECT COUNT(*) FROM pg_tables WHERE tablename = 'x'`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("the second database sees the first's table: %d %v", n, err)
	}
}

// A test process that dies before Main stops its cluster (a timeout's panic, SIGKILL) leaves
// the cluster running; the next start stops it and removes its directory.
func TestSweepStopsAClusterWhoseTestDied(t *testing.T) {
	if os.Getenv("PGTEST_CHILD") == "1" {
		c, err := start()
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		fmt.Println(c.dir)
		os.Exit(0) // dies without Stop
	}
	if !Available() {
		t.Skip("PostgreSQL is not installed")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestSweepStopsAClusterWhoseTestDied$")
	cmd.Env = append(os.Environ(), "PGTEST_CHILD=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("child: %v %s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	dir := lines[0]
	b, err := os.ReadFile(filepath.Join(dir, "data", "postmaster.pid"))
	if err != nil {
		t.Fatalf("the dead test's cluster is not running: %v", err)
	}
	pid, _ := strconv.Atoi(strings.SplitN(string(b), "\n", 2)[0])
	if cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid)); !strings.Contains(string(cmdline), dir) {
		t.Fatalf("postmaster %d of %s is not running: %q", pid, dir, cmdline)
	}
	sweep()
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("the dead test's directory is still there: %v", err)
	}
	if !testwait.For(10*time.Second, func() bool {
		cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		return !strings.Contains(string(cmdline), dir)
	}) {
		t.Fatalf("postmaster %d still runs", pid)
	}
}
