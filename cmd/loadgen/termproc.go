package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/pprof"
	"strconv"
	"strings"
	"time"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/server/pki"
)

// Measured terminals in processes of their own (-terminal-procs N). In loadgen's one process
// the 500 or 1,000 terminals' own TLS, HTTP/2 and protobuf take about as much CPU as the table
// server, share its scheduler and its heap, and so their cost is counted in the server's
// latencies. Run apart, this process's CPU is the server's alone (reported as such, and the
// terminal processes' CPU apart from it); the OS still shares the machine's cores between them.
//
// The parent issues each terminal's certificate and writes them, with the CA, into one file per
// process in the run's directory, then starts this same executable with -terminal-child. The
// child connects and buys in its terminals and says "ready". For each measured round the parent
// writes "ROUND ROUND_ID DEADLINE_UNIX_NANOS"; the child's terminals wager through the period
// exactly as in-process ones do (terminal.wager), it says "wagered" once every one has heard
// "no more bets", and then, once each has its Settled event, writes one JSON line (childResult)
// with its samples. The settlement times are wall-clock times (Unix nanoseconds): every process
// reads the one clock of this machine, so the parent subtracts the time it entered the outcome.
// At the end of its input the child closes its terminals and exits.

// terminalChildFlag, first on the command line, makes loadgen (or its test binary) the
// terminal process.
const terminalChildFlag = "-terminal-child"

// childCreds is the file a terminal process reads its terminals' credentials from.
type childCreds struct {
	CA        []byte      `json:"ca"`
	Terminals []childCred `json:"terminals"`
}

type childCred struct {
	ID   string `json:"id"`
	Cert []byte `json:"cert"`
	Key  []byte `json:"key"`
	Card string `json:"card,omitempty"` // the player card its wagers carry (-carded; registered by the parent)
}

// childResult is one round as a terminal process measured it.
type childResult struct {
	Slip    []time.Duration `json:"slip_ns"`
	SlipAt  []int64         `json:"slip_at_unix_ns,omitempty"` // when each slip of Slip was sent (-slow-report)
	GC      []int64         `json:"gc_unix_ns,omitempty"`      // when each GC cycle of the process ended (-slow-report)
	Lock    []time.Duration `json:"lock_ns"`
	Settled []int64         `json:"settled_unix_ns"` // when each terminal received its Settled event
	Errors  int64           `json:"errors"`
	Notes   []string        `json:"notes"` // what each error was
	CPU     time.Duration   `json:"cpu_ns"`
}

// mergeInto adds a terminal process's round to the parent's figures; start is when the parent
// entered the outcome.
func (r childResult) mergeInto(rec *recorder, settle *stats, start time.Time) {
	rec.slipRTT.addAll(r.Slip)
	if len(r.SlipAt) == len(r.Slip) {
		rec.slips.addAll(r.SlipAt, r.Slip)
	}
	rec.childGC = append(rec.childGC, r.GC...)
	rec.lockEarly.addAll(r.Lock)
	for _, at := range r.Settled {
		settle.add(time.Unix(0, at).Sub(start))
	}
	for _, n := range r.Notes {
		rec.fail("%s", n)
	}
	if extra := r.Errors - int64(len(r.Notes)); extra > 0 {
		rec.errors.Add(extra)
	}
}

type termProc struct {
	name string
	cmd  *exec.Cmd
	in   io.WriteCloser
	out  *bufio.Scanner
}

// startTermProcs splits the o.terminals measured terminals (T001…) between o.terminalProcs
// processes and starts them; it returns once every one has bought in its terminals. On an
// error it returns the processes it started, for the caller to close.
func startTermProcs(m *pki.Memory, dir, addr string, o options) ([]*termProc, error) {
	return startTermProcsFrom(m, dir, addr, o, 0, "T1")
}

