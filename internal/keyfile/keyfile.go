// Package keyfile keeps a secret key in a file of its own, never beside the data it seals: the
// terminal journal's key and the table ledger's key are both such files. A key is 32 random
// bytes written as 64 hex digits, mode 0600, and a key that others may read is refused. A new
// key is written durably to PATH.new first and renamed into place (Install) only once what it
// seals has been sealed with it, so a crash between the two leaves either no key or a .new key
// the next start can install.
package keyfile

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Read reads the key at path. ok is false, with no error, when there is no file.
func Read(path string) (key []byte, ok bool, err error) {
	st, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	if st.Mode().Perm()&0o077 != 0 {
		return nil, false, fmt.Errorf("mode %v lets others read it (chmod 600)", st.Mode().Perm())
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, false, err
	}
	key, err = hex.DecodeString(strings.TrimSpace(string(b)))
	if err != nil || len(key) != 32 {
		return nil, false, errors.New("not 64 hex digits")
	}
	return key, true, nil
}

// Create makes a new key and writes it durably to path+".new" (0600); Install puts it in place.
func Create(path string) ([]byte, error) {
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path+".new", os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return nil, err
	}
	_, err = f.WriteString(hex.EncodeToString(key) + "\n")
	if err == nil {
		err = f.Sync()
	}
	if e := f.Close(); err == nil {
		err = e
	}
	if err != nil {
		return nil, err
	}
	return key, nil
}

// Install renames path+".new" to path and makes the rename durable.
func Install(path string) error {
	if err := os.Rename(path+".new", path); err != nil {
		return err
	}
	d, err := os.Open(filepath.Dir(path))
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
