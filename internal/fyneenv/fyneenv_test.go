package fyneenv

import (
	"maps"
	"testing"
	"time"
)

func TestPOSIXLocaleMeansEnglish(t *testing.T) {
	for _, c := range []struct {
		env     map[string]string
		name    string
		isPOSIX bool
	}{
		{map[string]string{}, "LANG", true},
		{map[string]string{"LANG": "C"}, "LANG", true},
		{map[string]string{"LANG": "C.UTF-8"}, "LANG", true},
		{map[string]string{"LANG": "POSIX"}, "LANG", true},
		{map[string]string{"LANG": "zh_CN.UTF-8"}, "LANG", false},
		{map[string]string{"LANG": "C.UTF-8", "LC_MESSAGES": "zh_CN.UTF-8"}, "LC_MESSAGES", false},
		{map[string]string{"LANG": "zh_CN.UTF-8", "LC_ALL": "C"}, "LC_ALL", true},
		{map[string]string{"LC_ALL": "en_GB.UTF-8", "LANG": "C"}, "LC_ALL", false},
		{map[string]string{"LANG": "Chinese"}, "LANG", false}, // "C" only as the whole name
	} {
		name, isPOSIX := posixLocale(func(k string) string { return c.env[k] })
		if name != c.name || isPOSIX != c.isPOSIX {
			t.Errorf("%v: got %s %v, want %s %v", c.env, name, isPOSIX, c.name, c.isPOSIX)
		}
		env := maps.Clone(c.env)
		set(func(k string) string { return env[k] }, func(k, v string) error { env[k] = v; return nil })
		if got := env[c.name]; c.isPOSIX && got != "en_US.UTF-8" {
			t.Errorf("%v: %s is %q after set, want en_US.UTF-8", c.env, c.name, got)
		} else if !c.isPOSIX && got != c.env[c.name] {
			t.Errorf("%v: set changed %s to %q", c.env, c.name, got)
		}
	}
}

func TestCacheLifetimeUnlessTheEnvironmentNamesOne(t *testing.T) {
	for _, c := range []struct{ was, want string }{{"", "10s"}, {"5m", "5m"}, {"1s", "1s"}} {
		env := map[string]string{"LANG": "en_GB.UTF-8", "FYNE_CACHE": c.was}
		set(func(k string) string { return env[k] }, func(k, v string) error { env[k] = v; return nil })
		if env["FYNE_CACHE"] != c.want {
			t.Errorf("FYNE_CACHE %q: set made it %q, want %q", c.was, env["FYNE_CACHE"], c.want)
		}
	}
}

func TestLifetimeIsWhatFyneRead(t *testing.T) {
	for _, c := range []struct {
		env  string
		want time.Duration
	}{{"10s", 10 * time.Second}, {"2m", 2 * time.Minute}, {"", time.Minute}, {"soon", time.Minute}} {
		t.Setenv("FYNE_CACHE", c.env)
		if got := Lifetime(); got != c.want {
			t.Errorf("FYNE_CACHE %q: Lifetime %v, want %v", c.env, got, c.want)
		}
	}
}
