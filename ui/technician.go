package ui

import (
	"context"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/tablegames/ats/app"
	"github.com/tablegames/ats/app/calibration"
	"github.com/tablegames/ats/app/meters"
	"github.com/tablegames/ats/app/technician"
	"github.com/tablegames/ats/ui/look"
)

// Service is technician mode's pages as the screen sees them; *technician.Desk is the real one.
// The player's screen offers no way to it: the PIN pad opens only when the terminal says a
// technician card is in (View.Service.Asking), and the pages only while the terminal is in
// service (View.Service.Open) — both decided in app, never by a touch on the player's screen.
type Service interface {
	EnterService(ctx context.Context, pin string) error
	LeaveService(ctx context.Context) error
	Calibration() calibration.Matrix
	SaveCalibration(ctx context.Context, r calibration.Result) (calibration.Matrix, error)
	Meters(ctx context.Context) (meters.Meters, error)
	EventLog(ctx context.Context, page int) (technician.LogPage, error)
	DeviceStatuses(ctx context.Context) ([]technician.DeviceStatus, error)
	Settings() (technician.Values, error)
	SetSetting(ctx context.Context, key, value string) error
	// The devices page's tests over the running drivers; each says its outcome.
	PrintTestTicket(ctx context.Context) (string, error)
	AcceptTest(ctx context.Context) (string, error)
}

var _ Service = (*technician.Desk)(nil)

// serviceScreen is technician mode on the kiosk's screen: the PIN pad, the pages, and the
// full-screen calibration, each an overlay of the canvas over the player's screen (which reads
// "terminal in service" under them).
type serviceScreen struct {
	s     *Screen
	svc   Service
	panel *TouchPanel
	// async runs a slow call (a PIN check hashes for ~0.1 s) off the Fyne thread; tests run it
	// in place.
	async func(func())

	shown string // "", "pin" or "pages": the overlay up now
	layer fyne.CanvasObject
	cal   fyne.CanvasObject // the calibration overlay, over the pages

	pin     string
	pinText *canvas.Text
	pinSaid *widget.Label

	header   *widget.Label
	tabs     *container.AppTabs
	calInfo  *widget.Label
	devices  *fyne.Container // the devices page's blocks (techdevices.go)
	devSaid  *widget.Label   // the outcome of the last device test
	meters   *widget.Label
	log      *widget.Label
	logPage  int
	logPages *widget.Label
	settings map[string]*widget.Select
	setSaid  *widget.Label
}

// AttachService gives the screen technician mode's pages. panel, if not nil, is a simulated
// touch panel every tap on the felt and the calibration screen goes through (tests, the demo).
func (s *Screen) AttachService(svc Service, panel *TouchPanel) {
	s.service = &serviceScreen{s: s, svc: svc, panel: panel, async: func(fn func()) { go fn() }}
	s.felt.panel = panel
	s.serviceSeen(s.last)
}

// serviceSeen shows what technician mode needs on the view: the PIN pad while a technician
// card is in, the pages while in service, nothing otherwise.
func (s *Screen) serviceSeen(v app.View) {
	ss := s.service
	if ss == nil {
		return
	}
	want := ""
	switch {
	case v.Service.Open:
		want = "pages"
	case v.Service.Asking != "":
		want = "pin"
	}
	if want != ss.shown {
		ss.close()
		switch want {
		case "pin":
			ss.pin = ""
			ss.open(ss.pinPad(v.Service.Asking))
		case "pages":
			ss.open(ss.pages(v.Service))
		}
		ss.shown = want
	}
	if want == "pin" {
		ss.pinSaid.SetText(sayIn(v.Config.Currency, v.Service.Said))
	}
}

// canvas is the screen's canvas, nil before it is shown.
func (ss *serviceScreen) canvas() fyne.Canvas {
	return fyne.CurrentApp().Driver().CanvasForObject(ss.s.root)
}

