package kiosk

import (
	"io"
	"log/slog"
	"net"
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

// Whatever -pprof is given, the check does not panic, and what it accepts is a loopback host.
func FuzzPprofAddress(f *testing.F) {
	for _, s := range []string{"127.0.0.1:6060", "[::1]:0", "localhost:1", "0.0.0.0:6060", ":6060", "10.0.0.1:80", "x", "[::ffff:127.0.0.1]:1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, addr string) {
		if loopbackAddr(addr) != nil {
			return
		}
		host, _, err := net.SplitHostPort(addr)
		if err != nil {
			t.Fatalf("%q accepted, but it is not HOST:PORT: %v", addr, err)
		}
		// Loopback, written out: localhost, 127.0.0.0/8 (also IPv4-mapped), or ::1.
		ip := net.ParseIP(host)
		if host != "localhost" && (ip == nil || !(ip.To4() != nil && ip.To4()[0] == 127 || ip.Equal(net.IPv6loopback))) {
			t.Fatalf("%q accepted: %q is not a loopback host", addr, host)
		}
	})
}
