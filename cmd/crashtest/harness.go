package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/tablegames/ats/devices/emulator"
	"github.com/tablegames/ats/devices/serialport"
	"github.com/tablegames/ats/internal/netcut"
	"github.com/tablegames/ats/server/pki"
)

type options struct {
	Kill    string
	N       int
	Seed    uint64
	Dir     string
	Verbose bool
	Self    []string // how to start this program again (the children)
	Env     []string // extra environment for the children
}

// harness is one run: the devices, the children, what was killed where.
type harness struct {
	o      options
	dir    string
	log    io.Writer
	rng    *rand.Rand
	acc    *emulator.NoteAcceptor
	prn    *emulator.Printer
	ap, pp *serialport.PTY

	srvAddr  string // the server's fixed address (it restarts on it)
	termAddr string // what the terminal dials: the server, or the proxy in front of it
	proxy    *netcut.Proxy
	server   *child
	term     *child
	points   map[string]int
	inserted struct {
		sync.Mutex
		notes, tickets int
	}
	rollbackFrom snapshot // tamper: the journal as it was at an earlier kill point
	// quiet holds the player's notes while a planted fault is checked: money moving then would
	// move the table's anchor past the journal the harness puts back afterwards. The player
	// reads it and inserts under quietMu, so once hold returns no note is on its way in.
	quietMu      sync.Mutex
	quiet        bool
	rollbackHead int64

	floor *floorRun // -kill floor: the PostgreSQL, table server T2, its terminal, the cage (floor.go)
	// checked, if set, runs after the checks while everything they read is still there (the
	// floor's PostgreSQL goes when the run ends): a test plants faults the checks must catch.
	checked func() error
}

// Run runs the harness and returns its report; the error says what check failed.
func Run(o options, log io.Writer) (*Report, error) {
	h := newHarness(o, log)
	rep, err := h.runIn()
	if err == nil && o.Dir == "" {
		os.RemoveAll(h.dir)
	} else if err != nil {
		err = fmt.Errorf("%w (seed %d; state kept in %s)", err, o.Seed, h.dir)
	}
	return rep, err
}

func newHarness(o options, log io.Writer) *harness {
	return &harness{o: o, log: log, rng: rand.New(rand.NewPCG(o.Seed, 1)), points: map[string]int{}}
}

// runIn makes the working directory and runs.
func (h *harness) runIn() (*Report, error) {
	o := h.o
	h.dir = o.Dir
	if h.dir == "" {
		d, err := os.MkdirTemp("", "crashtest-")
		if err != nil {
			return nil, err
		}
		h.dir = d
	} else if err := os.MkdirAll(h.dir, 0o700); err != nil {
		return nil, err
	}
	fmt.Fprintf(h.log, "crashtest: -kill %s -n %d -seed %d -dir %s\n", o.Kill, o.N, o.Seed, h.dir)
	start := time.Now()
	rep, err := h.run()
	if rep != nil {
		rep.Took = time.Since(start)
	}
	return rep, err
}

