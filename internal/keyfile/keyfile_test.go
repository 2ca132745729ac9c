package keyfile

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCreateInstallRead(t *testing.T) {
	path := filepath.Join(t.TempDir(), "k.key")
	if _, ok, err := Read(path); ok || err != nil {
		t.Fatalf("no file: ok %v err %v", ok, err)
	}
	key, err := Create(path)
	if err != nil || len(key) != 32 {
		t.Fatalf("create: %d bytes, %v", len(key), err)
	}
	if _, ok, _ := Read(path); ok {
		t.Fatal("the key is in place before Install")
	}
	if err := Install(path); err != nil {
		t.Fatal(err)
	}
	got, ok, err := Read(path)
	if !ok || err != nil || !bytes.Equal(got, key) {
		t.Fatalf("read back: %x %v %v", got, ok, err)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v", st.Mode().Perm())
	}
}

func TestReadRefusesLooseOrMalformedKeys(t *testing.T) {
	dir := t.TempDir()
	for name, c := range map[string]struct {
		body string
		mode os.FileMode
		says string
	}{
		"readable by others": {strings.Repeat("ab", 32), 0o644, "chmod 600"},
		"short":              {"abcd", 0o600, "64 hex"},
		"not hex":            {strings.Repeat("zz", 32), 0o600, "64 hex"},
	} {
		path := filepath.Join(dir, strings.ReplaceAll(name, " ", "-"))
		if err := os.WriteFile(path, []byte(c.body), c.mode); err != nil {
			t.Fatal(err)
		}
		os.Chmod(path, c.mode)
		if _, ok, err := Read(path); ok || err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s: ok %v err %v", name, ok, err)
		}
	}
}
