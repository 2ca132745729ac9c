package technician

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tablegames/ats/app"
	"github.com/tablegames/ats/app/apptest"
	"github.com/tablegames/ats/app/calibration"
	"github.com/tablegames/ats/app/journal"
	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
)

// PINs are kept as salted PBKDF2 hashes (never the PIN, a new salt for every PIN); wrong PINs
// are throttled after three in a row, doubling, and the count survives a new Store on the file
// (a kiosk restart, atsctl).
func TestStoreHashesAndThrottles(t *testing.T) {
	dir := t.TempDir()
	now := time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	s := Open(dir, clock)
	if err := s.Add("tech-1", "Tess", "900001", "246810"); err != nil {
		t.Fatal(err)
	}
	if err := s.Add("tech-2", "Tom", "900002", "246810"); err != nil {
		t.Fatal(err)
	}
	for _, bad := range [][2]string{{"bad id!", "246810"}, {"tech-3", "1234"}, {"tech-3", "abcdef"}} {
		if err := s.Add(bad[0], "", "", bad[1]); err == nil {
			t.Errorf("Add(%q, PIN %q) accepted", bad[0], bad[1])
		}
	}
	if err := s.Add("tech-3", "", "900001", "135790"); err == nil {
		t.Error("a second technician with the same card accepted")
	}
	b, _ := os.ReadFile(filepath.Join(dir, StoreFile))
	if strings.Contains(string(b), "246810") {
		t.Fatal("the PIN is in the file")
	}
	var salts []string
	for _, line := range strings.Split(string(b), "\n") {
		if strings.Contains(line, `"salt"`) {
			salts = append(salts, line)
		}
	}
	if len(salts) != 2 || salts[0] == salts[1] {
		t.Fatalf("salts %v: want one per PIN, different", salts)
	}
	if fi, _ := os.Stat(filepath.Join(dir, StoreFile)); fi.Mode().Perm() != 0o600 {
		t.Fatalf("file mode %v", fi.Mode())
	}
	if id, ok := s.Card("900002"); !ok || id != "tech-2" {
		t.Fatalf("Card = %q %v", id, ok)
	}
	if _, ok := s.Card("123456"); ok {
		t.Fatal("a player's card is a technician's")
	}
	ctx := context.Background()
	if tech, err := s.Authenticate(ctx, "tech-1", "246810"); err != nil || tech.Name != "Tess" {
		t.Fatalf("right PIN: %+v %v", tech, err)
	}
	if _, err := s.Authenticate(ctx, "nobody", "246810"); !errors.Is(err, app.ErrWrongPIN) {
		t.Fatalf("unknown id: %v", err)
	}
	for i := range 3 {
		if _, err := s.Authenticate(ctx, "tech-1", "000000"); !errors.Is(err, app.ErrWrongPIN) {
			t.Fatalf("wrong PIN %d: %v", i+1, err)
		}
	}
	// Throttled for 30 s: even the right PIN is refused, on a new Store too.
	s = Open(dir, clock)
	if _, err := s.Authenticate(ctx, "tech-1", "246810"); !errors.Is(err, app.ErrThrottled) {
		t.Fatalf("throttled: %v", err)
	}
	if _, err := s.Authenticate(ctx, "tech-2", "246810"); err != nil {
		t.Fatalf("another technician is not throttled: %v", err)
	}
	now = now.Add(31 * time.Second)
	if _, err := s.Authenticate(ctx, "tech-1", "000000"); !errors.Is(err, app.ErrWrongPIN) {
		t.Fatal(err)
	}
	now = now.Add(31 * time.Second) // the fourth wrong PIN doubled it: 60 s
	if _, err := s.Authenticate(ctx, "tech-1", "246810"); !errors.Is(err, app.ErrThrottled) {
		t.Fatalf("doubled throttle: %v", err)
	}
	now = now.Add(30 * time.Second)
	if _, err := s.Authenticate(ctx, "tech-1", "246810"); err != nil {
		t.Fatalf("after the throttle: %v", err)
	}
	if _, err := s.Authenticate(ctx, "tech-1", "000000"); !errors.Is(err, app.ErrWrongPIN) {
		t.Fatal("the count was not reset by the right PIN")
	}
	if _, err := s.Authenticate(ctx, "tech-1", "246810"); err != nil {
		t.Fatalf("one wrong PIN after a right one is not throttled: %v", err)
	}
}

// rig is a terminal on a fake table with a real journal, the local store and the pages.
type rig struct {
	term *app.Terminal
	j    *journal.Journal
	desk *Desk
	dir  string
}

