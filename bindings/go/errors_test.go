package execveat

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
	"testing"
)

// An error names its operation and path and wraps the kernel's errno.
func TestErrorIsPathErrorWithErrno(t *testing.T) {
	expectNoFdLeft(t)
	dir := t.TempDir()
	root, err := OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()

	_, err = root.Open("var/missing")
	var pathErr *os.PathError
	if !errors.As(err, &pathErr) || pathErr.Op != "open" || pathErr.Path != "var/missing" ||
		pathErr.Err != syscall.ENOENT || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Open of a missing file: %#v", err)
	}
	if err := root.Mkdir("made", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := root.Mkdir("made", 0o755); !errors.Is(err, fs.ErrExist) {
		t.Errorf("Mkdir of an existing name: %v", err)
	}
	if err := root.Unlink("made"); !errors.Is(err, syscall.EISDIR) {
		t.Errorf("Unlink of a directory: %v", err)
	}
	if _, err := root.Readlink("made"); !errors.Is(err, syscall.EINVAL) {
		t.Errorf("Readlink of a directory: %v", err)
	}
	if _, err := root.Resolve("a\x00b"); !errors.Is(err, syscall.EINVAL) {
		t.Errorf("a path holding a NUL: %v", err)
	}
	if _, err := OpenRoot(dir + "/missing"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("OpenRoot of a missing directory: %v", err)
	}
}

// Operations on two names answer as os.Rename and os.Link: an
// *os.LinkError naming both.
func TestErrorOfTwoNamesIsLinkError(t *testing.T) {
	expectNoFdLeft(t)
	root, err := OpenRoot(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	var linkErr *os.LinkError
	err = root.Rename("missing", "other", 0)
	if !errors.As(err, &linkErr) || linkErr.Old != "missing" || linkErr.New != "other" ||
		!errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Rename of a missing name: %#v", err)
	}
	err = root.Hardlink("new", "missing")
	if !errors.As(err, &linkErr) || linkErr.Old != "missing" || linkErr.New != "new" ||
		!errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Hardlink of a missing target: %#v", err)
	}
	if err := root.Symlink("link", "anywhere"); err != nil {
		t.Fatal(err)
	}
	err = root.Symlink("link", "elsewhere")
	if !errors.As(err, &linkErr) || linkErr.Old != "elsewhere" || linkErr.New != "link" ||
		!errors.Is(err, fs.ErrExist) {
		t.Errorf("Symlink over a name: %#v", err)
	}
}

// Every fd the package returns is close-on-exec, whatever the flags
// asked; a Root made from a file holds its own.
func TestCloexecWhateverTheFlags(t *testing.T) {
	expectNoFdLeft(t)
	dir := t.TempDir()
	if err := os.WriteFile(dir+"/file", nil, 0o644); err != nil {
		t.Fatal(err)
	}
	rootDir, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	root, err := RootFromFile(rootDir)
	rootDir.Close()
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	expectCloexec(t, root.File())
	var files []*os.File
	add := func(file *os.File, err error) {
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, file)
	}
	add(root.OpenFile("file", os.O_RDWR))
	add(root.Create("new", os.O_RDWR, 0o644))
	add(root.Resolve("file"))
	add(root.ResolveNoFollow("file"))
	add(root.MkdirAll("a/b", 0o755))
	add(Reopen(files[len(files)-1], syscall.O_DIRECTORY))
	add(Openat2(root.File(), "file", &OpenHow{Resolve: ResolveInRoot}))
	for _, file := range files {
		expectCloexec(t, file)
		file.Close()
	}
}
