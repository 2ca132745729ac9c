// Package assets holds the kiosk's embedded resources — translations and the Chinese font — so
// the binary carries everything it shows.
package assets

import (
	"embed"

	"fyne.io/fyne/v2"
)

// Translations are the UI strings for Fyne's lang package, one JSON file per language.
//
//go:embed translations
var Translations embed.FS

// The simplified-Chinese glyphs of the screen: Noto Sans CJK SC (SIL OFL 1.1, see
// fonts/NotoSansCJK-LICENSE.txt) cut down to the characters of translations/zh_Hans.json by
// packaging/gen-fonts.sh. Fyne's embedded fonts cover Latin only.
var (
	//go:embed fonts/NotoSansSC-ATS-Regular.otf
	chineseRegular []byte
	//go:embed fonts/NotoSansSC-ATS-Bold.otf
	chineseBold []byte

	ChineseRegular = fyne.NewStaticResource("NotoSansSC-ATS-Regular.otf", chineseRegular)
	ChineseBold    = fyne.NewStaticResource("NotoSansSC-ATS-Bold.otf", chineseBold)
)
