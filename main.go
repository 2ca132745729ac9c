// Command ats is the player terminal (ATS) of an electronic multi-player roulette table: the
// Fyne kiosk. With no table server configured it runs in demo mode (internal/demo). main only
// makes the logger and calls internal/kiosk, which wires the flags, the table, the station and the
// screen.
package main

import (
	"log/slog"
	"os"

	"github.com/tablegames/ats/internal/kiosk"
)

func main() {
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	if err := kiosk.Run(log); err != nil {
		log.Error("ats", "err", err)
		os.Exit(1)
	}
}
