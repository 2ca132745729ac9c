package main

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/tablegames/ats/app"
	"github.com/tablegames/ats/app/calibration"
	"github.com/tablegames/ats/app/journal"
	"github.com/tablegames/ats/app/meters"
	"github.com/tablegames/ats/app/technician"
)

func init() {
	register("technician", command{
		summary: "technician mode headless: add a technician; with a technician's PIN, calibrate the touch screen, read the meters and the event log, test a device",
		run:     runTechnician,
	})
}

const technicianUsage = `usage: atsctl technician <action> [-dir STATE] [-journal PATH] -id TECHNICIAN
       [-server ADDR] [-pki DIR] [-cert NAME] [-local-pins] [flags]
The technician's PIN is the first line of standard input, checked by the table server as the
kiosk's PIN pad has it checked: the same PINs, the same throttle, the same audit. -server is the
table server (default $ATS_SERVER); -cert names the certificate in -pki (default $ATS_PKI or pki)
to ask with: the terminal's (default $ATS_ID or T01, as the kiosk) or the technician's own (role
technician, whose id must be -id). When the table cannot be reached nothing is opened: there is
no fallback. -local-pins checks technicians.json in the state directory instead (default
$ATS_STATE_DIR or /var/lib/ats), for a table with no technician PINs, as the kiosk's
-local-technician-pins.
  add -id X [-name N] [-card C]   add technician X to the terminal's technicians.json: the card
                                  that asks for the PIN, the name, and a PIN (6-12 digits on
                                  stdin) for -local-pins
  meters                          the terminal's meters (as atsctl records meters)
  log [-page N]                   the event log, newest first, 12 a page: faults, technician
                                  sessions and changes, money events
  calibrate -screen WxH [-rules PATH] [-device NAME] [-xinput CMD]
                                  fit the touch calibration from 5 lines after the PIN, each
                                  "target_x target_y touch_x touch_y" in pixels (e.g. read with
                                  evtest and scaled to the screen): 4 fitted, the 5th the held-out
                                  check. Writes the udev rule (default ` + calibration.DefaultRules + `),
                                  applies it live with xinput if -device is given, journals it.
                                  Needs the kiosk stopped (it writes the journal)
  device ARGS...                  atsctl device ARGS (status, version, accept-test, test-ticket,
                                  watch) after the PIN; with the kiosk stopped (it owns the ports)`