// startTermProcsFrom is startTermProcs for table tableID of a floor, whose terminals are
// numbered from first+1.
func startTermProcsFrom(m *pki.Memory, dir, addr string, o options, first int, tableID string) ([]*termProc, error) {
	n := min(o.terminalProcs, o.terminals)
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	var procs []*termProc
	for p := range n {
		creds := childCreds{CA: m.CA.PEM}
		for i := p; i < o.terminals; i += n {
			id := fmt.Sprintf("T%03d", first+i+1)
			is, err := m.CA.IssueClient(pki.RoleTerminal, id)
			if err != nil {
				return procs, err
			}
			c := childCred{ID: id, Cert: is.CertPEM, Key: is.KeyPEM}
			if o.carded {
				c.Card = loadCard(id)
			}
			creds.Terminals = append(creds.Terminals, c)
		}
		b, err := json.Marshal(creds)
		if err != nil {
			return procs, err
		}
		path := filepath.Join(dir, fmt.Sprintf("terminals-%s-%d.json", tableID, p+1))
		if err := os.WriteFile(path, b, 0o600); err != nil {
			return procs, err
		}
		args := []string{terminalChildFlag, "-addr", addr, "-creds", path,
			"-rate", strconv.FormatFloat(o.rate, 'g', -1, 64), "-jitter", o.jitter.String()}
		if o.slowReport {
			args = append(args, "-slow-report")
		}
		if o.cpuProfile != "" { // each terminal process profiles itself beside the server's profile
			args = append(args, "-cpuprofile", fmt.Sprintf("%s.%s-terminals-%d", o.cpuProfile, tableID, p+1))
		}
		cmd := exec.Command(exe, args...)
		cmd.Stderr = os.Stderr
		in, out, err := startPiped(cmd)
		if err != nil {
			return procs, err
		}
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<16), 256<<20) // a round's samples are one line
		procs = append(procs, &termProc{name: fmt.Sprintf("terminal process %d of %s (%d terminals)", p+1, tableID, len(creds.Terminals)), cmd: cmd, in: in, out: sc})
	}
	// They connect and buy in at the same time; each says when it is done.
	for _, p := range procs {
		if line, err := p.line(); err != nil || line != "ready" {
			return procs, fmt.Errorf("%s did not start: %q %v", p.name, line, err)
		}
	}
	return procs, nil
}

func (p *termProc) line() (string, error) {
	if p.out.Scan() {
		return p.out.Text(), nil
	}
	if err := p.out.Err(); err != nil {
		return "", err
	}
	return "", io.ErrUnexpectedEOF
}

// roundLine is the parent's line starting a round in a terminal process.
func roundLine(roundID string, deadline time.Time) string {
	return fmt.Sprintf("ROUND %s %d", roundID, deadline.UnixNano())
}

// parseRoundLine reads a roundLine: a round id without spaces and a positive deadline.
func parseRoundLine(line string) (roundID string, deadline time.Time, err error) {
	f := strings.Fields(line)
	if len(f) != 3 || f[0] != "ROUND" {
		return "", time.Time{}, fmt.Errorf("bad round line %q", line)
	}
	ns, err := strconv.ParseInt(f[2], 10, 64)
	if err != nil || ns <= 0 {
		return "", time.Time{}, fmt.Errorf("bad deadline %q in round line", f[2])
	}
	// Only the line roundLine writes (no other spacing, no sign or leading zeros): anything
	// else is not from the parent.
	if roundLine(f[1], time.Unix(0, ns)) != line {
		return "", time.Time{}, fmt.Errorf("bad round line %q", line)
	}
	return f[1], time.Unix(0, ns), nil
}

func (p *termProc) startRound(roundID string, deadline time.Time) error {
	if _, err := fmt.Fprintln(p.in, roundLine(roundID, deadline)); err != nil {
		return fmt.Errorf("%s: %w", p.name, err)
	}
	return nil
}

func (p *termProc) awaitWagered() error {
	if line, err := p.line(); err != nil || line != "wagered" {
		return fmt.Errorf("%s: %q %v", p.name, line, err)
	}
	return nil
}

