package execveat

// Every operation on the hostile root, through the links that lead out
// of it: each must act inside the root, the host outside unchanged
// (hostileRoot checks that at each test's end).

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
	"testing"
)

func TestHostileResolveStaysInside(t *testing.T) {
	root := hostileRoot(t)
	for _, path := range []string{"var/log/etc/hostname", "tmp/x/hostname", "/../../etc/hostname"} {
		file, err := root.Resolve(path)
		if err != nil {
			t.Fatalf("Resolve(%q): %v", path, err)
		}
		sameFile(t, file, rootPath+"/etc/hostname")
		expectCloexec(t, file)
		file.Close()
	}
	// The last link followed, and inside the root.
	file, err := root.Resolve("etc/os-release")
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	sameFile(t, file, rootPath+"/usr/lib/os-release")
}

func TestHostileResolveNoFollowStaysInside(t *testing.T) {
	root := hostileRoot(t)
	file, err := root.ResolveNoFollow("var/log/tmp/x")
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	sameFile(t, file, rootPath+"/tmp/x")
	expectCloexec(t, file)
}

func TestHostileSecurejoinNamesStayInside(t *testing.T) {
	root := hostileRoot(t)
	file, err := OpenInRoot(rootPath, "var/log/etc/hostname")
	if err != nil {
		t.Fatal(err)
	}
	sameFile(t, file, rootPath+"/etc/hostname")
	file.Close()
	file, err = OpenatInRoot(root.File(), "tmp/x/hostname")
	if err != nil {
		t.Fatal(err)
	}
	sameFile(t, file, rootPath+"/etc/hostname")
	file.Close()
	if err := MkdirAll(rootPath, "var/log/a/b", 0o755); err != nil {
		t.Fatal(err)
	}
	dir, err := MkdirAllHandle(root.File(), "tmp/x/c/d", 0o755)
	if err != nil {
		t.Fatal(err)
	}
	sameFile(t, dir, rootPath+"/etc/c/d")
	expectCloexec(t, dir)
	dir.Close()
	if _, err := os.Stat(rootPath + "/a/b"); err != nil {
		t.Error(err)
	}
}

func TestHostileOpenStaysInside(t *testing.T) {
	root := hostileRoot(t)
	for _, path := range []string{"var/log/etc/hostname", "tmp/x/hostname", "etc/../../../etc/hostname"} {
		file, err := root.Open(path)
		if err != nil {
			t.Fatalf("Open(%q): %v", path, err)
		}
		if got := readAll(t, file); got != "root\n" {
			t.Errorf("Open(%q) read %q, not the root's %q", path, got, "root\n")
		}
		expectCloexec(t, file)
		file.Close()
	}
	file, err := root.OpenFile("etc/os-release", os.O_RDONLY)
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	if got := readAll(t, file); got != "ID=root\n" {
		t.Errorf("an absolute link followed outside the root: read %q", got)
	}
}

func TestHostileCreateStaysInside(t *testing.T) {
	root := hostileRoot(t)
	file, err := root.Create("var/log/made", os.O_WRONLY|os.O_EXCL, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	expectCloexec(t, file)
	sameFile(t, file, rootPath+"/made")
	var st syscall.Stat_t
	syscall.Fstat(int(file.Fd()), &st)
	if st.Mode&0o777 != 0o600 {
		t.Errorf("mode %o, not 600", st.Mode&0o777)
	}
}

func TestHostileMkdirStaysInside(t *testing.T) {
	root := hostileRoot(t)
	if err := root.Mkdir("tmp/x/newdir", 0o700); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Stat(rootPath + "/etc/newdir"); err != nil || info.Mode().Perm() != 0o700 {
		t.Errorf("root/etc/newdir: %v %v", info, err)
	}
}

func TestHostileMkdirAllStaysInside(t *testing.T) {
	root := hostileRoot(t)
	dir, err := root.MkdirAll("var/log/app/sub", 0o755)
	if err != nil {
		t.Fatal(err)
	}
	defer dir.Close()
	expectCloexec(t, dir)
	sameFile(t, dir, rootPath+"/app/sub")
}

func TestHostileMknodStaysInside(t *testing.T) {
	root := hostileRoot(t)
	if err := root.Mknod("var/log/fifo", syscall.S_IFIFO|0o644, 0); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Lstat(rootPath + "/fifo"); err != nil || info.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("root/fifo: %v %v", info, err)
	}
}

func TestHostileSymlinkStaysInside(t *testing.T) {
	root := hostileRoot(t)
	if err := root.Symlink("usr/share/doc/link/evil", "/etc/passwd"); err != nil {
		t.Fatal(err)
	}
	if text, err := os.Readlink(rootPath + "/home/evil"); err != nil || text != "/etc/passwd" {
		t.Errorf("root/home/evil: %q %v", text, err)
	}
}

