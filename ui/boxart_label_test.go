package ui

import (
	"image"
	"image/color"
	"testing"

	"github.com/tablegames/ats/diagrams"
)

// A label too wide for its box (the First Five of Crown Roulette's V/W felt, 000 §8.4.1, in a
// box one number wide) goes on lines of its own and stays inside the box: no ink outside it, at
// the felt's widest and narrowest scales, in both languages' lengths. Without the wrap "FIRST
// FIVE" spilled over both sides of its box into the next one.
func TestBoxLabelStaysInsideItsBox(t *testing.T) {
	bounds := diagrams.Rect{Max: diagrams.Point{X: 3, Y: 2}}
	box := diagrams.Rect{Min: diagrams.Point{X: 1}, Max: diagrams.Point{X: 2, Y: 2}}
	for _, label := range []string{"FIRST FIVE", "前五", "FIRSTFIVEFIRSTFIVE"} {
		for _, w := range []int{390, 180} { // a unit of 130 and of 60 pixels
			a := newBoxArt(bounds, feltGreen, 0, []artBox{{rect: box, label: label, em: 0.32}})
			img := a.paint(w, w*2/3, 1)
			px := image.Rect(w/3, 0, 2*w/3, w*2/3)
			inked := 0
			for y := img.Rect.Min.Y; y < img.Rect.Max.Y; y++ {
				for x := img.Rect.Min.X; x < img.Rect.Max.X; x++ {
					c := img.RGBAAt(x, y)
					if c == (color.RGBA{}) || color.NRGBAModel.Convert(c) == color.Color(feltGreen) || isLine(c) {
						continue
					}
					if !(image.Point{x, y}).In(px) {
						t.Fatalf("%q at %d px: ink at (%d, %d), outside the box %v", label, w, x, y, px)
					}
					inked++
				}
			}
			if inked == 0 {
				t.Errorf("%q at %d px: nothing drawn", label, w)
			}
		}
	}
}

func isLine(c color.RGBA) bool {
	return color.NRGBAModel.Convert(c) == color.Color(feltLine)
}
