// Command atsctl is the operator's and technician's tool for a terminal: auditing settlements
// against the rules engine, reading records, and talking to devices on a real port; and the
// cashier's at the cage (atsctl cage: look up and pay tickets, shift totals, floor report).
//
// Each subcommand lives in its own file and registers itself in commands, so adding one never
// touches another's code.
package main

import (
	"fmt"
	"io"
	"os"
	"sort"
)

// command is one atsctl subcommand. It returns the process exit code: 0 success, 2 invalid input
// or usage, 1 any other failure.
type command struct {
	summary string
	run     func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

var commands = map[string]command{}

func register(name string, c command) {
	if _, dup := commands[name]; dup {
		panic("atsctl: subcommand registered twice: " + name) // programming error, caught by any test run
	}
	commands[name] = c
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stderr)
		return 2
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "atsctl: unknown subcommand %q\n", args[0])
		usage(stderr)
		return 2
	}
	return c.run(args[1:], stdin, stdout, stderr)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: atsctl <subcommand> [arguments]")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
}
