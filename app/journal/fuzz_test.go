package journal

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// templateKey is the key of the template journal, written beside each damaged copy of it.
var templateKey []byte

// writeDamaged writes a copy of the template journal, and its key, into dir.
func writeDamaged(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(KeyPath(path), templateKey, 0o600); err != nil {
		t.Fatal(err)
	}
}

// template writes a small journal (money flows open and closed, game records) and returns the
// file's bytes and what it holds.
func template(f *testing.F) ([]byte, []Record, []Flow) {
	ctx := context.Background()
	path := filepath.Join(f.TempDir(), "template.db")
	j, err := Open(path, fixedClock())
	if err != nil {
		f.Fatal(err)
	}
	for _, r := range []Record{
		{Kind: "note-escrow", Key: "note:65:1", Amount: 2000, Flow: "stacking"},
		{Kind: "credit-point", Key: "note:65:1", Flow: "credit"},
		{Kind: "credited", Key: "note:65:1", Amount: 2000, Flow: Done},
		{Kind: "slip-acked", Round: "R000001", Amount: 600, Body: []byte(`{"wheel":"single-zero","version":1}`)},
		{Kind: "cashout-requested", Key: "cashout:-:2", Flow: "requested"},
		{Kind: "ticket-issued", Key: "cashout:-:2", Amount: 1400, Body: []byte("001234567890123456"), Flow: "printing"},
	} {
		if _, err := j.Append(ctx, r); err != nil {
			f.Fatal(err)
		}
	}
	rs, err := j.Records(ctx, 0, 0)
	if err != nil {
		f.Fatal(err)
	}
	fs, err := j.Pending(ctx)
	if err != nil {
		f.Fatal(err)
	}
	if err := j.Close(); err != nil {
		f.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	if templateKey, err = os.ReadFile(KeyPath(path)); err != nil {
		f.Fatal(err)
	}
	return b, rs, fs
}

func sameRecord(a, b Record) bool {
	return a.Seq == b.Seq && a.At.Equal(b.At) && a.Kind == b.Kind && a.Key == b.Key && a.Round == b.Round &&
		a.Amount == b.Amount && bytes.Equal(a.Body, b.Body) && a.Flow == b.Flow && a.Hash == b.Hash
}

// openDamaged opens a journal file and checks the one promise a damaged file must keep: it
// opens with an error that wraps ErrCorrupt, or it opens and every record and open flow it
// gives out is exactly as written. Never a panic, never altered money trusted.
func openDamaged(t *testing.T, path string, want []Record, pending []Flow, mustBeComplete bool) {
	ctx := context.Background()
	j, err := Open(path, fixedClock())
	if err != nil {
		if !strings.HasPrefix(err.Error(), "journal: ") {
			t.Fatalf("an error that does not say it is about the journal: %v", err)
		}
		if mustBeComplete && !errors.Is(err, ErrCorrupt) {
			t.Fatalf("a damaged record refused without ErrCorrupt: %v", err)
		}
		return
	}
	defer j.Close()
	got, err := j.Records(ctx, 0, 0)
	if err != nil {
		t.Fatalf("opened, then the records do not read: %v", err)
	}
	if mustBeComplete && len(got) != len(want) {
		t.Fatalf("%d records read back, %d written", len(got), len(want))
	}
	for i, r := range got {
		if i >= len(want) || !sameRecord(r, want[i]) {
			t.Fatalf("record %d read back as %+v, written as %+v", i+1, r, want[min(i, len(want)-1)])
		}
	}
	if mustBeComplete {
		// What is found by kind is what was written of that kind (a value of another type
		// reads back the same but is not found by the queries).
		for _, w := range want {
			rs, err := j.Last(ctx, w.Kind, len(want))
			if err != nil {
				t.Fatalf("last %s: %v", w.Kind, err)
			}
			var of []Record
			for i := len(want) - 1; i >= 0; i-- {
				if want[i].Kind == w.Kind {
					of = append(of, want[i])
				}
			}
			if len(rs) != len(of) {
				t.Fatalf("%d records of kind %s found, %d written", len(rs), w.Kind, len(of))
			}
		}
	}
	fs, err := j.Pending(ctx)
	if err != nil {
		return // the flow table is unreadable: Pending says so; recovery cannot start on it
	}
	if mustBeComplete && (len(fs) != len(pending) || len(fs) > 0 && fs[0] != pending[0]) {
		t.Fatalf("open flows %+v, written %+v", fs, pending)
	}
}

var columns = []string{"records.seq", "records.at", "records.kind", "records.key", "records.round", "records.amount",
	"records.body", "records.flow", "records.hash",
	"flows.key", "flows.kind", "flows.state", "flows.amount", "flows.opened", "flows.updated"}

// Any value of any type written into any column of a record or a flow: the chain (or the
// check of the flow table against it) finds it, with ErrCorrupt, or the value reads back as
// what was written (SQLite's column affinity may store '2000' as 2000).
func FuzzDamagedRecord(f *testing.F) {
	file, want, pending := template(f)
	f.Add(uint8(5), uint8(2), uint8(1), []byte(`{"v":2}`))
	f.Add(uint8(0), uint8(0), uint8(2), []byte("2000"))
	f.Add(uint8(2), uint8(3), uint8(0), []byte("credited"))
	f.Add(uint8(1), uint8(1), uint8(3), []byte("1.5"))
	f.Add(uint8(3), uint8(8), uint8(1), []byte("hash"))
	f.Add(uint8(4), uint8(11), uint8(1), []byte("done"))
	f.Add(uint8(4), uint8(12), uint8(2), []byte("1"))
	f.Fuzz(func(t *testing.T, rec, col, typ uint8, value []byte) {
		path := filepath.Join(t.TempDir(), "terminal.db")
		writeDamaged(t, path, file)
		db, err := sql.Open("sqlite", "file:"+path)
		if err != nil {
			t.Fatal(err)
		}
		var v any = value // a blob
		switch typ % 4 {
		case 1:
			v = string(value)
		case 2:
			n, err := strconv.ParseInt(string(value), 10, 64)
			if err != nil {
				n = int64(len(value))
			}
			v = n
		case 3:
			x, err := strconv.ParseFloat(string(value), 64)
			if err != nil {
				x = 0.5
			}
			v = x
		}
		r := want[int(rec)%len(want)]
		table, column, _ := strings.Cut(columns[int(col)%len(columns)], ".")
		var q string
		var where any
		if table == "records" {
			q, where = "UPDATE records SET "+column+" = ? WHERE seq = ?", r.Seq
		} else {
			q, where = "UPDATE flows SET "+column+" = ? WHERE key = ?", r.Key
		}
		_, err = db.Exec(q, v, where)
		db.Close()
		if err != nil {
			return // refused by SQLite itself (NOT NULL, a duplicate key): nothing was written
		}
		openDamaged(t, path, want, pending, true)
	})
}

// The file itself damaged — bytes flipped anywhere, in the records, the flow table, the
// indexes or SQLite's own pages: opening it never panics, refuses it with an error about the
// journal, or gives out only records exactly as written. (A damaged page can lose the last
// records without a trace in what is left — the hash chain cannot see a clean cut at its end —
// so only what is read back is checked, not how much.)
func FuzzDamagedFile(f *testing.F) {
	file, want, pending := template(f)
	f.Add(uint32(100), []byte{0xFF})
	f.Add(uint32(len(file)-200), []byte{0x01, 0x02, 0x03})
	f.Add(uint32(4096+8), []byte{0x80})
	f.Add(uint32(0), []byte("SQLite format 4"))
	f.Fuzz(func(t *testing.T, at uint32, flip []byte) {
		if len(flip) == 0 || len(flip) > 64 {
			return
		}
		b := bytes.Clone(file)
		for i, x := range flip {
			b[(int(at)+i)%len(b)] ^= x
		}
		path := filepath.Join(t.TempDir(), "terminal.db")
		writeDamaged(t, path, b)
		openDamaged(t, path, want, pending, false)
	})
}
