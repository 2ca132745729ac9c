package journal

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fill appends n money records (a note flow every fourth record) and returns the journal head.
func fill(t *testing.T, j *Journal, n int) (int64, [32]byte) {
	t.Helper()
	ctx := context.Background()
	base, _ := j.Head()
	for i := int(base); i < int(base)+n; i++ {
		r := Record{Kind: "slip-acked", Round: fmt.Sprintf("R%06d", i), Amount: int64(100 * (i + 1))}
		if i%4 == 0 {
			r = Record{Kind: "ticket-issued", Key: fmt.Sprintf("cashout:-:%d", i), Amount: 2500, Flow: Done}
		}
		if _, err := j.Append(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	return j.Head()
}

// edit runs SQL on a closed journal, as someone with the file (but not the key) would.
func edit(t *testing.T, path string, stmts ...string) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// rechain recomputes the whole chain of a closed journal as a plain SHA-256 chain — the attack
// the unsealed journal could not see: whoever has the file can make any edit consistent.
func rechain(t *testing.T, path string) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT seq, at, kind, key, round, amount, body, flow, hash FROM records ORDER BY seq`)
	if err != nil {
		t.Fatal(err)
	}
	var all []Record
	for rows.Next() {
		r, err := scanRecord(rows)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, r)
	}
	rows.Close()
	var prev [32]byte
	for i := range all {
		all[i].Seq = int64(i + 1)
		all[i].Hash = hashOf(prev, &all[i])
		prev = all[i].Hash
	}
	if _, err := db.Exec(`DELETE FROM records`); err != nil {
		t.Fatal(err)
	}
	for _, r := range all {
		if r.Body == nil {
			r.Body = []byte{}
		}
		if _, err := db.Exec(`INSERT INTO records(seq, at, kind, key, round, amount, body, flow, hash) VALUES (?,?,?,?,?,?,?,?,?)`,
			r.Seq, r.At.UnixNano(), r.Kind, r.Key, r.Round, r.Amount, r.Body, string(r.Flow), r.Hash[:]); err != nil {
			t.Fatal(err)
		}
	}
	// The flow table rebuilt to agree, as a careful attacker would.
	if _, err := db.Exec(`DELETE FROM flows`); err != nil {
		t.Fatal(err)
	}
	for _, r := range all {
		if r.Flow == "" {
			continue
		}
		if _, err := db.Exec(`INSERT INTO flows(key, kind, state, amount, opened, updated) VALUES (?,?,?,?,?,?)
			ON CONFLICT(key) DO UPDATE SET state = excluded.state, updated = excluded.updated`,
			r.Key, r.Kind, string(r.Flow), r.Amount, r.Seq, r.Seq); err != nil {
			t.Fatal(err)
		}
	}
}

// Attack: records 65–68 deleted from the end of the journal ("tickets out" went backwards).
// The chain that is left is whole, so only the table server's anchor can see it.
func TestAttackDeleteRecords65To68(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "terminal.db")
	j := open(t, path)
	seq, mac := fill(t, j, 68)
	j.Close()
	edit(t, path, `DELETE FROM records WHERE seq BETWEEN 65 AND 68`, `DELETE FROM flows WHERE opened >= 65`)

	j2 := open(t, path)
	err := j2.CheckAnchor(ctx, seq, mac[:])
	if !errors.Is(err, ErrAnchor) || !strings.Contains(err.Error(), "records 65–68 deleted") {
		t.Fatalf("journal cut back to record 64, anchor at 68: %v", err)
	}
	if err := j2.CheckAnchor(ctx, 64, nil); !errors.Is(err, ErrAnchor) {
		t.Fatalf("an anchor whose MAC differs passed: %v", err)
	}
}

// Attack: records 65–68 deleted from the middle and the rest renumbered, the SHA-256 chain
// recomputed: the MACs cannot be recomputed without the key.
func TestAttackDeleteRecords65To68Rechained(t *testing.T) {
	path := filepath.Join(t.TempDir(), "terminal.db")
	j := open(t, path)
	fill(t, j, 80)
	j.Close()
	edit(t, path, `DELETE FROM records WHERE seq BETWEEN 65 AND 68`)
	rechain(t, path)
	_, err := Open(path, fixedClock())
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "record 1 ") {
		t.Fatalf("rechained journal: %v", err)
	}
}

// Attack: an amount edited and the chain recomputed.
func TestAttackEditAmountRechained(t *testing.T) {
	path := filepath.Join(t.TempDir(), "terminal.db")
	j := open(t, path)
	fill(t, j, 20)
	j.Close()
	edit(t, path, `UPDATE records SET amount = 99900 WHERE seq = 9`, `UPDATE flows SET amount = 99900 WHERE opened = 9`)
	rechain(t, path)
	_, err := Open(path, fixedClock())
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "MAC") {
		t.Fatalf("edited and rechained journal: %v", err)
	}
	if _, err := OpenReadOnly(path); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("read-only open of the edited journal: %v", err)
	}
}

// Attack: a record forged — a credit owed of 10,000.00 — with the MAC of another key (the
// forger made a key of their own): the chain verifies under the forger's key only.
func TestAttackForgedCreditOwedRecord(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "terminal.db")
	j := open(t, path)
	seq, mac := fill(t, j, 10)
	j.Close()

	// Without the key: the forged record fails its MAC.
	forged := Record{Seq: seq + 1, At: time.Now().UTC(), Kind: "note-escrow", Key: "note:0F:forged", Amount: 1_000_000, Flow: "credit"}
	forged.Hash = hashOf(mac, &forged)
	edit(t, path, fmt.Sprintf(`INSERT INTO records(seq, at, kind, key, round, amount, body, flow, hash) VALUES (%d, %d, 'note-escrow', 'note:0F:forged', '', 1000000, x'', 'credit', x'%x')`,
		forged.Seq, forged.At.UnixNano(), forged.Hash),
		fmt.Sprintf(`INSERT INTO flows VALUES ('note:0F:forged', 'note-escrow', 'credit', 1000000, %d, %d)`, forged.Seq, forged.Seq))
	if _, err := Open(path, fixedClock()); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), fmt.Sprintf("record %d (note-escrow)", seq+1)) {
		t.Fatalf("forged record: %v", err)
	}

	// With a key of the forger's own, the whole journal rewritten under it: it opens, but it
	// is not the journal the table server acknowledged.
	path2 := filepath.Join(dir, "forged.db")
	f := open(t, path2)
	fill(t, f, 10)
	if _, err := f.Append(ctx, Record{Kind: "note-escrow", Key: "note:0F:forged", Amount: 1_000_000, Flow: "credit"}); err != nil {
		t.Fatal(err)
	}
	if err := f.CheckAnchor(ctx, seq, mac[:]); !errors.Is(err, ErrAnchor) || !strings.Contains(err.Error(), "replaced or rewritten") {
		t.Fatalf("journal rewritten under another key: %v", err)
	}
}

// Attack: an older copy of the journal put back.
func TestAttackRollbackToOlderCopy(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "terminal.db")
	j := open(t, path)
	fill(t, j, 30)
	j.Close()
	old, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	j = open(t, path)
	seq, mac := fill(t, j, 10)
	j.Close()
	if err := os.WriteFile(path, old, 0o600); err != nil {
		t.Fatal(err)
	}
	os.Remove(path + "-wal")
	j = open(t, path)
	if err := j.CheckAnchor(ctx, seq, mac[:]); !errors.Is(err, ErrAnchor) || !strings.Contains(err.Error(), "older copy") {
		t.Fatalf("rolled-back journal: %v", err)
	}
}

// Attack: the journal emptied (zero length) or removed, for a terminal the server has an
// anchor for: it opens as a new journal, and the anchor refuses it.
func TestAttackEmptyOrMissingJournal(t *testing.T) {
	for _, how := range []string{"zero-length", "missing"} {
		t.Run(how, func(t *testing.T) {
			ctx := context.Background()
			path := filepath.Join(t.TempDir(), "terminal.db")
			j := open(t, path)
			seq, mac := fill(t, j, 5)
			j.Close()
			os.Remove(path + "-wal")
			os.Remove(path + "-shm")
			if how == "missing" {
				os.Remove(path)
			} else if err := os.Truncate(path, 0); err != nil {
				t.Fatal(err)
			}
			j = open(t, path)
			if err := j.CheckAnchor(ctx, seq, mac[:]); !errors.Is(err, ErrAnchor) || !strings.Contains(err.Error(), "journal is empty") {
				t.Fatalf("%s journal with an anchor at %d: %v", how, seq, err)
			}
			if err := j.CheckAnchor(ctx, 0, nil); err != nil {
				t.Fatalf("no anchor yet: %v", err)
			}
		})
	}
}

// The key: created 0600 on first provisioning, beside the journal and not in it; refused when
// others may read it; a sealed journal without it is refused.
func TestJournalKeyFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "terminal.db")
	j := open(t, path)
	fill(t, j, 3)
	j.Close()
	st, err := os.Stat(KeyPath(path))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("key file: %v %v", st, err)
	}
	key, _ := os.ReadFile(KeyPath(path))
	db, _ := os.ReadFile(path)
	if strings.Contains(string(db), strings.TrimSpace(string(key))) {
		t.Fatal("the key is stored in the journal")
	}
	os.Chmod(KeyPath(path), 0o644)
	if _, err := Open(path, nil); !errors.Is(err, ErrKey) {
		t.Fatalf("key readable by others: %v", err)
	}
	os.Chmod(KeyPath(path), 0o600)
	os.Rename(KeyPath(path), path+".elsewhere")
	if _, err := Open(path, nil); !errors.Is(err, ErrKey) || !strings.Contains(err.Error(), "missing") {
		t.Fatalf("sealed journal without its key: %v", err)
	}
	if _, err := OpenReadOnly(path); !errors.Is(err, ErrKey) {
		t.Fatalf("read-only open without the key: %v", err)
	}
	j, err = OpenWith(path, Options{Key: path + ".elsewhere"})
	if err != nil {
		t.Fatalf("key kept elsewhere: %v", err)
	}
	j.Close()
}

// legacy writes a journal as the code before the seal did: a plain SHA-256 chain, no seal table.
func legacy(t *testing.T, path string, n int) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(WAL)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(schema); err != nil {
		t.Fatal(err)
	}
	var prev [32]byte
	at := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	for i := range n {
		r := Record{Seq: int64(i + 1), At: at.Add(time.Duration(i) * time.Second), Kind: "settled", Round: fmt.Sprint(i), Amount: 100, Body: []byte{}}
		r.Hash = hashOf(prev, &r)
		prev = r.Hash
		if _, err := db.Exec(`INSERT INTO records(seq, at, kind, key, round, amount, body, flow, hash) VALUES (?,?,?,?,?,?,?,?,?)`,
			r.Seq, r.At.UnixNano(), r.Kind, r.Key, r.Round, r.Amount, r.Body, "", r.Hash[:]); err != nil {
			t.Fatal(err)
		}
	}
}

// Migration: a journal from before the seal is sealed from its next record on, with a
// journal-sealed record; its old records stay readable and checked by their SHA-256 chain.
func TestLegacyJournalSealedFromNextRecord(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "terminal.db")
	legacy(t, path, 12)
	j := open(t, path)
	rs, err := j.Records(ctx, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 13 || rs[12].Kind != KindSealed || string(rs[12].Body) != `{"legacy_through":12}` {
		t.Fatalf("after migration: %d records, last %+v", len(rs), rs[len(rs)-1])
	}
	fill(t, j, 3)
	j.Close()
	j = open(t, path)
	if seq, _ := j.Head(); seq != 16 {
		t.Fatalf("head %d after reopen", seq)
	}
	j.Close()

	// Moving the mark down (to unseal the records after it) or removing it is refused.
	for name, damage := range map[string]string{
		"mark moved":   `UPDATE seal SET from_seq = 15`,
		"mark removed": `DELETE FROM seal`,
		"mark raised":  `UPDATE seal SET from_seq = 99`,
	} {
		t.Run(name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "terminal.db")
			b, _ := os.ReadFile(path)
			k, _ := os.ReadFile(KeyPath(path))
			os.WriteFile(p, b, 0o600)
			os.WriteFile(KeyPath(p), k, 0o600)
			edit(t, p, damage)
			if _, err := Open(p, nil); !errors.Is(err, ErrCorrupt) {
				t.Fatalf("%s: %v", name, err)
			}
		})
	}
}

// The cost of the seal: the chain value of one record, SHA-256 (before) and HMAC-SHA256 (now).
// BenchmarkAppend measures the whole append, fsync included.
func BenchmarkChainValue(b *testing.B) {
	r := Record{Seq: 7, Kind: "slip-acked", Round: "r1", Amount: 500, Body: []byte(`{"wagers":[{"spot":"straight 17","amount":500}]}`)}
	key := make([]byte, 32)
	b.Run("sha256", func(b *testing.B) {
		var prev [32]byte
		for b.Loop() {
			prev = hashOf(prev, &r)
		}
	})
	b.Run("hmac-sha256", func(b *testing.B) {
		var prev [32]byte
		for b.Loop() {
			prev = macOf(key, prev, &r)
		}
	})
}
