package server

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/status"

	"github.com/tablegames/ats/server/ledger"
	"github.com/tablegames/ats/server/pki"
)

// Cutting off a terminal that keeps calling over its rate (issue 13, 7).
//
// The call rate (TerminalCallRate, checked at gRPC's tap) refuses a call before its message is
// read, but a refusal is not free: the terminal has already sent the call's first flow-control
// window (64 KiB for an oversized slip), which the server must still read and decrypt to keep
// the connection's framing, and a terminal that ignores the refusal comes straight back. One
// abusive terminal sending 1,900 slips a second, 28,000 of them refused, still raised the
// other terminals' slip p99 from 1.3 to 25 ms: most of the server's time went to decrypting
// windows of calls it had already refused.
//
// So refusals are counted too. A terminal refused for its rate CutoffStrikes times more than
// it is forgiven (CutoffStrikeRate a second) is cut off: the call that crossed the line is
// told why (ResourceExhausted, with the time it may come back), every connection of its
// certificate stops being read at once and is closed a moment later (cutGrace, so the
// refusal reaches it), and until the cut-off ends a new connection is refused the same way
// at its first call. Each cut-off doubles the next (CutoffBase up to CutoffMax; forgotten
// after CutoffMax without one) and raises an alarm (AlarmCallFlood) on the dealer's console
// and in the audit log with the terminal's identity. An honest terminal never comes near:
// it makes at most a dozen calls a second and backs off when refused.
//
// A reconnect costs the server a TLS handshake before it knows whose certificate it is, and a
// hostile cabinet need not back off as gRPC's client does. So while a terminal is cut off, the
// network address it called from is suspect: new connections from it are allowed
// SuspectConnRate a second (a burst of as many), and the rest are closed as they are accepted,
// before any handshake. Other addresses are not touched, and neither are the connections
// already open from a suspect address (a console beside a cut-off kiosk keeps its own); a new
// one from there waits at most a second.
const (
	// CutoffStrikes is how many refusals over its rate a terminal may collect at once before
	// it is cut off.
	CutoffStrikes = 50
	// CutoffStrikeRate is how many refusals a second are forgiven.
	CutoffStrikeRate = 10
	// CutoffBase is the first cut-off; each one after doubles, up to CutoffMax.
	CutoffBase = 2 * time.Second
	// CutoffMax bounds a cut-off; a terminal with no cut-off for this long starts again from
	// CutoffBase.
	CutoffMax = 10 * time.Minute
	// cutGrace is how long a cut connection stays open, unread, for the refusal to be written.
	cutGrace = 100 * time.Millisecond
	// SuspectConnRate is how many new connections a second an address a cut-off terminal
	// called from may open while the cut-off lasts.
	SuspectConnRate = 2
)

var errSuspectAddress = errors.New("a new connection from the address of a cut-off terminal, over its ration: closed before the handshake")

// AlarmCallFlood is the alarm raised when a terminal is cut off for calling over its rate.
const AlarmCallFlood = "call-flood"

// WithCutoff sets the first cut-off of a terminal that keeps calling over its rate (CutoffBase
// if not set); 0 or less never cuts a terminal off (its calls over the rate are still
// refused): a test that drives one terminal flat out on purpose sets it.
func WithCutoff(base time.Duration) Option {
	return func(o *grpcOptions) { o.cutoff, o.cutoffSet = base, true }
}

// callGuard is one terminal's call budget (a token bucket), its refusals (strikes, a second
// bucket) and its cut-offs.
type callGuard struct {
	tokens  float64   // calls it may start now
	strikes float64   // refusals it may still collect before a cut-off
	at      time.Time // when tokens and strikes were last brought up to date
	until   time.Time // cut off until then
	cutoffs int       // cut-offs earned; each doubles the next
	last    time.Time // when the last cut-off started
}

