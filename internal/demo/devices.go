package demo

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// commands plays the devices and the dealer from r, a line at a time: a dealer's command
// ("outcome 17", "spin"…: dealer.go) to the table, "printer …" to the printer, "pad …" to the
// ID pad, anything else to the note acceptor ("note 2000", "ticket 0012…", "jam"…).
//
// Reading r (the kiosk's stdin) cannot be interrupted, so the reading is apart from the doing:
// the reader may outlive Close, blocked in Read, but it only hands lines over and stops at the
// next one; the goroutine that runs the commands and writes the answers is waited for by Close.
func (d *Demo) commands(ctx context.Context, r io.Reader, replies io.Writer) {
	if replies == nil {
		replies = io.Discard
	}
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			select {
			case lines <- sc.Text():
			case <-ctx.Done():
				return
			}
		}
	}()
	d.run(func() {
		for {
			var line string
			select {
			case <-ctx.Done():
				return
			case line = <-lines:
			}
			line = strings.TrimSpace(line)
			if line == "" {
				continue
			}
			msg, err := d.command(line)
			if err != nil {
				fmt.Fprintln(replies, "error:", err)
			} else {
				fmt.Fprintln(replies, "ok:", msg)
			}
		}
	})
}

func (d *Demo) command(line string) (string, error) {
	if c, ok, err := parseDealer(line, d.kind); ok {
		if err != nil {
			return "", err
		}
		return d.dealer(c)
	}
	if rest, ok := strings.CutPrefix(line, "printer "); ok {
		return d.printer.Command(rest)
	}
	if rest, ok := strings.CutPrefix(line, "pad "); ok {
		return d.pad.Command(rest)
	}
	return d.acceptor.Command(line)
}

// saveTickets writes each ticket the emulated printer prints into dir as a PNG a person can
// look at (the printer keeps its tickets in memory; this is the demo's paper tray).
func (d *Demo) saveTickets(ctx context.Context, dir string) {
	tick := time.NewTicker(500 * time.Millisecond)
	defer tick.Stop()
	saved := 0
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		for _, t := range d.printer.Printed()[saved:] {
			saved++
			name := filepath.Join(dir, fmt.Sprintf("ticket-%s-%03d.png", time.Now().Format("20060102-150405"), saved))
			if err := writePNG(name, t.WritePNG); err != nil {
				d.log.Warn("saving printed ticket", "err", err)
				continue
			}
			d.log.Info("ticket printed", "file", name)
		}
	}
}

func writePNG(name string, write func(io.Writer) error) error {
	if err := os.MkdirAll(filepath.Dir(name), 0o700); err != nil {
		return err
	}
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