func runTechnician(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, technicianUsage)
		return 2
	}
	action := args[0]
	fs := flag.NewFlagSet("technician "+action, flag.ContinueOnError)
	fs.SetOutput(stderr)
	def := os.Getenv("ATS_STATE_DIR")
	if def == "" {
		def = "/var/lib/ats"
	}
	dir := fs.String("dir", def, "the terminal's state directory")
	jpath := fs.String("journal", "", "the terminal journal (default DIR/terminal-T01.db)")
	id := fs.String("id", "", "the technician's id")
	name := fs.String("name", "", "add: the technician's name")
	card := fs.String("card", "", "add: the technician card's number, as the ID pad reads it")
	page := fs.Int("page", 0, "log: the page, 0 the newest")
	screen := fs.String("screen", "", "calibrate: the screen's size in pixels, WxH")
	rules := fs.String("rules", "", "calibrate: the udev rule file")
	device := fs.String("device", "", "calibrate: the xinput name of the touch device, to apply it live")
	xinput := fs.String("xinput", "xinput", "calibrate: the xinput command")
	srv := fs.String("server", os.Getenv("ATS_SERVER"), "the table server that checks the PIN")
	pkiDir := fs.String("pki", cmp.Or(os.Getenv("ATS_PKI"), "pki"), "the PKI directory with -cert's certificate")
	cert := fs.String("cert", cmp.Or(os.Getenv("ATS_ID"), "T01"), "the certificate to ask the table with: the terminal's or the technician's")
	localPINs := fs.Bool("local-pins", false, "check the PIN against the state directory's technicians.json, not the table")
	rest := args[1:]
	if action == "device" {
		// Flags up to the device's own arguments.
		i := 0
		for i < len(rest) && strings.HasPrefix(rest[i], "-") {
			name := strings.TrimLeft(rest[i], "-")
			if strings.Contains(name, "=") || name == "local-pins" {
				i++ // a flag with its value in it, or the one boolean flag
			} else {
				i += 2
			}
		}
		if err := fs.Parse(rest[:min(i, len(rest))]); err != nil {
			return 2
		}
		rest = rest[min(i, len(rest)):]
	} else if err := fs.Parse(rest); err != nil {
		return 2
	}
	if *id == "" {
		fmt.Fprintln(stderr, "atsctl technician: -id is required\n"+technicianUsage)
		return 2
	}
	if *jpath == "" {
		*jpath = filepath.Join(*dir, "terminal-T01.db")
	}
	in := bufio.NewReader(stdin)
	pin, _ := in.ReadString('\n')
	pin = strings.TrimSpace(pin)
	store := technician.Open(*dir, nil)
	ctx := context.Background()
	if action == "add" {
		if err := store.Add(*id, *name, *card, pin); err != nil {
			fmt.Fprintln(stderr, "atsctl technician add:", err)
			return 2
		}
		fmt.Fprintf(stdout, "technician %s added to %s\n", *id, filepath.Join(*dir, technician.StoreFile))
		return 0
	}
	switch action {
	case "meters", "log", "calibrate", "device":
	default:
		fmt.Fprintf(stderr, "atsctl technician: unknown action %q\n%s\n", action, technicianUsage)
		return 2
	}
	var auth app.TechnicianAuth = store
	if !*localPINs {
		if *srv == "" {
			fmt.Fprintln(stderr, "atsctl technician: -server (or $ATS_SERVER) is required: the table server checks the PIN (-local-pins for a table without technician PINs)")
			return 2
		}
		auth = tableAuth{addr: *srv, pkiDir: *pkiDir, cert: *cert, names: store, timeout: 10 * time.Second}
	}
	tech, err := auth.Authenticate(ctx, *id, pin)
	if err != nil {
		// Refused PINs are counted by the table (or, with -local-pins, in the technicians file)
		// and journalled here when the journal can be written (the kiosk stopped); the kiosk's
		// own journal lock refuses otherwise. A table that could not be asked refused nothing.
		if !errors.Is(err, app.ErrWrongPIN) && !errors.Is(err, app.ErrThrottled) {
			fmt.Fprintln(stderr, "atsctl technician:", err) // no PIN was checked: nothing refused
			return 1
		}
		if j, jerr := journal.Open(*jpath, time.Now); jerr == nil {
			technician.JournalLog{J: j}.ServiceRecord(ctx, app.ServiceRefused, *id, "atsctl: "+err.Error())
			j.Close()
		}
		fmt.Fprintln(stderr, "atsctl technician: refused:", err)
		return 1
	}
	switch action {
	case "meters", "log":
		j, err := journal.OpenReadOnly(*jpath)
		if err != nil {
			fmt.Fprintln(stderr, "atsctl technician:", err)
			return 1
		}
		defer j.Close()
		if action == "meters" {
			m, err := meters.Read(ctx, j)
			if err != nil {
				fmt.Fprintln(stderr, "atsctl technician:", err)
				return 1
			}
			printMeters(stdout, m)
			return 0
		}
		p, err := technician.ReadLog(ctx, j, *page)
		if err != nil {
			fmt.Fprintln(stderr, "atsctl technician:", err)
			return 1
		}
		for _, l := range p.Lines {
			fmt.Fprintf(stdout, "%6d %s %-24s %-10s %10d %s\n", l.Seq, l.At.Format(time.RFC3339), l.Kind, l.Technician, l.Amount, l.Detail)
		}
		fmt.Fprintf(stdout, "page %d of %d\n", p.Page+1, p.Pages)
		return 0
	case "device":
		fmt.Fprintf(stderr, "atsctl technician: %s (%s) testing a device\n", tech.ID, tech.Name)
		return commands["device"].run(rest, in, stdout, stderr)
	}
	return calibrateHeadless(ctx, tech, *jpath, *screen, calibration.Persist{Rules: *rules, Device: *device, Command: []string{*xinput}},
		technician.OpenSettings(*dir), in, stdout, stderr)
}