func (p *termProc) awaitResult() (childResult, error) {
	line, err := p.line()
	if err != nil {
		return childResult{}, fmt.Errorf("%s: %w", p.name, err)
	}
	var r childResult
	if err := json.Unmarshal([]byte(line), &r); err != nil {
		return childResult{}, fmt.Errorf("%s: result %.80q: %w", p.name, line, err)
	}
	return r, nil
}

// Close ends the process: the end of its input tells it to close its terminals and exit.
func (p *termProc) Close() error {
	return endChild(p.cmd, p.in, 10*time.Second)
}

// terminalChild is the terminal process: its arguments are those after -terminal-child.
func terminalChild(args []string, stdin io.Reader, stdout io.Writer) error {
	fs := flag.NewFlagSet("loadgen "+terminalChildFlag, flag.ContinueOnError)
	addr := fs.String("addr", "", "the table server's address")
	credsPath := fs.String("creds", "", "the file of the terminals' credentials")
	rate := fs.Float64("rate", 10, "slip updates per second per terminal")
	jitter := fs.Duration("jitter", 0, "random delay up to this on each direction of every terminal's link")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of this terminal process to this file")
	slow := fs.Bool("slow-report", false, "report each slip's send time and this process's GC cycles")
	if err := fs.Parse(args); err != nil {
		return err
	}
	var gc *gcWatch
	if *slow {
		gc = watchGC()
		defer gc.Stop()
	}
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	if *addr == "" || *credsPath == "" || *rate <= 0 {
		return errors.New("-addr, -creds and a positive -rate are required")
	}
	b, err := os.ReadFile(*credsPath)
	if err != nil {
		return err
	}
	var creds childCreds
	if err := json.Unmarshal(b, &creds); err != nil {
		return fmt.Errorf("%s: %w", *credsPath, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	var terms []*terminal
	defer func() {
		for _, t := range terms {
			t.c.Close()
		}
	}()
	for _, c := range creds.Terminals {
		cfg, err := pki.ClientTLS(creds.CA, pki.Issued{CertPEM: c.Cert, KeyPEM: c.Key}, "localhost")
		if err != nil {
			return fmt.Errorf("%s: %w", c.ID, err)
		}
		t, err := dialTerminal(ctx, c.ID, *addr, cfg, *jitter, quiet)
		if err != nil {
			return err
		}
		t.card = c.Card
		terms = append(terms, t)
		if err := t.presentCard(ctx); err != nil {
			return err
		}
	}
	fmt.Fprintln(stdout, "ready")
	spots := roulette.Layout{Wheel: roulette.SingleZero}.Spots()
	in := bufio.NewScanner(stdin)
	enc := json.NewEncoder(stdout)
	for in.Scan() {
		roundID, deadline, err := parseRoundLine(in.Text())
		if err != nil {
			return err
		}
		before := cpuTime()
		var notes bytes.Buffer
		rec := &recorder{out: &notes}
		wagerAll(ctx, terms, roundID, deadline, *rate, spots, rec)
		fmt.Fprintln(stdout, "wagered")
		var res childResult
		for _, t := range terms {
			if at, ok := t.awaitSettled(10 * time.Second); ok {
				res.Settled = append(res.Settled, at.UnixNano())
			} else {
				rec.fail("%s: no settlement of %s", t.id, roundID)
			}
		}
		res.Slip, res.Lock, res.Errors = rec.slipRTT.values(), rec.lockEarly.values(), rec.errors.Load()
		if gc != nil {
			if at, rtt := rec.slips.values(); len(rtt) == len(res.Slip) {
				res.SlipAt, res.Slip = at, rtt
			}
			res.GC = gc.Ends()
		}
		res.Notes = strings.FieldsFunc(notes.String(), func(r rune) bool { return r == '\n' })
		res.CPU = cpuTime() - before
		if err := enc.Encode(res); err != nil {
			return err
		}
	}
	return in.Err()
}
