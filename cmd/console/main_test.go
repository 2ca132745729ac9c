package main

import (
	"io"
	"testing"
)

// Bad flags get a clear refusal, never a window.
func TestBadFlagsRefused(t *testing.T) {
	for _, args := range [][]string{{"-size", "big"}, {"-size", "100x100"}, {"-lang", "fr"}, {"extra"}} {
		if _, err := parse(args, io.Discard); err == nil {
			t.Errorf("%q accepted", args)
		}
	}
	o, err := parse([]string{"-size", "1280x800", "-lang", "zh_Hans", "-fullscreen"}, io.Discard)
	if err != nil || o.size.Width != 1280 || o.size.Height != 800 || !o.fullscreen || o.lang != "zh_Hans" {
		t.Fatalf("good flags: %+v %v", o, err)
	}
}
