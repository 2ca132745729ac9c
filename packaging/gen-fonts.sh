#!/usr/bin/env bash
# gen-fonts.sh regenerates the kiosk's embedded Chinese font: Noto Sans CJK SC (SIL OFL 1.1),
# regular and bold, cut down to the characters the simplified-Chinese screen uses
# (assets/translations/zh_Hans.json). Fyne's embedded fonts cover Latin only, and the system's
# fallback fonts are neither on every cabinet nor found by Fyne's font matcher reliably, so the
# kiosk carries the glyphs it draws (a few hundred kB instead of the 90 MB CJK package).
#
# Run it after changing the Chinese translation; `go test ./ui -run Chinese` fails
# while a character of the translation is missing from the embedded font. It needs Debian's
# fonts-noto-cjk and fonttools, which it installs; nothing else (CI, the kiosk) needs them.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
[ -f /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc ] || need+=(fonts-noto-cjk)
[ -x /usr/bin/pyftsubset ] || need+=(fonttools)
if [ ${#need[@]} -gt 0 ]; then
	sudo=""
	[ "$(id -u)" -eq 0 ] || sudo="sudo"
	$sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

out=assets/fonts
mkdir -p "$out"
# Every character of the translation and all of printable ASCII: Fyne's text shaper keeps a
# space, digit or bracket in the run of the Chinese text around it, drawn with this font, so
# the font needs them too (a space it lacked drew as a missing-glyph box). And the language
# button's names (ui/i18n.go, languages): "中文" is drawn with this font on an English screen;
# a character it lacked was drawn by a system font Fyne loaded whole (20 MB of heap, issue 18),
# or as a box on a cabinet without one. `go test ./ui -run Chinese` checks all three.
# And the currency symbols that stand before money (app/money/money.go, currencySymbols): a Chinese
# screen draws "¥" or "€" with this font too.
languages=$(sed -n 's/^var languages = //p' ui/i18n.go)
symbols=$(sed -n '/^var currencySymbols = /,/^}/p' app/money/money.go)
chars=$(mktemp)
trap 'rm -f "$chars"' EXIT
/usr/bin/python3 - assets/translations/zh_Hans.json "$languages" "$symbols" >"$chars" <<'EOF'
import json, sys
text = "".join(json.load(open(sys.argv[1], encoding="utf-8")).values()) + sys.argv[2] + sys.argv[3]
print("".join(sorted(set(text) | {chr(c) for c in range(0x20, 0x7f)})))
EOF

# Face 2 of Noto's collections is Noto Sans CJK SC (simplified Chinese forms).
for weight in Regular Bold; do
	/usr/bin/pyftsubset "/usr/share/fonts/opentype/noto/NotoSansCJK-$weight.ttc" --font-number=2 \
		--text-file="$chars" --layout-features='*' --no-hinting --desubroutinize \
		--name-IDs='*' --name-legacy --name-languages='*' \
		--output-file="$out/NotoSansSC-ATS-$weight.otf"
done
cp /usr/share/doc/fonts-noto-cjk/copyright "$out/NotoSansCJK-LICENSE.txt"
ls -l "$out"
