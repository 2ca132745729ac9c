//go:build unix

package journal

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// lockFile takes the writer's lock for the journal at path, or fails with ErrInUse.
func lockFile(path string) (*os.File, error) {
	// Read-only is enough for flock, and lets a lock file made by another user (root running
	// atsctl) be opened by the terminal's own.
	f, err := os.OpenFile(path+".lock", os.O_RDONLY|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("journal: lock %s: %w", path, err)
	}
	for {
		// flock locks belong to the open file description, so a second Open in this process
		// (its own descriptor) is refused like another process. Go opens files close-on-exec:
		// a child process never inherits the lock.
		err = unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
		if !errors.Is(err, unix.EINTR) {
			break
		}
	}
	if err != nil {
		f.Close()
		if errors.Is(err, unix.EWOULDBLOCK) {
			return nil, fmt.Errorf("journal: %s: %w", path, ErrInUse)
		}
		return nil, fmt.Errorf("journal: lock %s: %w", path, err)
	}
	return f, nil
}