func (h *harness) run() (*Report, error) {
	// The harness's own throwaway CA: a -dir of an earlier run gets a new one.
	if err := pki.InitWith(pkiDir(h.dir), pki.InitOptions{Terminals: []string{terminalID}, Hosts: []string{"localhost", "127.0.0.1"}, Force: true}); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// Fast device timings: more steps per second is more kill points per second.
	h.acc = emulator.NewNoteAcceptor(emulator.NoteAcceptorConfig{Init: 40 * time.Millisecond, Accept: 60 * time.Millisecond,
		Stack: 60 * time.Millisecond, Reject: 40 * time.Millisecond, EscrowTimeout: 3 * time.Second})
	h.prn = emulator.NewPrinter(emulator.PrinterConfig{Print: 150 * time.Millisecond, Feed: 20 * time.Millisecond})
	var err error
	if h.ap, err = serialport.NewPTY(); err != nil {
		return nil, err
	}
	defer h.ap.Close()
	if h.pp, err = serialport.NewPTY(); err != nil {
		return nil, err
	}
	defer h.pp.Close()
	go h.acc.Serve(ctx, h.ap.Device)
	go h.prn.Serve(ctx, h.pp.Device)

	if h.srvAddr, err = freeAddr(); err != nil {
		return nil, err
	}
	h.termAddr = h.srvAddr
	if h.o.Kill == "network" {
		if h.proxy, err = netcut.New(h.srvAddr); err != nil {
			return nil, err
		}
		defer h.proxy.Close()
		h.termAddr = h.proxy.Addr()
	}
	if h.o.Kill == "floor" {
		if err := h.startFloor(); err != nil {
			return nil, err
		}
		defer h.floor.close()
		// Ctrl-C (or a timeout's SIGTERM) must not leave the children and the PostgreSQL
		// cluster running: stop them and go.
		sig := make(chan os.Signal, 1)
		signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
		defer signal.Stop(sig)
		go func() {
			if _, ok := <-sig; ok {
				fmt.Fprintln(h.log, "crashtest: interrupted; stopping the table servers, the terminal and PostgreSQL")
				h.term.kill()
				h.server.kill()
				h.floor.close()
				os.Exit(1)
			}
		}()
	}
	if err := h.startServer(); err != nil {
		return nil, err
	}
	defer func() { h.server.kill() }()
	if err := h.startTerminal(); err != nil {
		return nil, err
	}
	defer func() { h.term.kill() }()
	if h.floor != nil {
		if err := h.connectFloor(); err != nil {
			return nil, err
		}
	}

	stopPlayer := make(chan struct{})
	playerDone := make(chan struct{})
	go func() { h.player(stopPlayer); close(playerDone) }()
	var loopErr error
	for i := 0; i < h.o.N && loopErr == nil; i++ {
		switch h.o.Kill {
		case "terminal":
			loopErr = h.killTerminal()
		case "server":
			loopErr = h.killServer()
		case "network":
			loopErr = h.cutNetwork()
		case "tamper":
			loopErr = h.tamper(i)
		case "floor":
			loopErr = h.floorKill(i)
		}
		if (i+1)%50 == 0 {
			fmt.Fprintf(h.log, "crashtest: %d/%d kill points\n", i+1, h.o.N)
		}
	}
	close(stopPlayer)
	<-playerDone
	if loopErr != nil {
		return nil, loopErr
	}
	return h.drainAndCheck()
}

// Targets: the harness waits for one of these records (or bot actions) and kills a few
// milliseconds after it; "" kills at a random time. Recording kinds are app/cashier's and
// app/recall's.
var terminalTargets = []string{
	"rec note-escrow", "rec credit-point", "rec credited", "rec ticket-escrow", "rec ticket-held",
	"rec slip-acked", "rec settled", "bot cash-out", "rec cashout-requested", "rec ticket-issued",
	"rec ticket-printed", "rec ticket-confirmed", "rec returned", "", "", "",
}

// await waits for the kill point: one of targets (the terminal says it did that step) and a few
// milliseconds more, or a random moment; it returns what the terminal did last.
func (h *harness) await(targets []string) string {
	t := targets[h.rng.IntN(len(targets))]
	delay := time.Duration(h.rng.IntN(1500)) * time.Millisecond
	if t != "" {
		h.term.waitFor(t, 1500*time.Millisecond)
		delay = time.Duration(h.rng.IntN(40)) * time.Millisecond
	}
	time.Sleep(delay)
	return h.term.lastEvent()
}

func (h *harness) killTerminal() error {
	point := h.await(terminalTargets)
	h.term.kill()
	if h.rng.IntN(4) == 0 {
		// The whole cabinet lost power: the devices reset too.
		h.acc.PowerCycle()
		h.prn.Command("power-cycle")
		point += " +power"
	}
	h.points[point]++
	return h.startTerminal()
}

var serverTargets = []string{
	"rec credit-point", "rec slip-acked", "bot bet", "rec settled", "bot cash-out", "rec cashout-requested",
	"rec ticket-issued", "rec ticket-escrow", "rec ticket-printed", "", "",
}

func (h *harness) killServer() error {
	h.points["server after "+h.await(serverTargets)]++
	h.server.kill()
	time.Sleep(time.Duration(h.rng.IntN(800)) * time.Millisecond)
	return h.startServer()
}

func (h *harness) cutNetwork() error {
	h.points["network after "+h.await(serverTargets)]++
	h.proxy.Cut()
	time.Sleep(time.Duration(100+h.rng.IntN(2000)) * time.Millisecond)
	h.proxy.Restore()
	return h.term.exitedErr()
}