// admit decides a terminal's call at its tap, or a slip on its Slips stream: nil to serve it,
// or the refusal. cut is true when the terminal is cut off (its connections are being closed),
// false for a refusal over its rate that leaves it connected.
func (e *edge) admit(id string) (cut bool, err error) {
	e.bucketMu.Lock()
	now := e.now()
	g := e.buckets[id]
	if g == nil {
		if len(e.buckets) > 100_000 { // bounded memory, whatever the number of identities
			clear(e.buckets)
		}
		g = &callGuard{tokens: e.burst, strikes: e.strikes, at: now}
		e.buckets[id] = g
	}
	if now.Before(g.until) {
		until := g.until
		e.bucketMu.Unlock()
		e.cut(id, until) // a connection made during the cut-off: told at its first call, then closed
		return true, status.Errorf(codes.ResourceExhausted, "terminal %q is cut off until %s for calling over its rate (%g calls a second)",
			id, until.UTC().Format(time.RFC3339Nano), e.rate)
	}
	if dt := now.Sub(g.at).Seconds(); dt > 0 {
		g.tokens = min(e.burst, g.tokens+dt*e.rate)
		g.strikes = min(e.strikes, g.strikes+dt*e.strikeRate)
		g.at = now
	}
	if g.tokens >= 1 {
		g.tokens--
		e.bucketMu.Unlock()
		return false, nil
	}
	if g.strikes--; g.strikes >= 0 || e.cutoff <= 0 {
		e.bucketMu.Unlock()
		return false, status.Errorf(codes.ResourceExhausted, "terminal %q: more than %g calls a second", id, e.rate)
	}
	if now.Sub(g.last) > CutoffMax {
		g.cutoffs = 0 // a long while without a cut-off: start again from the first
	}
	d := e.cutoff
	for range g.cutoffs {
		if d *= 2; d >= CutoffMax {
			d = CutoffMax
			break
		}
	}
	g.cutoffs++
	g.last, g.until = now, now.Add(d)
	// It comes back with a second's calls and a few refusals in hand, not a full burst: a
	// terminal that behaves again is served, one that floods again is cut off again soon.
	g.at, g.tokens, g.strikes = g.until, min(e.rate, e.burst), e.strikes/5
	n, until := g.cutoffs, g.until
	e.bucketMu.Unlock()

	e.cut(id, until)
	detail := fmt.Sprintf("refused %g calls over its rate of %g a second: cut off for %s (cut-off %d), its connections closed", e.strikes, e.rate, d, n)
	e.log.Warn("alarm: terminal cut off for calling over its rate", "terminal", id, "for", d, "cutoff", n)
	go e.t.alarm(AlarmCallFlood, id, detail) // a ledger commit: not on the connection's reader
	return true, status.Errorf(codes.ResourceExhausted, "terminal %q cut off for %s: %g calls refused over its rate of %g a second; its connections are closed and calls refused until %s",
		id, d, e.strikes, e.rate, until.UTC().Format(time.RFC3339Nano))
}

// alarm records an alarm for the dealer's console and the audit log.
func (t *Table) alarm(kind, terminal, detail string) {
	err := t.led.Update(context.Background(), t.now(), func(tx *ledger.Tx) error {
		return tx.Event("alarm", terminal, "", 0, kind+": "+detail)
	})
	if err != nil {
		t.log.Error("recording an alarm", "terminal", terminal, "kind", kind, "err", err)
	}
}

// AlarmLedgerTampered is the alarm raised when a decision is refused because a row it read or
// wrote fails the ledger's seal (ledger.ErrTampered): who asked, and the row.
const AlarmLedgerTampered = "ledger-tampered"

// tamperAlarm is the ledger's OnTampered hook: the refusal in the log and, as an alarm naming
// who asked, in the audit log and on the dealer's console. Written in a transaction of its
// own (an event, no row the refusal named), quiet so its own refusal raises no other.
func (t *Table) tamperAlarm(actor string, refused error) {
	t.log.Error("alarm: a decision refused: the ledger fails its seal", "asked-by", actor, "err", refused)
	ctx := ledger.Quiet(ledger.WithActor(context.Background(), actor))
	err := t.led.Update(ctx, t.now(), func(tx *ledger.Tx) error {
		return tx.Event("alarm", "", "", 0, AlarmLedgerTampered+": refused for "+actor+": "+refused.Error())
	})
	if err != nil {
		t.log.Error("recording an alarm", "kind", AlarmLedgerTampered, "err", err)
	}
}

// cut stops reading every connection of a terminal and closes each after cutGrace; their
// addresses are suspect until until.
func (e *edge) cut(id string, until time.Time) {
	e.connMu.Lock()
	var cs []*trackedConn
	for c := range e.conns[id] {
		cs = append(cs, c)
		if host := hostOf(c.RemoteAddr()); host != "" {
			sp := e.suspects[host]
			if sp == nil {
				if len(e.suspects) > 10_000 { // bounded memory
					clear(e.suspects)
				}
				sp = &suspect{tokens: SuspectConnRate, at: e.now()}
				e.suspects[host] = sp
			}
			sp.until = until
		}
	}
	e.connMu.Unlock()
	for _, c := range cs {
		c.cutOff()
	}
}

