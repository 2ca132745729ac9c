package journal

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// appendN appends n records that open and close nothing, and fails the test on an error.
func appendN(t *testing.T, j *Journal, n int) {
	t.Helper()
	for i := range n {
		if _, err := j.Append(context.Background(), Record{Kind: "slip-acked", Round: fmt.Sprintf("r%d", i), Amount: 100}); err != nil {
			t.Fatal(err)
		}
	}
}

// A second writer on the same journal would fork the hash chain (the head is in the first
// one's memory): it is refused while the first is open, and free once it is closed.
func TestSecondOpenRefusedWhileOpen(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "terminal.db")
	j := open(t, path)
	appendN(t, j, 2)

	j2, err := Open(path, fixedClock())
	if err == nil {
		j2.Close()
		t.Fatal("a second writer opened the journal while the first had it")
	}
	if !errors.Is(err, ErrInUse) || !strings.Contains(err.Error(), "stop the terminal first") || !strings.HasPrefix(err.Error(), "journal: ") {
		t.Fatalf("second open: %v, want ErrInUse", err)
	}
	// The refusal left the first writer's lock and its chain alone.
	appendN(t, j, 1)
	if _, err := Open(path, fixedClock()); !errors.Is(err, ErrInUse) {
		t.Fatalf("third open: %v, want ErrInUse", err)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}

	j3 := open(t, path)
	r, err := j3.Append(ctx, Record{Kind: "settled", Round: "r9"})
	if err != nil || r.Seq != 4 {
		t.Fatalf("after the first closed: seq %d, %v; want 4", r.Seq, err)
	}
	// Close twice (a deferred Close after an explicit one) does not fail or release anything
	// twice.
	if err := j3.Close(); err != nil {
		t.Fatal(err)
	}
	if err := j3.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
}

// A technician reads a running terminal's journal read-only: it verifies, reads what the
// writer appends meanwhile, refuses to write, and leaves the writer's lock where it was.
func TestOpenReadOnlyWhileLocked(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "terminal.db")
	w := open(t, path)
	if _, err := w.Append(ctx, Record{Kind: "note-escrow", Key: "n1", Amount: 2000, Flow: "stacking"}); err != nil {
		t.Fatal(err)
	}
	appendN(t, w, 2)

	ro, err := OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	rs, err := ro.Records(ctx, 0, 0)
	if err != nil || len(rs) != 3 {
		t.Fatalf("read-only: %d records, %v; want 3", len(rs), err)
	}
	if fs, err := ro.Pending(ctx); err != nil || len(fs) != 1 || fs[0].Key != "n1" {
		t.Fatalf("read-only pending: %+v %v", fs, err)
	}
	if _, err := ro.Append(ctx, Record{Kind: "credited", Key: "n1", Amount: 2000, Flow: Done}); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("append on a read-only journal: %v, want ErrReadOnly", err)
	}
	// Not only Append: SQLite itself refuses a write on the connection.
	if _, err := ro.db.ExecContext(ctx, `DELETE FROM records`); err == nil {
		t.Fatal("the read-only connection deleted records")
	}

	// The writer goes on; the reader sees it and the whole chain still verifies.
	if _, err := w.Append(ctx, Record{Kind: "credited", Key: "n1", Amount: 2000, Flow: Done}); err != nil {
		t.Fatal(err)
	}
	if err := ro.Verify(ctx); err != nil {
		t.Fatal(err)
	}
	if rs, err := ro.Records(ctx, 0, 0); err != nil || len(rs) != 4 {
		t.Fatalf("read-only after the writer appended: %d records, %v; want 4", len(rs), err)
	}
	if fs, err := ro.Pending(ctx); err != nil || len(fs) != 0 {
		t.Fatalf("read-only pending after the credit: %+v %v", fs, err)
	}

	// Closing the reader does not free the journal for a second writer.
	if err := ro.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(path, fixedClock()); !errors.Is(err, ErrInUse) {
		t.Fatalf("open after the reader closed: %v, want ErrInUse", err)
	}
	w.Close()

	// A stopped terminal's journal (the writer checkpointed and closed) reads too.
	ro2, err := OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	defer ro2.Close()
	if rs, err := ro2.Records(ctx, 0, 0); err != nil || len(rs) != 4 {
		t.Fatalf("read-only of a closed journal: %d records, %v; want 4", len(rs), err)
	}
}

// Reading never creates a journal: a wrong path is an error, not a new empty file.
func TestOpenReadOnlyMissingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nope.db")
	if j, err := OpenReadOnly(path); err == nil {
		j.Close()
		t.Fatal("a missing journal opened read-only")
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("OpenReadOnly created %s: %v", path, err)
	}
}