func (h *harness) childArgs(role string, extra ...string) []string {
	args := append([]string{role, "-dir", h.dir}, extra...)
	if h.o.Verbose {
		args = append(args, "-v")
	}
	return args
}

func (h *harness) startServer() error {
	extra := []string{"-listen", h.srvAddr}
	if h.floor != nil {
		extra = append(extra, h.floor.serverArgs(floorT1)...)
	}
	c, err := h.spawn("server", h.childArgs("server", extra...)...)
	if err != nil {
		return err
	}
	h.server = c
	if _, ok := c.waitFor("ready", 30*time.Second); !ok {
		return fmt.Errorf("the table server did not start: %s", c.tail())
	}
	return nil
}

func (h *harness) startTerminal() error {
	c, err := h.spawn("terminal", h.childArgs("terminal", "-addr", h.termAddr, "-acceptor", h.ap.Path,
		"-printer", h.pp.Path, "-seed", fmt.Sprint(h.rng.Uint64()), "-cashout", fmt.Sprint(h.cashoutPct()))...)
	if err != nil {
		return err
	}
	h.term = c
	if _, ok := c.waitFor("ready", 30*time.Second); !ok {
		return fmt.Errorf("the terminal did not start: %s", c.tail())
	}
	return nil
}

// player feeds the acceptor as players do: mostly notes, sometimes a ticket that came out of
// the printer (which may already have been redeemed: the server must refuse it).
func (h *harness) player(stop <-chan struct{}) {
	rng := rand.New(rand.NewPCG(h.o.Seed, 2))
	for {
		select {
		case <-stop:
			return
		case <-time.After(time.Duration(250+rng.IntN(500)) * time.Millisecond):
		}
		h.quietMu.Lock()
		if !h.quiet {
			h.insertOne(rng)
		}
		h.quietMu.Unlock()
	}
}

// setQuiet holds the player (on) or lets them play again.
func (h *harness) setQuiet(on bool) {
	h.quietMu.Lock()
	h.quiet = on
	h.quietMu.Unlock()
}

// insertOne puts a note or a printed ticket in the acceptor's mouth.
func (h *harness) insertOne(rng *rand.Rand) {
	printed := h.prn.Printed()
	if len(printed) > 0 && rng.IntN(4) == 0 {
		t := printed[rng.IntN(len(printed))]
		if len(t.Fields) > 6 && h.acc.InsertTicket(t.Fields[6]) == nil {
			h.inserted.Lock()
			h.inserted.tickets++
			h.inserted.Unlock()
		}
		return
	}
	notes := []int64{500, 1000, 2000, 5000, 10000}
	if h.acc.InsertNote(notes[rng.IntN(len(notes))]) == nil {
		h.inserted.Lock()
		h.inserted.notes++
		h.inserted.Unlock()
	}
}

// drainAndCheck lets everything in flight finish with the network and server up, has the
// terminal cash out what is left, stops the server cleanly and checks the books.
func (h *harness) drainAndCheck() (*Report, error) {
	time.Sleep(500 * time.Millisecond) // a note being drawn in reaches escrow or comes back
	if err := h.term.exitedErr(); err != nil {
		return nil, err
	}
	h.term.send("drain")
	line, ok := h.term.waitFor("drained", 4*time.Minute)
	if !ok {
		return nil, fmt.Errorf("the terminal did not drain: %s", h.term.tail())
	}
	h.term.wait(10 * time.Second)
	h.server.stop()
	if h.floor != nil {
		h.floor.t2.stop()
	}
	rep, err := h.check()
	if rep != nil {
		rep.Kill, rep.N, rep.Seed, rep.Points, rep.Drained = h.o.Kill, h.o.N, h.o.Seed, h.points, line
		h.inserted.Lock()
		rep.NotesInserted, rep.TicketsInserted = h.inserted.notes, h.inserted.tickets
		h.inserted.Unlock()
	}
	if err == nil && h.checked != nil {
		err = h.checked()
	}
	return rep, err
}

// child is a running child process and what it says on stdout.
type child struct {
	name   string
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan string
	exited chan struct{}

	mu     sync.Mutex
	last   string
	stderr bytes.Buffer
}

