package execveat

import "os"

// The functions of github.com/cyphar/filepath-securejoin that this
// library has, with their signatures. Reopen is in reopen.go.

// OpenInRoot is an O_PATH file of unsafePath resolved beneath the
// directory root (its last symlink followed).
func OpenInRoot(root, unsafePath string) (*os.File, error) {
	r, err := OpenRoot(root)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return r.Resolve(unsafePath)
}

// OpenatInRoot is OpenInRoot beneath an open directory.
func OpenatInRoot(root *os.File, unsafePath string) (*os.File, error) {
	return borrowRoot(root).Resolve(unsafePath)
}

// MkdirAll makes every missing directory of unsafePath beneath root.
func MkdirAll(root, unsafePath string, mode os.FileMode) error {
	r, err := OpenRoot(root)
	if err != nil {
		return err
	}
	defer r.Close()
	dir, err := r.MkdirAll(unsafePath, mode)
	if err != nil {
		return err
	}
	return dir.Close()
}

// MkdirAllHandle is MkdirAll beneath an open directory, returning an
// O_PATH file of the last directory.
func MkdirAllHandle(root *os.File, unsafePath string, mode os.FileMode) (*os.File, error) {
	return borrowRoot(root).MkdirAll(unsafePath, mode)
}

// borrowRoot is a Root on the caller's file, which the caller keeps and
// closes: a Root that is never closed.
func borrowRoot(file *os.File) *Root {
	return &Root{file: file}
}
