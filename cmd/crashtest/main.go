// Command crashtest is the crash harness: it runs a real table server and the terminal core
// headless (app/station, exactly as the kiosk wires it) with the emulated note acceptor and
// printer on pseudo-terminals, lets a player feed notes and tickets and a bot bet and cash out,
// and kills one part over and over at random points of buy-in, betting, settlement and
// cash-out: the terminal process with SIGKILL (sometimes the devices' power too), the table
// server process with SIGKILL, or the network between them. Then it drains the terminal and
// checks that nothing was lost or paid twice, across the terminal journal, the server ledger,
// the notes in the stacker and the tickets that came out of the printer.
//
//	crashtest [-kill terminal|server|network|tamper|floor] [-n 1000] [-seed N] [-dir DIR] [-v]
//
// -kill floor runs a floor of two table servers (T1, T2) on a throwaway PostgreSQL (initdb and
// pg_ctl in a temporary directory, removed after): T1's tickets are redeemed at T2's terminal
// and paid at the cage while the harness kills either table server mid-redemption (floor.go).
//
// It exits 1 and says what is wrong when a check fails. The same binary runs the two child
// processes: "crashtest terminal …" and "crashtest server …".
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"time"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "terminal":
			if err := runTerminal(args[1:], stdin, stdout); err != nil {
				fmt.Fprintln(stderr, "crashtest terminal:", err)
				return 1
			}
			return 0
		case "server":
			if err := runServer(args[1:], stdout); err != nil {
				fmt.Fprintln(stderr, "crashtest server:", err)
				return 1
			}
			return 0
		}
	}
	fs := flag.NewFlagSet("crashtest", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o options
	fs.StringVar(&o.Kill, "kill", "terminal", "what to kill: terminal, server or network; tamper: kill the terminal and plant a fault in its journal or the ledger, which must be caught; floor: two table servers on a throwaway PostgreSQL, T1's tickets redeemed at T2 and the cage, either server killed mid-redemption")
	fs.IntVar(&o.N, "n", 100, "kill points")
	fs.Uint64Var(&o.Seed, "seed", uint64(time.Now().UnixNano()), "random seed (printed, to replay a run)")
	fs.StringVar(&o.Dir, "dir", "", "working directory (kept); default a temporary one, removed on success")
	fs.BoolVar(&o.Verbose, "v", false, "children log to stderr")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	switch o.Kill {
	case "terminal", "server", "network", "tamper", "floor":
	default:
		fmt.Fprintln(stderr, "crashtest: -kill must be terminal, server, network, tamper or floor")
		return 2
	}
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintln(stderr, "crashtest:", err)
		return 1
	}
	o.Self = []string{self}
	rep, err := Run(o, stderr)
	if rep != nil {
		fmt.Fprint(stdout, rep)
	}
	if err != nil {
		fmt.Fprintln(stderr, "crashtest: FAILED:", err)
		return 1
	}
	return 0
}