func (h *harness) spawn(name string, args ...string) (*child, error) {
	cmd := exec.Command(h.o.Self[0], append(append([]string(nil), h.o.Self[1:]...), args...)...)
	cmd.Env = append(os.Environ(), h.o.Env...)
	c := &child{name: name, cmd: cmd, lines: make(chan string, 4096), exited: make(chan struct{})}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if c.stdin, err = cmd.StdinPipe(); err != nil {
		return nil, err
	}
	if h.o.Verbose {
		cmd.Stderr = io.MultiWriter(&lockedWriter{c: c}, h.log)
	} else {
		cmd.Stderr = &lockedWriter{c: c}
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			line := sc.Text()
			if h.o.Verbose && !strings.HasPrefix(line, "rec ") {
				fmt.Fprintf(h.log, "%s: %s\n", name, line)
			}
			if strings.HasPrefix(line, "rec ") || strings.HasPrefix(line, "bot ") {
				c.mu.Lock()
				c.last = line
				c.mu.Unlock()
			}
			select {
			case c.lines <- line:
			default: // nobody is waiting for old lines
				<-c.lines
				c.lines <- line
			}
		}
		cmd.Wait()
		close(c.exited)
	}()
	return c, nil
}

type lockedWriter struct{ c *child }

func (w *lockedWriter) Write(p []byte) (int, error) {
	w.c.mu.Lock()
	defer w.c.mu.Unlock()
	if w.c.stderr.Len() > 1<<16 {
		w.c.stderr.Next(w.c.stderr.Len() - 1<<15)
	}
	return w.c.stderr.Write(p)
}

func (c *child) tail() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.stderr.String()
	if len(s) > 3000 {
		s = s[len(s)-3000:]
	}
	select {
	case <-c.exited:
		return fmt.Sprintf("%s exited (%v): %s", c.name, c.cmd.ProcessState, s)
	default:
		return c.name + ": " + s
	}
}

func (c *child) lastEvent() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.last == "" {
		return "start"
	}
	return c.last
}

// waitFor waits for a line starting with prefix, dropping the lines before it.
func (c *child) waitFor(prefix string, timeout time.Duration) (string, bool) {
	deadline := time.After(timeout)
	for {
		select {
		case line := <-c.lines:
			if strings.HasPrefix(line, prefix) {
				return line, true
			}
		case <-c.exited:
			// Drain what it said before it went.
			for {
				select {
				case line := <-c.lines:
					if strings.HasPrefix(line, prefix) {
						return line, true
					}
				default:
					return "", false
				}
			}
		case <-deadline:
			return "", false
		}
	}
}

func (c *child) send(line string) { fmt.Fprintln(c.stdin, line) }

// exitedErr says whether a child that should be running has died on its own.
func (c *child) exitedErr() error {
	select {
	case <-c.exited:
		return fmt.Errorf("%s died: %s", c.name, c.tail())
	default:
		return nil
	}
}

func (c *child) kill() {
	if c == nil {
		return
	}
	c.cmd.Process.Signal(syscall.SIGKILL)
	<-c.exited
}

func (c *child) stop() {
	c.cmd.Process.Signal(syscall.SIGTERM)
	if !c.wait(10 * time.Second) {
		c.kill()
	}
}

func (c *child) wait(d time.Duration) bool {
	select {
	case <-c.exited:
		return true
	case <-time.After(d):
		return false
	}
}

func freeAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return l.Addr().String(), nil
}

// Report is what a run did and found.
type Report struct {
	Kill            string
	N               int
	Seed            uint64
	Took            time.Duration
	Points          map[string]int
	Drained         string
	NotesInserted   int
	TicketsInserted int
	Books
	Floor *FloorBooks // -kill floor
}

func (r *Report) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "crashtest -kill %s: %d kill points in %s (seed %d)\n", r.Kill, r.N, r.Took.Round(time.Second), r.Seed)
	keys := make([]string, 0, len(r.Points))
	for k := range r.Points {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	b.WriteString("  killed right after:\n")
	for _, k := range keys {
		fmt.Fprintf(&b, "    %5d  %s\n", r.Points[k], k)
	}
	fmt.Fprintf(&b, "  player inserted %d notes and %d tickets\n", r.NotesInserted, r.TicketsInserted)
	b.WriteString(r.Floor.String())
	b.WriteString(r.Books.String())
	return b.String()
}

var errCheck = errors.New("books do not balance")
