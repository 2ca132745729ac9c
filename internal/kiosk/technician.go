package kiosk

import (
	"context"
	"flag"
	"log/slog"
	"os"

	"fyne.io/fyne/v2"

	"github.com/tablegames/ats/app/calibration"
	"github.com/tablegames/ats/app/station"
	"github.com/tablegames/ats/app/technician"
	"github.com/tablegames/ats/internal/demo"
	"github.com/tablegames/ats/ui"
)

// Technician mode on the kiosk (docs/guides/technician.md): the settings a technician
// changed, the touch calibration's files, and the -technician-demo that opens the calibration
// screen at once on a simulated miscalibrated panel (the screenshot of the test command).

// The demo technician of -technician-demo: card and PIN, for the demo only.
const (
	demoTechnician = demo.Technician // the demo table knows their PIN
	demoCard       = "900000"
	demoPIN        = demo.TechnicianPIN
)

// applySettings puts the technician's settings (design, seat, language, sound level) in place of the
// flags' defaults; a flag given on the command line wins.
func applySettings(dir string, o *options, log *slog.Logger) {
	v, err := technician.OpenSettings(dir).Load()
	if err != nil {
		log.Error("technician settings not readable: using the command line's", "err", err)
		return
	}
	given := map[string]bool{}
	flag.Visit(func(f *flag.Flag) { given[f.Name] = true })
	if v.Design != "" && !given["design"] {
		o.design = v.Design
	}
	if v.Seat > 0 && !given["seat"] {
		o.seat = v.Seat
	}
	if v.Volume != nil {
		o.volume = *v.Volume
	}
	if err := ui.SetLanguage(v.Language); err != nil {
		log.Error("technician settings: language", "err", err)
	}
}

// touchPersist is where a calibration goes: the udev rule in /etc/udev/rules.d on a cabinet
// ($ATS_TOUCH_RULES to change it), applied live to $ATS_TOUCH_DEVICE with xinput; in the demo,
// a rule file in the state directory and nothing live.
func touchPersist(dir string, demo bool) calibration.Persist {
	p := calibration.Persist{Rules: os.Getenv("ATS_TOUCH_RULES"), Device: os.Getenv("ATS_TOUCH_DEVICE")}
	if demo && p.Rules == "" {
		p.Rules = station.TouchRules(dir)
	}
	return p
}

// technicianDemo adds the demo technician (once) for -technician-demo.
func technicianDemo(dir string) error {
	s := technician.Open(dir, nil)
	if _, ok := s.Card(demoCard); ok {
		return nil
	}
	return s.Add(demoTechnician, "Demo Technician", demoCard, demoPIN)
}

// demoPanel is the simulated panel of -technician-demo: rotated, scaled and offset, so taps
// miss until it is calibrated.
func demoPanel() *ui.TouchPanel {
	return &ui.TouchPanel{Raw: calibration.Matrix{0.95, -0.033, 0.04, 0.037, 1.05, -0.035}, Cal: calibration.Identity}
}

// enterTechnicianDemo puts the demo technician's card in and the PIN, then opens calibration.
func enterTechnicianDemo(ctx context.Context, st *station.Station, screen *ui.Screen, log *slog.Logger) {
	st.Terminal.TechnicianCard(demoCard)
	if err := st.Desk.EnterService(ctx, demoPIN); err != nil {
		log.Error("technician demo", "err", err)
		return
	}
	// After the view that opens the pages, which the terminal has just queued on the Fyne thread.
	fyne.Do(screen.OpenCalibration)
}
