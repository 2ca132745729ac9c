package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"
)

// Kiosk makes the window the kiosk: full screen, no pointer anywhere on it, and not closable
// by a player.
//
// Closing: the close request (a window manager's close button or Alt+F4) is swallowed; a
// technician stops the kiosk through its service, not the window. Fyne's GLFW driver (v2.7.3)
// binds no key of its own to leaving full screen or quitting — Escape only dismisses a main
// menu, F11 and Ctrl+Q mean nothing — and the kiosk sets no main menu (which would add Quit).
// Keys the window manager or the X server take (Alt+Tab, Ctrl+Alt+F1) are the kiosk session's
// to disable.
//
// The pointer: for each pointer position Fyne shows the cursor of the last desktop.Cursorable
// object under it, searched in the top overlay if there is one, otherwise in the content. The
// content goes under a cursorHider that covers all of it and comes last, so it wins over every
// button and label; the window is unpadded, so the content is the whole screen. The screen's
// own overlays carry a hider too (showModal), and it opens no Fyne pop-up (a Select's list is
// one), where the pointer would come back.
func Kiosk(w fyne.Window) {
	w.SetFullScreen(true)
	w.SetCloseIntercept(func() {})
	w.SetPadded(false)
	w.SetContent(container.NewStack(w.Content(), newCursorHider()))
}

// cursorHider is an empty, full-size object whose cursor is no cursor. It takes no touch: it
// is neither Tappable nor Draggable, so a tap finds the object under it.
type cursorHider struct{ widget.BaseWidget }

func newCursorHider() *cursorHider {
	h := &cursorHider{}
	h.ExtendBaseWidget(h)
	return h
}

// Cursor hides the pointer (desktop.Cursorable).
func (*cursorHider) Cursor() desktop.Cursor { return desktop.HiddenCursor }

func (h *cursorHider) CreateRenderer() fyne.WidgetRenderer { return hiderRenderer{} }

// hiderRenderer draws nothing.
type hiderRenderer struct{}

func (hiderRenderer) Layout(fyne.Size)             {}
func (hiderRenderer) MinSize() fyne.Size           { return fyne.Size{} }
func (hiderRenderer) Refresh()                     {}
func (hiderRenderer) Objects() []fyne.CanvasObject { return nil }
func (hiderRenderer) Destroy()                     {}

// inKiosk reports whether a canvas is a kiosk's, whose content Kiosk put over a hider.
func inKiosk(c fyne.Canvas) bool {
	s, ok := c.Content().(*fyne.Container)
	if !ok || len(s.Objects) == 0 {
		return false
	}
	_, ok = s.Objects[len(s.Objects)-1].(*cursorHider)
	return ok
}

// SetContent shows content in w in place of what it shows: over a cursor hider where w is a
// kiosk (Kiosk), so the pointer stays hidden after the screen is built again (a new language).
func SetContent(w fyne.Window, content fyne.CanvasObject) {
	if inKiosk(w.Canvas()) {
		w.SetContent(container.NewStack(content, newCursorHider()))
		return
	}
	w.SetContent(content)
}
