package ui

import (
	"image/color"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
)

// The sprite cache is bounded (memory over a soak, issue 18) and lets go of the sprite used
// longest ago, not of every sprite at once: the chips on the felt now stay rendered.
func TestSpriteCacheDropsTheLeastRecentlyUsed(t *testing.T) {
	test.NewTempApp(t)
	sprite := func(key int) artSprite {
		return artSprite{key: key, size: fyne.NewSize(8, 8), objs: func() []fyne.CanvasObject {
			return []fyne.CanvasObject{canvas.NewRectangle(color.White)}
		}}
	}
	var c spriteCache
	get := func(key int) int {
		before := c.renders
		c.get(sprite(key), 1, fyne.Position{})
		return c.renders - before
	}
	for k := range spriteCacheMax {
		if n := get(k); n != 1 {
			t.Fatalf("sprite %d: %d renders, want 1", k, n)
		}
	}
	if n := get(0); n != 0 { // sprite 0 used again: now the most recent
		t.Fatalf("a cached sprite rendered again (%d)", n)
	}
	if n := get(spriteCacheMax); n != 1 { // one more: sprite 1, the oldest, goes
		t.Fatalf("a new sprite: %d renders, want 1", n)
	}
	if len(c.m) != spriteCacheMax {
		t.Fatalf("%d sprites cached, want the bound %d", len(c.m), spriteCacheMax)
	}
	if n := get(0); n != 0 {
		t.Fatal("the sprite used last was let go")
	}
	if n := get(1); n != 1 {
		t.Fatal("the sprite used longest ago was kept")
	}
}

// TestPassingSpritesAreNotKeptPerNumber: the winning outline is drawn around a different number
// each round; the cache keeps the last one only (issue 18 memory: one per number filled the cache
// over the first rounds), and the same outline composed again is not rendered again.
func TestPassingSpritesAreNotKeptPerNumber(t *testing.T) {
	test.NewTempApp(t)
	var c spriteCache
	chip := chipSprite(500, false, fyne.NewPos(40, 40), 30)
	c.get(chip, 1, fyne.Position{})
	for n := range 37 {
		tl := fyne.NewPos(float32(n)*61.37, float32(n%3)*47.5)
		frac := fyne.NewPos(tl.X-float32(int(tl.X)), tl.Y-float32(int(tl.Y)))
		before := c.renders
		first := c.get(outlineSprite(tl, fyne.NewSize(60, 46)), 1, frac)
		again := c.get(outlineSprite(tl, fyne.NewSize(60, 46)), 1, frac)
		if c.renders-before != 1 || first != again {
			t.Fatalf("outline %d: %d renders for two uses, want 1", n, c.renders-before)
		}
	}
	if len(c.m) != 1 {
		t.Fatalf("%d sprites kept in the cache after 37 outlines and a chip, want the chip alone", len(c.m))
	}
	before := c.renders
	c.get(chip, 1, fyne.Position{})
	if c.renders != before {
		t.Fatal("the chip was rendered again: an outline displaced it")
	}
}
