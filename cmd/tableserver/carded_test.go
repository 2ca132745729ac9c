package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tablegames/ats/client"
	pb "github.com/tablegames/ats/proto/ats/table/v1"
	"github.com/tablegames/ats/server/pki"
)

// SPEC §10: Crown's table games play carded (VGCCC, from December 2025). The table server
// started under -rules crown (the default profile) without -carded refuses a wager without a
// player card and says at start why it is carded; only -carded=false, said in so many words,
// plays uncarded. The other rule books play carded only when the operator says -carded.
func TestSPEC10_CrownProfileAsksForCardedPlay(t *testing.T) {
	for _, c := range []struct {
		args    []string
		refused bool   // a slip without a player card is refused
		says    string // in the start log
	}{
		{nil, true, `-rules crown plays carded`},
		{[]string{"-rules", "crown"}, true, `-rules crown plays carded`},
		{[]string{"-carded=false"}, false, `-carded=false given by the operator`},
		{[]string{"-carded"}, true, `-carded, as -rules crown plays`},
	} {
		t.Run(strings.Join(append([]string{"tableserver"}, c.args...), " "), func(t *testing.T) {
			log, err := slipWithoutCard(t, c.args...)
			if c.refused && (err == nil || !strings.Contains(err.Error(), "player card")) {
				t.Errorf("a slip without a player card: %v, want refused for the card", err)
			}
			if !c.refused && err != nil {
				t.Errorf("a slip without a player card on an uncarded table: %v", err)
			}
			if !strings.Contains(log, c.says) {
				t.Errorf("the start log does not say %q:\n%s", c.says, log)
			}
		})
	}
	for _, c := range []struct {
		rules        string
		given, value bool
		want         bool
	}{
		{"crown", false, false, true},
		{"crown", true, false, false},
		{"crown", true, true, true},
		{"vic-1999", false, false, false},
		{"vic-1999", true, true, true},
		{"star", false, false, false},
		{"touchtable", false, false, false},
		{"touchtable", true, true, true},
		{"nosuch", false, false, false},
	} {
		if got, why := cardedPlay(c.rules, c.given, c.value); got != c.want || why == "" {
			t.Errorf("-rules %s (-carded given %v, %v): carded %v (%q), want %v", c.rules, c.given, c.value, got, why, c.want)
		}
	}
}

// slipWithoutCard starts `tableserver ARGS…` (a 1 h period), buys a terminal in for A$50 and
// sends a slip of A$5 on 17 without a player card in the round the dealer starts: the slip's
// what the server logged (read once it stopped), and the slip's error.
func slipWithoutCard(t *testing.T, args ...string) (log string, slipErr error) {
	t.Helper()
	dir := t.TempDir()
	if err := pki.Init(dir, []string{"T01"}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan int, 1)
	var stderr lockedBuffer
	go func() {
		done <- serve(ctx, append([]string{"-listen", "127.0.0.1:0", "-pki", dir, "-db", filepath.Join(dir, "table.db"), "-period", "1h"}, args...),
			&stderr, func(addr string) { ready <- addr })
	}()
	var addr string
	select {
	case addr = <-ready:
	case code := <-done:
		t.Fatalf("tableserver %v: exit %d: %s", args, code, stderr.String())
	case <-time.After(20 * time.Second):
		t.Fatal("the table server did not start")
	}
	defer func() {
		cancel()
		if code := <-done; code != 0 {
			t.Errorf("tableserver exit %d: %s", code, stderr.String())
		}
		log = stderr.String()
	}()
	dealer := pb.NewDealerServiceClient(dial(t, addr, dir, "dealer"))
	if _, err := dealer.OpenTable(ctx, &pb.OpenTableRequest{}); err != nil {
		t.Fatal(err)
	}
	cfg, err := client.LoadTLS(dir, "T01")
	if err != nil {
		t.Fatal(err)
	}
	term, err := client.Dial(client.Config{Addr: addr, TLS: cfg})
	if err != nil {
		t.Fatal(err)
	}
	defer term.Close()
	if err := term.ReportNoteEscrow(ctx, "n1", 5000, "AUD50"); err != nil {
		t.Fatal(err)
	}
	if _, err := term.CreditNote(ctx, "n1", 5000, "AUD50"); err != nil {
		t.Fatal(err)
	}
	st, err := dealer.StartRound(ctx, &pb.StartRoundRequest{})
	if err != nil {
		t.Fatal(err)
	}
	_, slipErr = term.UpdateSlip(ctx, st.RoundId, 1, straight(17, 500))
	return "", slipErr
}

// lockedBuffer is the server's stderr for a test that reads it: the table's goroutines may still
// log (a terminal's slip voided as it disconnects) while the test reads what was logged.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
