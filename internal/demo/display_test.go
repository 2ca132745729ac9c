package demo

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tablegames/ats/client"
	"github.com/tablegames/ats/server"
)

// A winning number display follows the demo table with the files the demo leaves for it
// (packaging/run.sh -wnd): the CA, a display certificate and the table's address.
func TestDemoTableCanBeFollowedByADisplay(t *testing.T) {
	dir := t.TempDir()
	tbl, err := StartTable(dir, "T01", server.DefaultConfig(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Close()
	wdir := filepath.Join(dir, "wnd")
	addr, err := os.ReadFile(filepath.Join(wdir, "addr"))
	if err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(filepath.Join(wdir, DisplayID+"-key.pem")); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("the display's key: %v %v", st, err)
	}
	tlsCfg, err := client.LoadTLS(wdir, DisplayID)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	got := make(chan client.DisplayUpdate, 10)
	go client.WatchDisplay(ctx, client.DisplayConfig{Addr: strings.TrimSpace(string(addr)), TLS: tlsCfg},
		func(u client.DisplayUpdate) { got <- u })
	select {
	case u := <-got:
		if !u.Up || u.State.TableID != "DEMO" {
			t.Fatalf("the display got %+v", u)
		}
	case <-ctx.Done():
		t.Fatal("no display state from the demo table")
	}
}