// suspect is a network address a cut-off terminal called from: its new connections are
// rationed until the cut-off ends.
type suspect struct {
	until  time.Time
	tokens float64
	at     time.Time
}

// mayHandshake reports whether a new connection from addr may go on to its TLS handshake.
func (e *edge) mayHandshake(addr net.Addr) bool {
	host := hostOf(addr)
	e.connMu.Lock()
	defer e.connMu.Unlock()
	sp := e.suspects[host]
	if sp == nil {
		return true
	}
	now := e.now()
	if !now.Before(sp.until) {
		delete(e.suspects, host)
		return true
	}
	if dt := now.Sub(sp.at).Seconds(); dt > 0 {
		sp.tokens = min(SuspectConnRate, sp.tokens+dt*SuspectConnRate)
		sp.at = now
	}
	if sp.tokens < 1 {
		e.refusedConns++
		return false
	}
	sp.tokens--
	return true
}

func hostOf(a net.Addr) string {
	if a == nil {
		return ""
	}
	host, _, err := net.SplitHostPort(a.String())
	if err != nil {
		return a.String()
	}
	return host
}

// trackedConn is a terminal's connection as the edge sees it, under TLS: the edge can stop
// reading it (what the terminal sends after its cut-off is never decrypted) and close it.
type trackedConn struct {
	net.Conn
	e      *edge
	id     string // the terminal; "" for other roles (never cut)
	cutNow sync.Once
	cutCh  chan struct{} // closed when cut: reads wait for the close
	close  sync.Once
	closed chan struct{}
	err    error
}

func newTrackedConn(c net.Conn, e *edge) *trackedConn {
	return &trackedConn{Conn: c, e: e, cutCh: make(chan struct{}), closed: make(chan struct{})}
}

// Read reads the connection until it is cut; a cut connection's reads wait for its close.
func (c *trackedConn) Read(b []byte) (int, error) {
	select {
	case <-c.cutCh:
		<-c.closed
		return 0, net.ErrClosed
	default:
	}
	return c.Conn.Read(b)
}

func (c *trackedConn) cutOff() {
	c.cutNow.Do(func() {
		close(c.cutCh)
		time.AfterFunc(cutGrace, func() { c.Close() })
	})
}

// Close closes the connection once and forgets it.
func (c *trackedConn) Close() error {
	c.close.Do(func() {
		close(c.closed)
		c.err = c.Conn.Close()
		c.e.connMu.Lock()
		if set := c.e.conns[c.id]; c.id != "" && set != nil {
			delete(set, c)
			if len(set) == 0 {
				delete(c.e.conns, c.id)
			}
		}
		c.e.connMu.Unlock()
	})
	return c.err
}

// trackingCreds is the server's TLS credentials, keeping each terminal's connections so a
// cut-off can reach them.
type trackingCreds struct {
	credentials.TransportCredentials
	e *edge
}

func (tc trackingCreds) ServerHandshake(raw net.Conn) (net.Conn, credentials.AuthInfo, error) {
	if !tc.e.mayHandshake(raw.RemoteAddr()) {
		raw.Close()
		return nil, nil, errSuspectAddress
	}
	c := newTrackedConn(raw, tc.e)
	conn, ai, err := tc.TransportCredentials.ServerHandshake(c)
	if err != nil {
		c.Close()
		return nil, nil, err
	}
	if ti, ok := ai.(credentials.TLSInfo); ok && len(ti.State.VerifiedChains) > 0 && len(ti.State.VerifiedChains[0]) > 0 {
		if role, id, err := pki.Identity(ti.State.VerifiedChains[0][0]); err == nil && role == pki.RoleTerminal {
			tc.e.connMu.Lock()
			select {
			case <-c.closed: // closed under the handshake's feet: nothing to keep
			default:
				c.id = id
				if tc.e.conns[id] == nil {
					tc.e.conns[id] = map[*trackedConn]struct{}{}
				}
				tc.e.conns[id][c] = struct{}{}
			}
			tc.e.connMu.Unlock()
		}
	}
	return conn, ai, nil
}

func (tc trackingCreds) Clone() credentials.TransportCredentials {
	return trackingCreds{tc.TransportCredentials.Clone(), tc.e}
}
