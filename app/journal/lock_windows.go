package journal

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/windows"
)

// lockFile takes the writer's lock for the journal at path, or fails with ErrInUse: on Windows
// LockFileEx over the lock file's first byte, exclusive and failing at once, in place of flock.
// Like flock it belongs to the open handle, so a second Open in this process is refused too, and
// Windows releases it when the handle closes or the process ends. (atsctl is cross-compiled
// for Windows; the terminal and the table server run on Linux.)
func lockFile(path string) (*os.File, error) {
	f, err := os.OpenFile(path+".lock", os.O_RDONLY|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("journal: lock %s: %w", path, err)
	}
	ol := new(windows.Overlapped)
	err = windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, ol)
	if err != nil {
		f.Close()
		if errors.Is(err, windows.ERROR_LOCK_VIOLATION) {
			return nil, fmt.Errorf("journal: %s: %w", path, ErrInUse)
		}
		return nil, fmt.Errorf("journal: lock %s: %w", path, err)
	}
	return f, nil
}