// open puts content over the whole screen.
func (ss *serviceScreen) open(content fyne.CanvasObject) {
	c := ss.canvas()
	if c == nil {
		return
	}
	layer := container.NewStack(canvas.NewRectangle(theme.Color(theme.ColorNameBackground)), content)
	if inKiosk(c) {
		layer.Add(newCursorHider())
	}
	layer.Resize(c.Size())
	c.Overlays().Add(layer)
	ss.layer = layer
}

func (ss *serviceScreen) close() {
	if c := ss.canvas(); c != nil {
		for _, l := range []fyne.CanvasObject{ss.cal, ss.layer} {
			if l != nil {
				c.Overlays().Remove(l)
			}
		}
	}
	ss.layer, ss.cal = nil, nil
}

// refreshView redraws from the terminal's view after a call whose answer is in it.
func (ss *serviceScreen) refreshView() {
	ss.s.do(func() { ss.s.update(ss.s.term.View()) })
}

// pinPad is the PIN entry for technician id: digits, Clear and OK; the PIN is shown masked.
func (ss *serviceScreen) pinPad(id string) fyne.CanvasObject {
	ss.pinText = text("", 40, panelText)
	ss.pinText.Alignment = fyne.TextAlignCenter
	ss.pinSaid = widget.NewLabel("")
	ss.pinSaid.Alignment = fyne.TextAlignCenter
	key := func(label string, fn func()) fyne.CanvasObject {
		b := widget.NewButton(label, fn)
		return container.New(layout.NewGridWrapLayout(fyne.NewSize(120, 90)), b)
	}
	digit := func(d string) fyne.CanvasObject {
		return key(d, func() {
			if len(ss.pin) < 12 {
				ss.pin += d
				ss.pinText.Text = strings.Repeat("*", len(ss.pin))
				ss.pinText.Refresh()
			}
		})
	}
	clear := key(T("Clear"), func() {
		ss.pin = ""
		ss.pinText.Text = ""
		ss.pinText.Refresh()
	})
	ok := key(T("OK"), func() {
		pin := ss.pin
		ss.pin = ""
		ss.pinText.Text = ""
		ss.pinText.Refresh()
		ss.pinSaid.SetText(T("Checking…"))
		ss.async(func() {
			ss.svc.EnterService(context.Background(), pin) // the answer is in the view
			ss.refreshView()
		})
	})
	grid := container.NewGridWithColumns(3)
	for _, d := range []string{"1", "2", "3", "4", "5", "6", "7", "8", "9"} {
		grid.Add(digit(d))
	}
	grid.Add(clear)
	grid.Add(digit("0"))
	grid.Add(ok)
	title := text(fmt.Sprintf(T("Technician %s: enter your PIN"), id), 32, panelText)
	title.Alignment = fyne.TextAlignCenter
	hint := widget.NewLabel(T("Take the technician card out to cancel"))
	hint.Alignment = fyne.TextAlignCenter
	return container.NewCenter(container.NewVBox(title, ss.pinText, container.NewCenter(grid), ss.pinSaid, hint))
}

