package kiosk

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/tablegames/ats/app/station"
	"github.com/tablegames/ats/app/technician"
	"github.com/tablegames/ats/client"
	"github.com/tablegames/ats/internal/demo"
	"github.com/tablegames/ats/internal/sound"
	"github.com/tablegames/ats/ui"
)

// Run wires the kiosk (the table, demo or real; the station; the screen) and runs it until the
// window closes. Every part started is closed on the way out, the station before the demo.
func Run(log *slog.Logger) (err error) {
	start := time.Now()
	limitMemory()
	o := parseFlags()
	wheel, profile, err := demoLayout(o) // before anything is made for a layout that does not exist
	if err != nil {
		return err
	}
	if _, err := servePprof(o.pprof, log); err != nil {
		return err
	}
	dir, err := stateDir(o)
	if err != nil {
		return err
	}
	applySettings(dir, &o, log) // a technician's settings (technician.go)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg := station.Config{StateDir: dir, Touch: touchPersist(dir, o.server == ""), ID: o.id, Journal: filepath.Join(dir, "terminal-"+o.id+".db"), Client: client.Config{Addr: o.server, Logger: log},
		Acceptor: o.acceptor, Printer: o.printer, IDPad: o.idpad, Seat: o.seat, Log: log, LocalTechnicianPINs: o.localTechnicianPINs,
		Running: technician.Values{Design: strings.ToUpper(o.design), Language: ui.Speaking()}}

	// The cues sound on the cabinet's speaker at the technician's level; a machine without a
	// sound card logs it and plays silent (internal/sound).
	speaker := sound.Open(o.volume, log)
	defer speaker.Close()
	cfg.Sounds = speaker
	var d *demo.Demo
	if o.server == "" {
		if d, err = demo.Start(ctx, demo.Config{StateDir: dir, TerminalID: o.id, Period: o.demoPeriod, Spin: o.demoSpin,
			Wheel: wheel, Profile: profile, Log: log, Commands: os.Stdin, Replies: os.Stderr,
			Carded: o.demoCarded, Card: o.demoCard, RealityCheck: o.demoRealityCheck}); err != nil {
			return err
		}
		defer func() { err = errors.Join(err, d.Close()) }()
		cfg.Client.Addr, cfg.Client.TLS = d.Addr, d.ClientTLS
		cfg.Acceptor, cfg.Printer, cfg.IDPad, cfg.Seat = d.Acceptor, d.Printer, d.IDPad, d.Seat
	} else if cfg.Client.TLS, err = client.LoadTLS(o.pki, o.id); err != nil {
		return err
	}
	if o.technicianDemo {
		if err := technicianDemo(dir); err != nil {
			return err
		}
	}
	st, err := station.Start(ctx, cfg)
	if err != nil {
		return err
	}
	defer st.Close()
	view := st.WaitForTable(ctx, 10*time.Second)
	go logRounds(ctx, st.Terminal, log)
	if d != nil {
		d.FirstBuyIn(view.Balance, st.MayTakeMoney)
	}
	// Start-up time is a target (issue 4): log it where the test command's screenshot run keeps it.
	return showScreen(ctx, st, view, o, cancel, func() { log.Info("first frame", "after", time.Since(start).Round(time.Millisecond)) })
}