// calibrateHeadless fits the calibration from touched points given as text, and installs it as
// the kiosk's calibration screen does: journalled (session, calibration), rule, live, settings.
func calibrateHeadless(ctx context.Context, tech app.Technician, jpath, screen string, p calibration.Persist,
	settings *technician.Settings, in io.Reader, stdout, stderr io.Writer) int {
	w, h, ok := parseSize(screen)
	if !ok {
		fmt.Fprintf(stderr, "atsctl technician calibrate: -screen %q: want WxH, e.g. 1920x1080\n", screen)
		return 2
	}
	var samples []calibration.Sample
	sc := bufio.NewScanner(in)
	for sc.Scan() && len(samples) < 5 {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		var v [4]float64
		bad := len(f) != 4
		for i := 0; !bad && i < 4; i++ {
			var err error
			v[i], err = strconv.ParseFloat(f[i], 64)
			bad = err != nil
		}
		if bad {
			fmt.Fprintf(stderr, "atsctl technician calibrate: point %d: %q: want \"target_x target_y touch_x touch_y\"\n", len(samples)+1, sc.Text())
			return 2
		}
		samples = append(samples, calibration.Sample{Target: calibration.Point{X: v[0] / w, Y: v[1] / h},
			Touch: calibration.Point{X: v[2] / w, Y: v[3] / h}})
	}
	if len(samples) != 5 {
		fmt.Fprintf(stderr, "atsctl technician calibrate: %d points given, want 5 (4 fitted, 1 check)\n", len(samples))
		return 2
	}
	r, err := calibration.Calibrate(calibration.Size{W: w, H: h}, samples[:4], samples[4])
	if err != nil {
		fmt.Fprintln(stderr, "atsctl technician calibrate: refused:", err)
		return 1
	}
	j, err := journal.Open(jpath, time.Now)
	if err != nil {
		fmt.Fprintln(stderr, "atsctl technician calibrate:", err)
		return 1
	}
	defer j.Close()
	// The headless session is the same as one on the kiosk: in, the change, out, in the journal.
	log := technician.JournalLog{J: j}
	if err := log.ServiceRecord(ctx, app.ServiceEntered, tech.ID, "atsctl technician calibrate"); err != nil {
		fmt.Fprintln(stderr, "atsctl technician calibrate:", err)
		return 1
	}
	defer log.ServiceRecord(ctx, app.ServiceLeft, tech.ID, "atsctl technician calibrate")
	// The points were read through the calibration in force (as the kiosk reads them).
	var m calibration.Matrix
	v, err := settings.Load()
	if err == nil && v.Calibration != nil {
		m = v.Calibration.Matrix.Then(r.Matrix)
	} else {
		m = r.Matrix
	}
	detail := fmt.Sprintf("matrix %q, held-out error %.1f px (limit %.1f), largest residual %.1f px", m.String(), r.HeldOut, r.Limit, r.Residual)
	if err := log.ServiceRecord(ctx, technician.KindCalibration, tech.ID, detail); err != nil {
		fmt.Fprintln(stderr, "atsctl technician calibrate:", err)
		return 1
	}
	at := time.Now()
	if err := p.Save(ctx, m, tech.ID, at); err != nil {
		fmt.Fprintln(stderr, "atsctl technician calibrate:", err)
		return 1
	}
	if err := technician.SaveCalibration(settings, technician.Calibrated{Matrix: m, At: at, Technician: tech.ID, HeldOut: r.HeldOut}); err != nil {
		fmt.Fprintln(stderr, "atsctl technician calibrate:", err)
		return 1
	}
	fmt.Fprintf(stdout, "LIBINPUT_CALIBRATION_MATRIX=\"%s\"\nheld-out error %.1f px (limit %.1f), largest residual %.1f px\n", m, r.HeldOut, r.Limit, r.Residual)
	return 0
}

func parseSize(s string) (w, h float64, ok bool) {
	a, b, found := strings.Cut(s, "x")
	if !found {
		return 0, 0, false
	}
	wi, err1 := strconv.Atoi(a)
	hi, err2 := strconv.Atoi(b)
	if errors.Join(err1, err2) != nil || wi <= 0 || hi <= 0 {
		return 0, 0, false
	}
	return float64(wi), float64(hi), true
}