// pages are technician mode's pages: calibration, devices, meters, event log, settings, and
// the way back to play.
func (ss *serviceScreen) pages(sv app.ServiceView) fyne.CanvasObject {
	name := sv.Technician.ID
	if sv.Technician.Name != "" {
		name += " (" + sv.Technician.Name + ")"
	}
	ss.header = widget.NewLabel(fmt.Sprintf(T("TECHNICIAN MODE: %s, since %s. The terminal is out of play."), name, sv.Since.Local().Format("15:04")))
	ss.header.TextStyle.Bold = true
	leave := widget.NewButtonWithIcon(T("Leave technician mode"), theme.LogoutIcon(), func() {
		ss.svc.LeaveService(context.Background())
		ss.refreshView()
	})
	leave.Importance = widget.WarningImportance

	ss.calInfo = widget.NewLabel("")
	calibrate := widget.NewButton(T("Calibrate the touch screen"), ss.openCalibration)
	calibrate.Importance = widget.HighImportance
	calPage := container.NewVBox(ss.calInfo, container.NewHBox(calibrate))

	ss.devices = container.NewVBox()
	ss.devSaid = widget.NewLabel("")
	ss.devSaid.Wrapping = fyne.TextWrapWord
	ticket := widget.NewButton(T("Print a void test ticket"), func() {
		ss.deviceTest(T("Printing a void test ticket…"), ss.svc.PrintTestTicket)
	})
	accept := widget.NewButton(T("Accept test"), func() {
		ss.deviceTest(T("Insert one note: it is read and handed back, not credited (30 s)"), ss.svc.AcceptTest)
	})
	devPage := container.NewBorder(nil, container.NewVBox(ss.devSaid,
		container.NewHBox(widget.NewButton(T("Refresh"), ss.loadDevices), ticket, accept)), nil, nil, container.NewVScroll(ss.devices))

	ss.meters = widget.NewLabel("")
	ss.meters.TextStyle.Monospace = true
	meterPage := container.NewVScroll(ss.meters)

	ss.log = widget.NewLabel("")
	ss.log.TextStyle.Monospace = true
	ss.logPages = widget.NewLabel("")
	newer := widget.NewButton(T("Newer"), func() { ss.loadLog(ss.logPage - 1) })
	older := widget.NewButton(T("Older"), func() { ss.loadLog(ss.logPage + 1) })
	logPage := container.NewBorder(nil, container.NewHBox(newer, older, ss.logPages), nil, nil, container.NewVScroll(ss.log))

	ss.setSaid = widget.NewLabel("")
	ss.settings = map[string]*widget.Select{}
	form := widget.NewForm()
	for _, k := range []struct{ key, label string }{{"design", T("Screen design")}, {"language", T("Language")}, {"seat", T("Seat (player-ID pad number)")}, {"volume", T("Sound level (%)")}} {
		sel := widget.NewSelect(technician.Choices(k.key), nil)
		ss.settings[k.key] = sel
		form.Append(k.label, sel)
	}
	setPage := container.NewVBox(form, widget.NewLabel(T("Changes take effect when the terminal next starts. Money settings are the table server's.")), ss.setSaid)

	ss.tabs = container.NewAppTabs(
		container.NewTabItem(T("Calibration"), calPage),
		container.NewTabItem(T("Devices"), devPage),
		container.NewTabItem(T("Meters"), meterPage),
		container.NewTabItem(T("Event log"), logPage),
		container.NewTabItem(T("Settings"), setPage),
	)
	ss.tabs.OnSelected = func(*container.TabItem) { ss.load() }
	ss.load()
	return container.NewPadded(container.NewBorder(container.NewBorder(nil, nil, nil, leave, ss.header), nil, nil, nil, ss.tabs))
}

// load fills the pages from the desk.
func (ss *serviceScreen) load() {
	ss.loadCalibration()
	ss.loadDevices()
	ss.loadMeters()
	ss.loadLog(ss.logPage)
	ss.loadSettings()
}

func (ss *serviceScreen) loadCalibration() {
	info := fmt.Sprintf(T("Calibration matrix in force: %s"), ss.svc.Calibration())
	if v, err := ss.svc.Settings(); err == nil && v.Calibration != nil {
		info += "\n" + fmt.Sprintf(T("Calibrated by %s at %s (check target %.1f pixels off)"), v.Calibration.Technician,
			v.Calibration.At.Local().Format("2006-01-02 15:04"), v.Calibration.HeldOut)
	}
	ss.calInfo.SetText(info + "\n" + T("Touch five targets with a fingertip; the last one checks the fit."))
}

// deviceTest runs a device test off the Fyne thread (an accept test waits for a note) and
// shows what it said, then the devices as they are after it.
func (ss *serviceScreen) deviceTest(waiting string, run func(context.Context) (string, error)) {
	ss.devSaid.SetText(waiting)
	ss.async(func() {
		said, err := run(context.Background())
		if said == "" {
			said = sayErr(err)
		}
		ss.s.do(func() {
			ss.devSaid.SetText(said)
			ss.loadDevices()
		})
	})
}

