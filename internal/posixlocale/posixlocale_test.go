package posixlocale

import "testing"

func TestInForce(t *testing.T) {
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
		name, isPOSIX := inForce(func(k string) string { return c.env[k] })
		if name != c.name || isPOSIX != c.isPOSIX {
			t.Errorf("%v: got %s %v, want %s %v", c.env, name, isPOSIX, c.name, c.isPOSIX)
		}
	}
}
