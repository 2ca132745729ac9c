package journal

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func fixedClock() func() time.Time {
	t := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		t = t.Add(time.Millisecond)
		return t
	}
}

func open(t *testing.T, path string) *Journal {
	t.Helper()
	j, err := Open(path, fixedClock())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { j.Close() })
	return j
}

func TestAppendSurvivesReopen(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "terminal.db")
	j := open(t, path)
	for i := range 5 {
		r, err := j.Append(ctx, Record{Kind: "slip-acked", Round: "r1", Amount: int64(100 * (i + 1)), Body: []byte(`{"v":1}`)})
		if err != nil {
			t.Fatal(err)
		}
		if r.Seq != int64(i+1) {
			t.Fatalf("seq %d, want %d", r.Seq, i+1)
		}
	}
	j.Close()

	j2 := open(t, path)
	r, err := j2.Append(ctx, Record{Kind: "settled", Round: "r1", Amount: 700})
	if err != nil {
		t.Fatal(err)
	}
	if r.Seq != 6 {
		t.Fatalf("after reopen seq %d, want 6", r.Seq)
	}
	all, err := j2.Records(ctx, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 6 || all[4].Amount != 500 || string(all[0].Body) != `{"v":1}` {
		t.Fatalf("records after reopen: %+v", all)
	}
	page, err := j2.Records(ctx, 2, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(page) != 2 || page[0].Seq != 3 || page[1].Seq != 4 {
		t.Fatalf("page: %+v", page)
	}
	last, err := j2.Last(ctx, "slip-acked", 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(last) != 2 || last[0].Seq != 5 || last[1].Seq != 4 {
		t.Fatalf("last: %+v", last)
	}
}

// A flow moves through its states; once done it cannot be moved again, which is what makes a
// retried credit harmless.
func TestFlowsTrackUnfinishedMoney(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "terminal.db")
	j := open(t, path)
	steps := []Record{
		{Kind: "note-escrow", Key: "n1", Amount: 5000, Flow: "escrow"},
		{Kind: "note-escrow", Key: "n2", Amount: 2000, Flow: "escrow"},
		{Kind: "note-stacked", Key: "n1", Amount: 5000, Flow: "stacked"},
		{Kind: "note-returned", Key: "n2", Flow: Reversed},
	}
	for _, s := range steps {
		if _, err := j.Append(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	pending, err := j.Pending(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(pending) != 1 || pending[0].Key != "n1" || pending[0].State != "stacked" || pending[0].Amount != 5000 || pending[0].Kind != "note-escrow" {
		t.Fatalf("pending: %+v", pending)
	}
	if _, err := j.Append(ctx, Record{Kind: "credited", Key: "n1", Amount: 5000, Flow: Done}); err != nil {
		t.Fatal(err)
	}
	if _, err := j.Append(ctx, Record{Kind: "credited", Key: "n1", Amount: 5000, Flow: Done}); err == nil ||
		!strings.Contains(err.Error(), "already done") {
		t.Fatalf("second credit of a finished flow: %v", err)
	}
	if _, err := j.Append(ctx, Record{Kind: "note-stacked", Key: "n2", Flow: "stacked"}); err == nil {
		t.Fatal("a reversed flow moved again")
	}
	j.Close()

	j2 := open(t, path)
	pending, err = j2.Pending(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(pending) != 0 {
		t.Fatalf("pending after reopen: %+v", pending)
	}
	f, ok, err := j2.FlowOf(ctx, "n1")
	if err != nil || !ok || f.State != Done || f.Opened != 1 || f.Updated != 5 {
		t.Fatalf("flow n1: %+v %v %v", f, ok, err)
	}
	if _, ok, _ := j2.FlowOf(ctx, "nope"); ok {
		t.Fatal("unknown flow found")
	}
}

func TestBadRecordsRefused(t *testing.T) {
	ctx := context.Background()
	j := open(t, filepath.Join(t.TempDir(), "terminal.db"))
	if _, err := j.Append(ctx, Record{}); err == nil {
		t.Error("record without a kind accepted")
	}
	if _, err := j.Append(ctx, Record{Kind: "x", Flow: "open"}); err == nil {
		t.Error("flow state without a key accepted")
	}
}

// Every way the file can be damaged under the journal is caught on open with an error that
// names the record, never trusted.
func TestCorruptionDetected(t *testing.T) {
	cases := []struct {
		name   string
		damage string
		want   string
	}{
		{"amount changed", `UPDATE records SET amount = amount + 1 WHERE seq = 2`, "record 2"},
		{"body changed", `UPDATE records SET body = x'00' WHERE seq = 3`, "record 3"},
		{"kind changed", `UPDATE records SET kind = 'credited' WHERE seq = 1`, "record 1"},
		{"record deleted", `DELETE FROM records WHERE seq = 2`, "record 3"},
		{"last record deleted keeps chain but flow table disagrees", `DELETE FROM records WHERE seq = 4`, "flow"},
		{"hash truncated", `UPDATE records SET hash = x'0102' WHERE seq = 1`, "record 1"},
		{"flow table edited", `UPDATE flows SET amount = 1 WHERE key = 'n1'`, "flow n1"},
		{"flow row dropped", `DELETE FROM flows WHERE key = 'n1'`, "flows"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			path := filepath.Join(t.TempDir(), "terminal.db")
			j, err := Open(path, fixedClock())
			if err != nil {
				t.Fatal(err)
			}
			for i, r := range []Record{
				{Kind: "note-escrow", Key: "n1", Amount: 5000, Flow: "escrow"},
				{Kind: "slip-acked", Round: "r1", Amount: 1500},
				{Kind: "settled", Round: "r1", Amount: 3000, Body: []byte(`{"n":"17"}`)},
				{Kind: "note-stacked", Key: "n1", Amount: 5000, Flow: "stacked"},
			} {
				if _, err := j.Append(ctx, r); err != nil {
					t.Fatalf("append %d: %v", i, err)
				}
			}
			j.Close()

			db, err := sql.Open("sqlite", "file:"+path)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := db.Exec(c.damage); err != nil {
				t.Fatal(err)
			}
			db.Close()

			_, err = Open(path, fixedClock())
			if err == nil {
				t.Fatal("damaged journal opened without an error")
			}
			if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %q: want ErrCorrupt naming %q", err, c.want)
			}
		})
	}
}

func TestConcurrentAppendsKeepTheChain(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "terminal.db")
	j := open(t, path)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 10 {
				if _, err := j.Append(ctx, Record{Kind: "k", Key: fmt.Sprintf("g%d-%d", g, i), Flow: Done, Amount: 1}); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	if err := j.Verify(ctx); err != nil {
		t.Fatal(err)
	}
	all, err := j.Records(ctx, 0, 0)
	if err != nil || len(all) != 40 {
		t.Fatalf("%d records, %v", len(all), err)
	}
}

func BenchmarkAppend(b *testing.B) {
	ctx := context.Background()
	j, err := Open(filepath.Join(b.TempDir(), "terminal.db"), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer j.Close()
	body := []byte(`{"wagers":[{"spot":"straight 17","amount":500}]}`)
	for b.Loop() {
		if _, err := j.Append(ctx, Record{Kind: "slip-acked", Round: "r1", Amount: 500, Body: body}); err != nil {
			b.Fatal(err)
		}
	}
}
