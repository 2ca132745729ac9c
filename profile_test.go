package main

import (
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
)

// -pprof serves Go's profiles on a loopback address and refuses any other: a kiosk's profile
// endpoint is for the bench, never for the casino network.
func TestPprofLoopbackOnly(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	for _, addr := range []string{"0.0.0.0:0", ":0", "10.1.2.3:6060", "example.com:6060", "127.0.0.1", "nonsense"} {
		if a, err := servePprof(addr, log); err == nil {
			t.Errorf("-pprof %q served on %v, want refused", addr, a)
		}
	}
	if a, err := servePprof("", log); a != nil || err != nil {
		t.Errorf("no -pprof: %v, %v; want off", a, err)
	}
	a, err := servePprof("127.0.0.1:0", log)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get("http://" + a.String() + "/debug/pprof/heap?debug=1")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(b), "heap profile") {
		t.Errorf("heap profile: %s %.80q", resp.Status, b)
	}
}
