package pgtest

import (
	"errors"
	"os"
)

// ErrMissing is Throwaway's error when PostgreSQL is not installed (errors.Is), so a caller can
// tell "cannot run here" from "failed".
var ErrMissing = errors.New("pgtest: PostgreSQL is not installed")

// Throwaway starts a cluster of the caller's own, apart from the package's shared one, with one
// empty database, for a program that is not a test: the crash harness runs a floor of table
// servers on it as separate processes. It returns the database's address and stop, which stops
// the cluster and removes its directory. The settings are the test cluster's (no durability): a
// harness kills the table servers, never PostgreSQL. Like the test clusters it records its
// owner, so a cluster whose program was killed before stop is stopped by the next start.
func Throwaway() (dsn string, stop func(), err error) {
	mu.Lock()
	sweep() // a cluster an earlier run left when it was killed
	c, err := start()
	why := missing
	mu.Unlock()
	if err != nil {
		if why != "" {
			return "", nil, errors.Join(ErrMissing, err)
		}
		return "", nil, err
	}
	stop = func() {
		c.admin.Close()
		c.pgctl("-m", "immediate", "stop") //nolint:errcheck // best effort: the directory goes anyway
		os.RemoveAll(c.dir)
	}
	if _, err := c.admin.Exec(`CREATE DATABASE floor`); err != nil {
		stop()
		return "", nil, err
	}
	return c.dsn("floor"), stop, nil
}
