package kiosk

import (
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"time"
)

// servePprof serves Go's profiles (net/http/pprof: heap, CPU, goroutines, allocations) on addr,
// a loopback address only, for the soak and idle measurements of issue 18
// (packaging/soak-kiosk.sh takes heap profiles at round 10 and at the last round). The kiosk's
// heap holds no secrets the journal does not, but a profile endpoint has no business on a
// casino network: anything but a loopback host is refused. Off (empty addr) unless asked for.
// It returns the address it listens on (nil when off).
func servePprof(addr string, log *slog.Logger) (net.Addr, error) {
	if addr == "" {
		return nil, nil
	}
	if err := loopbackAddr(addr); err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("-pprof: %w", err)
	}
	// A mux of its own: the pprof package's init registers on http.DefaultServeMux, which nothing
	// else in the kiosk serves, but the handlers are named here so nothing else rides along.
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index) // heap, allocs, goroutine, … by name
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	log.Info("pprof", "addr", ln.Addr().String())
	go func() {
		if err := srv.Serve(ln); err != nil {
			log.Warn("pprof", "err", err)
		}
	}()
	return ln.Addr(), nil
}

// loopbackAddr accepts HOST:PORT where HOST is a loopback IP or "localhost", and nothing else.
func loopbackAddr(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("-pprof %q: %w", addr, err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return fmt.Errorf("-pprof %q: only a loopback address (127.0.0.1:PORT, [::1]:PORT, localhost:PORT)", addr)
	}
	return nil
}
