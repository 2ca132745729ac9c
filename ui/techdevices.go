package ui

import (
	"context"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/tablegames/ats/app/technician"
)

// The technician's devices page (issue 32 point 13: it was a debug dump): each device a block a
// field technician reads standing at the cabinet — its name and what it is doing now in words,
// marked green when it works and red when it does not, then its model, its port, its last
// fault and its counts, one to a line at the sub-heading size.

// deviceText is a line of the devices page: word-wrapped, at the sub-heading size.
func deviceText(s string) *widget.Label {
	l := widget.NewLabel(s)
	l.Wrapping = fyne.TextWrapWord
	l.SizeName = theme.SizeNameSubHeadingText
	return l
}

// fieldName is a field's name in a device's block: on one line, the column as wide as the
// widest name (a wrapped name in a form's narrow column reads a letter a line).
func fieldName(s string) *widget.Label {
	l := deviceText(s)
	l.Wrapping = fyne.TextWrapOff
	return l
}

// deviceBlock is one device on the page.
func deviceBlock(d technician.DeviceStatus) fyne.CanvasObject {
	name := widget.NewLabel(T(d.Name))
	name.SizeName = theme.SizeNameHeadingText
	name.TextStyle.Bold = true
	state := deviceText(d.State)
	state.TextStyle.Bold = true
	state.Importance = widget.SuccessImportance
	if !d.OK {
		state.Importance = widget.DangerImportance
	}
	orUnknown := func(s string) string {
		if s == "" {
			return T("not reported")
		}
		return s
	}
	last := d.LastFault
	if last == "" {
		last = T("none since the terminal started")
	}
	rows := container.New(layout.NewFormLayout(),
		fieldName(T("Model")), deviceText(orUnknown(d.Model)),
		fieldName(T("Port")), deviceText(orUnknown(d.Port)),
		fieldName(T("Last fault")), deviceText(last))
	for _, c := range d.Counters {
		rows.Add(fieldName(T(c.Label)))
		rows.Add(deviceText(c.Value))
	}
	return container.NewVBox(name, state, rows, widget.NewSeparator())
}

// loadDevices shows the devices as they are now.
func (ss *serviceScreen) loadDevices() {
	ds, err := ss.svc.DeviceStatuses(context.Background())
	ss.devices.RemoveAll()
	switch {
	case err != nil:
		ss.devices.Add(deviceText(sayErr(err)))
	case len(ds) == 0:
		ss.devices.Add(deviceText(T("This terminal has no serial devices")))
	}
	for _, d := range ds {
		ss.devices.Add(deviceBlock(d))
	}
	ss.devices.Refresh()
}
