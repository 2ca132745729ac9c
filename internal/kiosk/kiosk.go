package kiosk

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"time"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/internal/sound"
)

// limitMemory keeps the resident size flat over a long session (issue 4) without ever letting
// the collector run all the time: unless GOGC or GOMEMLIMIT says otherwise, the heap may grow
// by half its live size before a collection (Go's default lets it double).
//
// A fixed soft limit did this before (32 MB), and cost the kiosk a fifth of a core once the live
// heap had grown past it (42 MB with the Chinese glyphs, the felt's and racetrack's pictures and
// their textures): the collector then runs back to back, ~25 cycles a second, capped only by
// its 50 % CPU limiter (issue 18: 21.6 % of a core idle, 6.9 % without the limit). A percentage
// follows the live heap wherever features take it; the soak's log shows the cycles per round.
func limitMemory() {
	if os.Getenv("GOGC") == "" && os.Getenv("GOMEMLIMIT") == "" {
		debug.SetGCPercent(50)
	}
}

// stateDir is where the terminal journal (and in demo mode the table's ledger and the printed
// tickets) live: $ATS_STATE_DIR, or ats-demo in the temporary directory — for a demo on another
// layout than the default single zero, ats-demo-double-zero-<profile>, since a demo table's
// state belongs to its wheel (internal/demo refuses another's). It is made if missing.
func stateDir(o options) (string, error) {
	dir := os.Getenv("ATS_STATE_DIR")
	if dir == "" {
		name := "ats-demo"
		if o.server == "" && o.demoWheel != "" && o.demoWheel != "single-zero" {
			name += "-" + o.demoWheel + "-" + o.demoProfile
		}
		dir = filepath.Join(os.TempDir(), name)
	}
	return dir, os.MkdirAll(dir, 0o700)
}

// options are the kiosk's command line.
type options struct {
	server, pki, id, design  string
	windowed                 bool
	acceptor, printer, idpad string
	seat                     int
	demoPeriod, demoSpin     time.Duration
	// The demo table's carded play (issue 31): on, the card in the seat's reader, the reality
	// check's interval.
	demoCarded             bool
	demoCard               string
	demoRealityCheck       time.Duration
	demoWheel, demoProfile string // the demo table's wheel and double-zero layout profile
	technicianDemo         bool   // technician.go
	localTechnicianPINs    bool   // technician PINs from technicians.json, not the table
	pprof                  string // profile.go: Go's profiles on this loopback address
	volume                 int    // the sound level in percent: the technician's setting, else the default
}

func parseFlags() options {
	o := options{volume: sound.DefaultLevel}
	flag.StringVar(&o.server, "server", "", "table server address; empty runs the demo table")
	flag.StringVar(&o.pki, "pki", "pki", "PKI directory with this terminal's certificate (with -server)")
	flag.StringVar(&o.id, "id", "T01", "terminal id (its certificate name)")
	flag.StringVar(&o.design, "design", "A", "screen design: A, L or U")
	flag.BoolVar(&o.windowed, "windowed", false, "a window instead of the full-screen kiosk")
	flag.StringVar(&o.acceptor, "acceptor", "", "note acceptor serial device (with -server)")
	flag.StringVar(&o.printer, "printer", "", "ticket printer serial device (with -server)")
	flag.StringVar(&o.idpad, "idpad", "", "player-ID pad line (with -server)")
	flag.IntVar(&o.seat, "seat", 1, "this terminal's pad on the ID pad line")
	flag.DurationVar(&o.demoPeriod, "demo-period", 20*time.Second, "demo table: wagering period")
	flag.BoolVar(&o.demoCarded, "demo-carded", false, "demo table: play carded (SPEC §10) with the demo's player cards: 1000001 no limits yet, 1000002 its loss limit reached, 1000003 on a break, 1000004 barred, 1000005 lost")
	flag.StringVar(&o.demoCard, "demo-card", "", "demo table: the player card in the seat's reader at start (default 1000001 where one is needed)")
	flag.DurationVar(&o.demoRealityCheck, "demo-reality-check", 0, "demo table, carded: the reality check's interval (0: the table's default, 30 min)")
	flag.DurationVar(&o.demoSpin, "demo-spin", 4*time.Second, "demo table: time from the deadline to the outcome, and the result's time on screen")
	flag.StringVar(&o.demoWheel, "wheel", "single-zero", "demo table: the wheel, single-zero or double-zero")
	flag.StringVar(&o.demoProfile, "profile", "crown-rapid", "demo table: a double-zero layout's profile, crown-rapid, crown-fh, crown-vw (Crown's rules) or star (The Star's: a player card in the demo seat's reader, Lucky Ball in its Mega version)")
	flag.BoolVar(&o.technicianDemo, "technician-demo", false, "demo: enter technician mode at once and open the touch calibration, on a simulated miscalibrated panel")
	flag.BoolVar(&o.localTechnicianPINs, "local-technician-pins", false, "check technician PINs against this terminal's technicians.json instead of the table server's technician PINs (a table without a -technicians file)")
	flag.StringVar(&o.pprof, "pprof", "", "serve Go's profiles (net/http/pprof) on this loopback address, e.g. 127.0.0.1:6060 (issue 18's soak)")
	flag.Parse()
	return o
}

// demoLayout is the demo table's wheel and layout profile from -wheel and -profile; a name
// neither knows is an error that names the choices, before anything starts.
func demoLayout(o options) (roulette.Wheel, roulette.Profile, error) {
	w, err := roulette.ParseWheel(o.demoWheel)
	if err != nil {
		return 0, 0, fmt.Errorf("-wheel: %w", err)
	}
	p, err := roulette.ParseProfile(o.demoProfile)
	if err != nil {
		return 0, 0, fmt.Errorf("-profile: %w", err)
	}
	return w, p, nil
}
