package main

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"log/slog"
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
	dir := t.TempDir()
	if err := pki.Init(dir, []string{"T01"}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err = server.ServeFiles(ctx, server.DefaultConfig(), server.Files{PKI: dir, Ledger: path, Listen: "127.0.0.1:0"},
		slog.New(slog.DiscardHandler), func(string) { t.Error("the table server served an edited ledger") })
	if !errors.Is(err, ledger.ErrTampered) {
		t.Fatalf("table server on an edited ledger: %v", err)
	}
}
