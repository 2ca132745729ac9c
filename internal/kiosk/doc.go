// Package kiosk is the player terminal's plumbing, the one package that puts the station and the
// Fyne screen together: Run reads the kiosk's flags and environment (kiosk.go), starts the table
// (a real one with -server, else internal/demo's), the station (app/station) and the window
// (screen.go, the only importer of ui besides technician.go's pages), and runs until the window
// closes.
//
// Beside the wiring it holds what the kiosk does for its own process and no other binary needs:
// the collector's setting and the per-round memory log that returns free pages (kiosk.go,
// soak.go), glibc's malloc settings for Mesa's heap (cheap.go, cgo), the -pprof endpoint on
// loopback only (profile.go), the redraw that keeps a screen at rest in Fyne's caches
// (keepdrawn.go), technician mode's settings and calibration on the cabinet (technician.go), and
// the speaker the terminal's cues play on at the technician's level (run.go, internal/sound).
// docs/platform-quirks.md says why each workaround is there and what would let it go.
//
// It lives under internal/ so that the repository's root holds only the kiosk binary's main.go,
// FyneApp.toml and Icon.png (issue 30): main calls Run, and nothing else is exported.
package kiosk