func (ss *serviceScreen) loadMeters() {
	m, err := ss.svc.Meters(context.Background())
	if err != nil {
		ss.meters.SetText(sayErr(err))
		return
	}
	var b strings.Builder
	row := func(label, value string) { fmt.Fprintf(&b, "%-22s %16s\n", label, value) }
	// The meters are money in the table's currency (the notes' values too); counts stay bare.
	cur := ss.s.last.Config.Currency
	cash := func(cents int64) string { return inCurrency(cur, cents) }
	row(T("Notes in"), cash(m.NotesIn))
	for _, v := range m.NoteValues() {
		row("  "+cash(v), fmt.Sprintf("× %d", m.Notes[v]))
	}
	row(T("Tickets in"), fmt.Sprintf("%s (%d)", cash(m.TicketsIn), m.TicketsInN))
	row(T("Tickets out"), fmt.Sprintf("%s (%d)", cash(m.TicketsOut), m.TicketsOutN))
	row(T("Handpays"), fmt.Sprintf("%s (%d)", cash(m.Handpays), m.HandpayN))
	row(T("Dealer in"), cash(m.DealerIn))
	row(T("Dealer out"), cash(m.DealerOut))
	row(T("Wagered"), cash(m.Wagered))
	row(T("Won"), cash(m.Won))
	row(T("Rounds played"), fmt.Sprint(m.Rounds))
	ss.meters.SetText(b.String())
}

func (ss *serviceScreen) loadLog(page int) {
	p, err := ss.svc.EventLog(context.Background(), max(page, 0))
	if err != nil {
		ss.log.SetText(sayErr(err))
		return
	}
	ss.logPage = p.Page
	var b strings.Builder
	for _, l := range p.Lines {
		what := l.Detail
		if l.Amount != 0 {
			what = strings.TrimSpace(inCurrency(ss.s.last.Config.Currency, l.Amount) + " " + what)
		}
		fmt.Fprintf(&b, "%6d  %s  %-24s %-10s %s\n", l.Seq, l.At.Local().Format("2006-01-02 15:04:05"), l.Kind, l.Technician, what)
	}
	ss.log.SetText(b.String())
	ss.logPages.SetText(fmt.Sprintf(T("Page %d of %d, newest first"), p.Page+1, p.Pages))
}

func (ss *serviceScreen) loadSettings() {
	v, err := ss.svc.Settings()
	if err != nil {
		ss.setSaid.SetText(sayErr(err))
		return
	}
	for key, sel := range ss.settings {
		sel.OnChanged = nil
		sel.SetSelected(v.Get(key))
		key := key
		sel.OnChanged = func(value string) {
			if err := ss.svc.SetSetting(context.Background(), key, value); err != nil {
				ss.setSaid.SetText(sayErr(err))
				return
			}
			ss.setSaid.SetText(fmt.Sprintf(T("%s set to %s: recorded"), key, value))
		}
	}
}

// openCalibration puts the calibration screen over everything.
func (ss *serviceScreen) openCalibration() {
	c := ss.canvas()
	if c == nil {
		return
	}
	var layer *fyne.Container
	view := newCalibrationView(ss.panel, func(r calibration.Result) error {
		m, err := ss.svc.SaveCalibration(context.Background(), r)
		if err == nil && ss.panel != nil {
			ss.panel.Cal = m // what xinput does on a cabinet: the new matrix, live
		}
		return err
	}, func() {
		c.Overlays().Remove(layer)
		ss.cal = nil
		ss.loadCalibration()
	})
	layer = container.NewStack(view)
	if inKiosk(c) {
		layer.Add(newCursorHider())
	}
	layer.Resize(c.Size())
	c.Overlays().Add(layer)
	ss.cal = layer
}

// OpenCalibration opens technician mode's calibration screen, if a technician has the terminal
// (the kiosk's -technician-demo, which shows it at once).
func (s *Screen) OpenCalibration() {
	if s.service != nil && s.service.shown == "pages" {
		s.service.openCalibration()
	}
}

// SetLanguage makes the screen speak code ("en", "zh_Hans") instead of the system's language: a
// technician's setting. Fyne reads the language from the environment when translations are
// added, so they are added again after it is set. Call it before the screen is built.
func SetLanguage(code string) error { return look.SetLanguage(code) }