// The lock is another process's too, and the kernel drops it when that process is killed: a
// terminal SIGKILLed and started again opens its journal with nothing to clean up.
func TestLockHeldByAnotherProcess(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "terminal.db")
	w := open(t, path)
	appendN(t, w, 3)
	w.Close()

	cmd := exec.Command(os.Args[0], "-test.run=^TestLockHolderChild$")
	cmd.Env = append(os.Environ(), "JOURNAL_TEST_HOLD="+path)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	killed := false
	defer func() {
		if !killed {
			cmd.Process.Kill()
			cmd.Wait()
		}
	}()
	said := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "holding") || strings.HasPrefix(sc.Text(), "child:") {
				said <- sc.Text()
				return
			}
		}
		said <- "the child said nothing"
	}()
	select {
	case s := <-said:
		if s != "holding" {
			t.Fatalf("child: %s", s)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the child never opened the journal")
	}

	if _, err := Open(path, fixedClock()); !errors.Is(err, ErrInUse) {
		t.Fatalf("open while another process holds the journal: %v, want ErrInUse", err)
	}
	ro, err := OpenReadOnly(path)
	if err != nil {
		t.Fatalf("read-only while another process holds the journal: %v", err)
	}
	if rs, err := ro.Records(ctx, 0, 0); err != nil || len(rs) != 4 {
		t.Fatalf("read-only: %d records, %v; want 3 and the child's 1", len(rs), err)
	}
	ro.Close()

	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	killed = true
	// What the killed writer left in its WAL reads before any writer has recovered the file.
	ro, err = OpenReadOnly(path)
	if err != nil {
		t.Fatalf("read-only after the holder was killed: %v", err)
	}
	if rs, err := ro.Records(ctx, 0, 0); err != nil || len(rs) != 4 || rs[3].Kind != "child-was-here" {
		t.Fatalf("read-only after the holder was killed: %d records, %v; want 4", len(rs), err)
	}
	ro.Close()
	j := open(t, path)
	r, err := j.Append(ctx, Record{Kind: "settled", Round: "r9"})
	if err != nil || r.Seq != 5 {
		t.Fatalf("after the holder was killed: seq %d, %v; want 5", r.Seq, err)
	}
}

// TestLockHolderChild is TestLockHeldByAnotherProcess's other process: it opens the journal
// named in JOURNAL_TEST_HOLD, appends a record, says so and holds it until it is killed.
func TestLockHolderChild(t *testing.T) {
	path := os.Getenv("JOURNAL_TEST_HOLD")
	if path == "" {
		t.Skip("only run as TestLockHeldByAnotherProcess's child")
	}
	j, err := Open(path, nil)
	if err != nil {
		fmt.Println("child:", err)
		return
	}
	if _, err := j.Append(context.Background(), Record{Kind: "child-was-here"}); err != nil {
		fmt.Println("child:", err)
		return
	}
	fmt.Println("holding")
	var b [1]byte
	os.Stdin.Read(b[:]) // blocks until the parent kills this process (or goes away)
	j.Close()
}

// AppendIf moves a flow only from the state the caller saw, and writes nothing otherwise.
func TestAppendIf(t *testing.T) {
	ctx := context.Background()
	j := open(t, filepath.Join(t.TempDir(), "terminal.db"))
	if _, err := j.Append(ctx, Record{Kind: "note-escrow", Key: "n1", Amount: 2000, Flow: "stacking"}); err != nil {
		t.Fatal(err)
	}
	if _, err := j.Append(ctx, Record{Kind: "note-unresolved", Key: "n1", Flow: "unresolved"}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		r    Record
		from FlowState
	}{
		{"another state", Record{Kind: "x", Key: "n1", Flow: Reversed}, "stacking"},
		{"no such flow", Record{Kind: "x", Key: "n2", Flow: Reversed}, "unresolved"},
	} {
		if _, err := j.AppendIf(ctx, c.r, c.from); !errors.Is(err, ErrFlowState) {
			t.Errorf("%s: %v, want ErrFlowState", c.name, err)
		}
	}
	if _, err := j.AppendIf(ctx, Record{Kind: "x", Key: "n1", Flow: Reversed}, ""); err == nil {
		t.Error("AppendIf without a state to move from")
	}
	if rs, _ := j.Records(ctx, 0, 0); len(rs) != 2 {
		t.Fatalf("%d records after refusals, want 2", len(rs))
	}
	if _, err := j.AppendIf(ctx, Record{Kind: "resolved", Key: "n1", Flow: "credit"}, "unresolved"); err != nil {
		t.Fatal(err)
	}
	if f, _, err := j.FlowOf(ctx, "n1"); err != nil || f.State != "credit" || f.Amount != 2000 {
		t.Fatalf("flow %+v %v", f, err)
	}
	if _, err := j.AppendIf(ctx, Record{Kind: "resolved", Key: "n1", Flow: "credit"}, "unresolved"); !errors.Is(err, ErrFlowState) {
		t.Fatalf("the same move twice: %v, want ErrFlowState", err)
	}
}

// Verify on a read-only journal reads the records and the flow table from one snapshot: a
// record the terminal appends between the two is not taken for a flow table that disagrees
// with its records (a false alarm of corruption on a running terminal).
func TestReadOnlyVerifyWhileWriting(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "terminal.db")
	w := open(t, path)
	appendN(t, w, 1)
	ro, err := OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	done := make(chan error, 1)
	go func() {
		for i := range 300 {
			if _, err := w.Append(ctx, Record{Kind: "note-escrow", Key: fmt.Sprintf("n%d", i), Amount: 100, Flow: "stacking"}); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	for verified := 0; ; verified++ {
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
			if err := ro.Verify(ctx); err != nil {
				t.Fatal(err)
			}
			t.Logf("%d verifications while the writer appended", verified)
			return
		default:
		}
		if err := ro.Verify(ctx); err != nil {
			t.Fatalf("verification %d while the writer appended: %v", verified, err)
		}
	}
}