func newRig(t *testing.T) *rig {
	dir := t.TempDir()
	j, err := journal.Open(filepath.Join(dir, "terminal-T01.db"), time.Now)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { j.Close() })
	store := Open(dir, nil)
	if err := store.Add("tech-1", "Tess", "900001", "246810"); err != nil {
		t.Fatal(err)
	}
	layout := roulette.Layout{Wheel: roulette.SingleZero}
	link := apptest.NewLink(time.Now, 0, time.Millisecond, layout, roulette.Limits{Default: roulette.Limit{Min: 100, Max: 5000, Unit: 100}})
	term := app.New(app.Config{Link: link, Service: app.ServiceConfig{Auth: store, Log: JournalLog{j}, Card: store.Card}})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { term.Run(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	link.Push(table.Connection{Up: true})
	desk := NewDesk(DeskConfig{Terminal: term, Journal: j, Settings: OpenSettings(dir),
		Persist: calibration.Persist{Rules: filepath.Join(dir, "udev", "99-ats-touch-calibration.rules")}})
	return &rig{term: term, j: j, desk: desk, dir: dir}
}

func (r *rig) enter(t *testing.T) {
	t.Helper()
	r.term.TechnicianCard("900001")
	if err := r.desk.EnterService(context.Background(), "246810"); err != nil {
		t.Fatal(err)
	}
}

// No page answers without a technician in: meters, log, devices, settings, calibration.
func TestDeskRefusesOutsideService(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	_, e1 := r.desk.Meters(ctx)
	_, e2 := r.desk.EventLog(ctx, 0)
	_, e3 := r.desk.DeviceStatuses(ctx)
	_, e4 := r.desk.Settings()
	e5 := r.desk.SetSetting(ctx, "design", "U")
	_, e6 := r.desk.SaveCalibration(ctx, calibration.Result{Matrix: calibration.Identity})
	for i, err := range []error{e1, e2, e3, e4, e5, e6} {
		if !errors.Is(err, app.ErrNotInService) {
			t.Errorf("page %d outside service: %v", i+1, err)
		}
	}
}

// A calibration saved in service is journalled with the technician, written as the udev rule,
// composed with the calibration in force, and kept in the settings; a setting change is
// journalled with its old and new values; both show in the event log with the session.
func TestDeskCalibrationSettingsAndLog(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	r.term.TechnicianCard("900001")
	if err := r.desk.EnterService(ctx, "999999"); err == nil {
		t.Fatal("wrong PIN accepted")
	}
	r.enter(t)
	fit := calibration.Matrix{1.1, 0, -0.05, 0, 0.9, 0.05}
	m, err := r.desk.SaveCalibration(ctx, calibration.Result{Matrix: fit, HeldOut: 3, Limit: 22})
	if err != nil {
		t.Fatal(err)
	}
	if m != fit || r.desk.Calibration() != fit {
		t.Fatalf("first calibration %v, in force %v", m, r.desk.Calibration())
	}
	// A second fit is made from touches already corrected by the first: it is composed.
	second := calibration.Matrix{1, 0, 0.01, 0, 1, 0}
	m, err = r.desk.SaveCalibration(ctx, calibration.Result{Matrix: second})
	if err != nil {
		t.Fatal(err)
	}
	if m != fit.Then(second) {
		t.Fatalf("composed %v, want %v", m, fit.Then(second))
	}
	rule, err := os.ReadFile(filepath.Join(r.dir, "udev", "99-ats-touch-calibration.rules"))
	if err != nil || !strings.Contains(string(rule), `LIBINPUT_CALIBRATION_MATRIX}="`+m.String()+`"`) {
		t.Fatalf("rule %s %v", rule, err)
	}
	if err := r.desk.SetSetting(ctx, "design", "U"); err != nil {
		t.Fatal(err)
	}
	if err := r.desk.SetSetting(ctx, "limits", "100"); err == nil {
		t.Fatal("a money setting changed on the terminal")
	}
	if err := r.desk.SetSetting(ctx, "seat", "17"); err == nil {
		t.Fatal("seat 17 accepted")
	}
	v, err := r.desk.Settings()
	if err != nil || v.Design != "U" || v.Calibration == nil || v.Calibration.Technician != "tech-1" {
		t.Fatalf("settings %+v %v", v, err)
	}
	if err := r.desk.LeaveService(ctx); err != nil {
		t.Fatal(err)
	}
	r.enter(t)
	page, err := r.desk.EventLog(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, l := range page.Lines {
		kinds = append(kinds, l.Kind+"/"+l.Technician)
	}
	want := "technician-in/tech-1 technician-out/tech-1 technician-config/tech-1 technician-calibration/tech-1 technician-calibration/tech-1 technician-in/tech-1 technician-refused/tech-1"
	if strings.Join(kinds, " ") != want {
		t.Fatalf("log %v\nwant %s", kinds, want)
	}
	if !strings.Contains(page.Lines[2].Detail, `design: "" -> "U"`) {
		t.Fatalf("config line %+v", page.Lines[2])
	}
}

// The log is paged, newest first, 12 a page; a page past the end is the last.
func TestEventLogPages(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	for range 30 {
		if err := (JournalLog{r.j}).ServiceRecord(ctx, KindFault, "", "jam"); err != nil {
			t.Fatal(err)
		}
	}
	r.enter(t)
	p0, _ := r.desk.EventLog(ctx, 0)
	p2, _ := r.desk.EventLog(ctx, 9)
	if p0.Pages != 3 || len(p0.Lines) != 12 || p0.Lines[0].Kind != app.ServiceEntered || p2.Page != 2 || len(p2.Lines) != 7 {
		t.Fatalf("pages: %d lines %d first %s; last page %d lines %d", p0.Pages, len(p0.Lines), p0.Lines[0].Kind, p2.Page, len(p2.Lines))
	}
}

func TestMain(m *testing.M) {
	// The tests check the PIN logic, not PBKDF2's cost: a cheaper hash keeps them fast under
	// the race detector. Each entry records its own count, so the check is the same code.
	iterations = 1000
	os.Exit(m.Run())
}

// A session the terminal went down in is ended in the journal at the next start, with the
// technician and why; a journal whose last session ended, or that has none, is left as it is.
func TestCloseInterruptedSession(t *testing.T) {
	ctx := context.Background()
	j, err := journal.Open(filepath.Join(t.TempDir(), "terminal.db"), time.Now)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	log := JournalLog{J: j}
	closeIt := func() string {
		t.Helper()
		id, err := CloseInterruptedSession(ctx, j)
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	if id := closeIt(); id != "" {
		t.Fatalf("no session: closed %q", id)
	}
	for _, r := range [][2]string{{app.ServiceEntered, "tech-1"}, {app.ServiceLeft, "tech-1"}} {
		if err := log.ServiceRecord(ctx, r[0], r[1], ""); err != nil {
			t.Fatal(err)
		}
	}
	if id := closeIt(); id != "" {
		t.Fatalf("an ended session: closed %q", id)
	}
	if err := log.ServiceRecord(ctx, app.ServiceEntered, "tech-2", ""); err != nil {
		t.Fatal(err)
	}
	if id := closeIt(); id != "tech-2" {
		t.Fatalf("the session the terminal went down in: closed %q", id)
	}
	out, err := j.Last(ctx, app.ServiceLeft, 1)
	if err != nil || len(out) != 1 || !strings.Contains(string(out[0].Body), "tech-2") || !strings.Contains(string(out[0].Body), "restarted in technician mode") {
		t.Fatalf("the closing record: %+v %v", out, err)
	}
	if id := closeIt(); id != "" {
		t.Fatalf("closed twice: %q", id)
	}
	if err := j.Verify(ctx); err != nil {
		t.Fatal(err)
	}
}

// The sound level is the technician's, in steps of 20 %, journalled like every setting and kept
// in the settings file the kiosk reads at start; 0 is a setting (silent), not "unset".
func TestDeskSoundLevelSetting(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	r.enter(t)
	if err := r.desk.SetSetting(ctx, "volume", "55"); err == nil {
		t.Fatal("a level between the steps accepted")
	}
	if err := r.desk.SetSetting(ctx, "volume", "0"); err != nil {
		t.Fatal(err)
	}
	v, err := OpenSettings(r.dir).Load()
	if err != nil || v.Volume == nil || *v.Volume != 0 || v.Get("volume") != "0" {
		t.Fatalf("settings %+v %v", v, err)
	}
	page, err := r.desk.EventLog(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(page.Lines[0].Detail, `volume: "" -> "0"`) {
		t.Fatalf("config line %+v", page.Lines[0])
	}
}

// The settings page shows what the terminal runs with (issue 32 point 13: it read "(Select
// one)" for a setting never changed on the terminal): a setting not in the file is the running
// one, a setting changed shows its new value, and the change is journalled from the value shown.
func TestSettingsShowWhatTheTerminalRunsWith(t *testing.T) {
	r := newRig(t)
	r.desk.cfg.Running = Values{Design: "L", Language: "zh_Hans", Seat: 3}
	ctx := context.Background()
	r.enter(t)
	v, err := r.desk.Settings()
	if err != nil {
		t.Fatal(err)
	}
	for key, want := range map[string]string{"design": "L", "language": "zh_Hans", "seat": "3"} {
		if got := v.Get(key); got != want {
			t.Errorf("%s shows %q, running %q", key, got, want)
		}
	}
	if err := r.desk.SetSetting(ctx, "design", "U"); err != nil {
		t.Fatal(err)
	}
	if v, _ := r.desk.Settings(); v.Design != "U" || v.Seat != 3 {
		t.Fatalf("after setting design U: %+v", v)
	}
	page, err := r.desk.EventLog(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(page.Lines[0].Detail, `design: "L" -> "U"`) {
		t.Fatalf("config line %+v", page.Lines[0])
	}
}