func TestHostileHardlinkStaysInside(t *testing.T) {
	root := hostileRoot(t)
	if err := root.Hardlink("var/log/hard", "tmp/x/hostname"); err != nil {
		t.Fatal(err)
	}
	a, _ := os.Stat(rootPath + "/hard")
	b, _ := os.Stat(rootPath + "/etc/hostname")
	if a == nil || b == nil || !os.SameFile(a, b) {
		t.Error("root/hard is not a link of root/etc/hostname")
	}
}

func TestHostileRenameStaysInside(t *testing.T) {
	root := hostileRoot(t)
	if err := root.Rename("tmp/x/hostname", "var/log/moved", 0); err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(rootPath + "/moved"); err != nil || string(data) != "root\n" {
		t.Errorf("root/moved: %q %v", data, err)
	}
	if err := root.Rename("var/log/moved", "home/user/file", RenameNoreplace); !errors.Is(err, fs.ErrExist) {
		t.Errorf("RenameNoreplace onto a file: %v", err)
	}
}

func TestHostileUnlinkStaysInside(t *testing.T) {
	root := hostileRoot(t)
	if err := root.Unlink("var/log/etc/hostname"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(rootPath + "/etc/hostname"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("root/etc/hostname still there: %v", err)
	}
}

func TestHostileRmdirStaysInside(t *testing.T) {
	root := hostileRoot(t)
	if err := root.Rmdir("var/log/emptydir"); err != nil {
		t.Fatal(err)
	}
	if err := root.Rmdir("var/log/etc"); !errors.Is(err, syscall.ENOTEMPTY) {
		t.Errorf("Rmdir of root/etc: %v, not ENOTEMPTY", err)
	}
}

func TestHostileRemoveAllStaysInside(t *testing.T) {
	root := hostileRoot(t)
	if err := root.RemoveAll("usr/share/doc/link/user"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(rootPath + "/home/user"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("root/home/user still there: %v", err)
	}
	// The link itself, not what it leads to.
	if err := root.RemoveAll("var/log"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(rootPath + "/etc/hostname"); err != nil {
		t.Errorf("removing the link var/log removed what it leads to: %v", err)
	}
}

func TestHostileReadlinkStaysInside(t *testing.T) {
	root := hostileRoot(t)
	text, err := root.Readlink("var/log/tmp/x")
	if err != nil || text != "../../../../etc" {
		t.Errorf("Readlink: %q %v", text, err)
	}
	long := string(make([]byte, 0, 300))
	for len(long) < 300 {
		long += "abcdefghij/"
	}
	if err := os.Symlink(long, rootPath+"/long"); err != nil {
		t.Fatal(err)
	}
	if text, err := root.Readlink("var/log/long"); err != nil || text != long {
		t.Errorf("Readlink of a 300-byte text: %d bytes, %v", len(text), err)
	}
}

func TestHostileReopenStaysInside(t *testing.T) {
	root := hostileRoot(t)
	handle, err := root.Resolve("tmp/x/hostname")
	if err != nil {
		t.Fatal(err)
	}
	defer handle.Close()
	file, err := Reopen(handle, os.O_RDONLY)
	switch {
	case err == nil:
		defer file.Close()
		expectCloexec(t, file)
		if got := readAll(t, file); got != "root\n" {
			t.Errorf("read %q", got)
		}
	case procHidden() && errors.Is(err, syscall.EOPNOTSUPP):
		// No /proc, and a kernel without O_EMPTYPATH: nothing can
		// reopen a regular file by itself.
	default:
		t.Fatal(err)
	}
	// A directory reopens through its own ".", /proc or not.
	dir, err := root.Resolve("var/log/etc")
	if err != nil {
		t.Fatal(err)
	}
	defer dir.Close()
	opened, err := Reopen(dir, os.O_RDONLY|syscall.O_DIRECTORY)
	if err != nil {
		t.Fatal(err)
	}
	defer opened.Close()
	expectCloexec(t, opened)
	sameFile(t, opened, rootPath+"/etc")
}

func TestHostileOpenat2StaysInside(t *testing.T) {
	root := hostileRoot(t)
	file, err := Openat2(root.File(), "var/log/etc/hostname", &OpenHow{Flags: uint64(os.O_RDONLY), Resolve: ResolveInRoot})
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	expectCloexec(t, file)
	if got := readAll(t, file); got != "root\n" {
		t.Errorf("read %q", got)
	}
	_, err = Openat2(root.File(), "tmp/x/hostname", &OpenHow{Resolve: ResolveBeneath})
	var pathErr *os.PathError
	if !errors.As(err, &pathErr) || pathErr.Err != syscall.EXDEV || pathErr.Path != "tmp/x/hostname" {
		t.Errorf("RESOLVE_BENEATH through a link out: %v, not EXDEV", err)
	}
}
