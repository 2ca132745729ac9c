package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/tablegames/ats/server/pki"
)

// An abusive terminal in its own process (-abuse-process). In loadgen's one process the
// abuser's client shares the Go scheduler, the garbage collector and the 2 cores with the
// server and the measured terminals, so what the abuser costs its own client is counted
// against the table. A hostile cabinet runs on its own machine: as a separate process the
// abuser still shares this machine's cores with the table (the OS schedules the two), but no
// longer its scheduler or heap. Both figures are reported in docs/performance/table-server.md.
//
// The parent writes the abuser's certificate, key and the CA into the run's directory and
// starts this same executable with -abuse-child. The child buys in and says "ready"; for each
// measured round the parent writes "ROUND DEADLINE_UNIX_NANOS", the child abuses the table
// until the deadline and answers with its tally on one line; at the end of its input it exits.

// abuseRunner is an abusive terminal, in this process (*abuser) or its own (*abuseProc).
type abuseRunner interface {
	run(ctx context.Context, roundID string, deadline time.Time)
	String() string
	Close() error
}

type abuseProc struct {
	id    string
	cmd   *exec.Cmd
	in    io.WriteCloser
	out   *bufio.Scanner
	tally string
}

// startAbuseProc writes the abuser's credentials into dir and starts it as a child process.
// procs, if positive, is the child's GOMAXPROCS.
func startAbuseProc(m *pki.Memory, dir, id, addr string, procs int, o abuseOpts) (*abuseProc, error) {
	is, err := m.CA.IssueClient(pki.RoleTerminal, id)
	if err != nil {
		return nil, err
	}
	certs := filepath.Join(dir, "abuser-"+id)
	if err := os.MkdirAll(certs, 0o700); err != nil {
		return nil, err
	}
	for name, b := range map[string][]byte{"ca.pem": m.CA.PEM, "cert.pem": is.CertPEM, "key.pem": is.KeyPEM} {
		if err := os.WriteFile(filepath.Join(certs, name), b, 0o600); err != nil {
			return nil, err
		}
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(exe, "-abuse-child", "-abuse-addr", addr, "-abuse-certs", certs, "-abuse-id", id,
		"-abuse-rate", strconv.FormatFloat(o.rate, 'g', -1, 64), "-abuse-redial="+strconv.FormatBool(o.redial))
	cmd.Stderr = os.Stderr
	cmd.Env = os.Environ()
	if procs > 0 {
		cmd.Env = append(cmd.Env, fmt.Sprintf("GOMAXPROCS=%d", procs))
	}
	in, out, err := startPiped(cmd)
	if err != nil {
		return nil, err
	}
	p := &abuseProc{id: id, cmd: cmd, in: in, out: bufio.NewScanner(out)}
	if !p.out.Scan() || p.out.Text() != "ready" {
		p.Close()
		return nil, fmt.Errorf("abusive terminal %s: its process did not start: %q %v", id, p.out.Text(), p.out.Err())
	}
	return p, nil
}

func (p *abuseProc) run(_ context.Context, roundID string, deadline time.Time) {
	if _, err := fmt.Fprintf(p.in, "%s %d\n", roundID, deadline.UnixNano()); err != nil {
		p.tally = fmt.Sprintf("%s: %v", p.id, err)
		return
	}
	if p.out.Scan() {
		p.tally = p.out.Text()
	} else {
		p.tally = fmt.Sprintf("%s: no tally: %v", p.id, p.out.Err())
	}
}

func (p *abuseProc) String() string { return p.tally + " (its own process)" }

func (p *abuseProc) Close() error {
	return endChild(p.cmd, p.in, 5*time.Second)
}

// abuseChild is the child process: an abusive terminal driven by its parent through stdin.
func abuseChild(addr, certs, id string, o abuseOpts, stdin io.Reader, stdout io.Writer) error {
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(certs, name))
		if err != nil {
			fmt.Fprintln(os.Stderr, "loadgen abuser:", err)
			os.Exit(1)
		}
		return b
	}
	cfg, err := pki.ClientTLS(read("ca.pem"), pki.Issued{CertPEM: read("cert.pem"), KeyPEM: read("key.pem")}, "localhost")
	if err != nil {
		return err
	}
	ctx := context.Background()
	a, err := newAbuser(ctx, id, addr, cfg, o)
	if err != nil {
		return err
	}
	defer a.Close()
	fmt.Fprintln(stdout, "ready")
	in := bufio.NewScanner(stdin)
	for in.Scan() {
		f := strings.Fields(in.Text())
		if len(f) != 2 {
			return fmt.Errorf("abuser %s: bad round line %q", id, in.Text())
		}
		ns, err := strconv.ParseInt(f[1], 10, 64)
		if err != nil {
			return fmt.Errorf("abuser %s: bad deadline %q", id, f[1])
		}
		before := cpuTime()
		a.run(ctx, f[0], time.Unix(0, ns))
		fmt.Fprintf(stdout, "%v, its process's cpu %v\n", a, (cpuTime() - before).Round(time.Millisecond))
	}
	return in.Err()
}

// startPiped starts a child process of this tool with pipes to its stdin and from its stdout.
func startPiped(cmd *exec.Cmd) (io.WriteCloser, io.ReadCloser, error) {
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, nil, err
	}
	return in, out, nil
}

// endChild closes a child's input, which tells it to finish, and waits for it to exit; after
// grace it is killed.
func endChild(cmd *exec.Cmd, in io.Closer, grace time.Duration) error {
	in.Close()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(grace):
		cmd.Process.Kill()
		return <-done
	}
}
