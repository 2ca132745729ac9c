// Package assets holds the kiosk's embedded resources: translations (and later fonts, icons
// and sounds), so the binary carries everything it shows.
package assets

import "embed"

// Translations are the UI strings for Fyne's lang package, one JSON file per language.
//
//go:embed translations
var Translations embed.FS
