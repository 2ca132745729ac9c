package main

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tablegames/ats/server"
	"github.com/tablegames/ats/server/ledger"
	"github.com/tablegames/ats/server/pki"
)

// Attack: a balance raised in the ledger's SQLite file (and money in with it, so it still
// "conserves"). tableserver verify names the row and fails; the server refuses to start on it.
func TestVerifyFindsARaisedBalance(t *testing.T) {
	path := ledgerWith5000(t)
	var out, errs bytes.Buffer
	if code := runLedger("verify", []string{"-db", path}, &out, &errs); code != 0 ||
		!strings.Contains(out.String(), "every one matches") || !strings.Contains(out.String(), "journal anchor T01 3:abab") {
		t.Fatalf("verify: %d %q %q", code, out.String(), errs.String())
	}
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	db.Exec(`UPDATE accounts SET balance = balance + 1000000`)
	db.Exec(`UPDATE meters SET value = value + 1000000 WHERE name = 'money_in'`)
	db.Close()
	out.Reset()
	errs.Reset()
	if code := runLedger("verify", []string{"-db", path}, &out, &errs); code != 1 || !strings.Contains(errs.String(), "table accounts row 'T01'") {
		t.Fatalf("verify of an edited ledger: %d %q %q", code, out.String(), errs.String())
	}
	err = serveRefused(t, path, "an edited ledger")
	if !errors.Is(err, ledger.ErrTampered) {
		t.Fatalf("table server on an edited ledger: %v", err)
	}
}

// Attack (issue 34, finding 3): the server stopped, a balance raised with money in to match, the
// seal's rows, head and key file deleted. The table server refuses to start, naming what is
// missing; `tableserver reseal` without who or why is refused; with them it seals the ledger
// and verify lists the mark from then on.
func TestAttackStrippedSealRefusedAtStartResealedOnlyByOrder(t *testing.T) {
	path := ledgerWith5000(t)
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{`UPDATE accounts SET balance = balance + 1000000`, `UPDATE meters SET value = value + 1000000 WHERE name = 'money_in'`,
		`DELETE FROM seal_rows`, `DELETE FROM seal_head`, `DELETE FROM seal_dirty`} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	if err := os.Remove(ledger.KeyPath(path)); err != nil {
		t.Fatal(err)
	}
	err = serveRefused(t, path, "a ledger stripped of its seal")
	if !errors.Is(err, ledger.ErrUnsealed) || !strings.Contains(err.Error(), "tableserver reseal") {
		t.Fatalf("table server on a stripped ledger: %v", err)
	}
	var out, errs bytes.Buffer
	if code := runLedger("reseal", []string{"-db", path, "-by", "ops-3"}, &out, &errs); code == 0 {
		t.Fatalf("reseal without -why: %q", out.String())
	}
	if code := runLedger("reseal", []string{"-db", path, "-by", "ops-3", "-why", "restored by hand, case 88"}, &out, &errs); code != 0 {
		t.Fatalf("reseal: %d %q", code, errs.String())
	}
	out.Reset()
	if code := runLedger("verify", []string{"-db", path}, &out, &errs); code != 0 || !strings.Contains(out.String(), "RE-SEALED") ||
		!strings.Contains(out.String(), "ops-3: restored by hand, case 88") {
		t.Fatalf("verify after the reseal: %d %q %q", code, out.String(), errs.String())
	}
}

// ledgerWith5000 is a stopped table's ledger: 50.00 credited to T01 (money in to match) and T01's
// journal anchored at record 3.
func ledgerWith5000(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "table.db")
	led, err := ledger.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	err = led.Update(context.Background(), time.Now(), func(tx *ledger.Tx) error {
		if err := tx.SetAccount("T01", 5000, true); err != nil {
			return err
		}
		if _, err := tx.AddMeter(ledger.MeterMoneyIn, 5000); err != nil {
			return err
		}
		return tx.PutAnchor("T01", ledger.Anchor{Seq: 3, MAC: bytes.Repeat([]byte{0xab}, 32)})
	})
	if err != nil {
		t.Fatal(err)
	}
	led.Close()
	return path
}

// serveRefused runs the table server on the ledger at path, as tableserver does, and returns
// why it would not serve it; serving what is an error of the test.
func serveRefused(t *testing.T, path, what string) error {
	t.Helper()
	dir := t.TempDir()
	if err := pki.Init(dir, []string{"T01"}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return server.ServeFiles(ctx, server.DefaultConfig(), server.Files{PKI: dir, Ledger: path, Listen: "127.0.0.1:0"},
		slog.New(slog.DiscardHandler), func(string) { t.Error("the table server served " + what) })
}
