package execveat

// The world the tests run in. The tests of operations on a hostile root
// (TestHostile*) need a scratch host: a private mount namespace whose
// "/" is a tmpfs made for the run, as bindings/in-world makes it, so
// that an escape through the root's links lands there, where the
// snapshot of everything outside the root sees it, and harms nothing.

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
)

const (
	// bindings/in-world puts this file at the scratch host's "/".
	scratchHostMark = "/.libexecveat-scratch-host"
	rootPath        = "/srv/root"
	// Where fd numbers are probed for leaks: fcntl rather than a
	// listing of /proc/self/fd, which some worlds hide.
	probedFds = 1024
)

// world is the name bindings/in-world gives the world: scratch,
// openat2-enosys, openat2-eperm, proc-hidden or proc-hidden-openat2-enosys.
func world() string { return os.Getenv("BINDINGS_WORLD") }

func procHidden() bool { return strings.HasPrefix(world(), "proc-hidden") }

// openFds is the set of open fd numbers below probedFds.
func openFds() []int {
	var fds []int
	for fd := 0; fd < probedFds; fd++ {
		if _, _, errno := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_GETFD, 0); errno == 0 {
			fds = append(fds, fd)
		}
	}
	return fds
}

// expectNoFdLeft fails t, at its end, if an fd opened meanwhile is
// still open then.
func expectNoFdLeft(t *testing.T) {
	before := fmt.Sprint(openFds())
	t.Cleanup(func() {
		if after := fmt.Sprint(openFds()); after != before {
			t.Errorf("fds open before: %s; after: %s", before, after)
		}
	})
}

// hostSnapshot lists every name on the scratch host's own file system
// outside the root, with its type, mode, size, link text and times.
func hostSnapshot(t *testing.T) []string {
	var rootStat syscall.Stat_t
	if err := syscall.Stat("/", &rootStat); err != nil {
		t.Fatal(err)
	}
	var names []string
	err := filepath.WalkDir("/", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if path == rootPath {
			return filepath.SkipDir
		}
		var st syscall.Stat_t
		if err := syscall.Lstat(path, &st); err != nil {
			return err
		}
		if st.Dev != rootStat.Dev { // a bound /usr, /proc, the build
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		link, _ := os.Readlink(path)
		names = append(names, fmt.Sprintf("%s mode=%o size=%d link=%q mtime=%d.%d ctime=%d.%d",
			path, st.Mode, st.Size, link, st.Mtim.Sec, st.Mtim.Nsec, st.Ctim.Sec, st.Ctim.Nsec))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(names)
	return names
}

func writeFile(t *testing.T, path, text string) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func symlink(t *testing.T, target, path string) {
	if err := os.Symlink(target, path); err != nil {
		t.Fatal(err)
	}
}

// hostileRoot makes the root of tools/demo's inroot scene at /srv/root
// on the scratch host, with the host's markers where its links lead when
// followed from outside it (var/log -> /, tmp/x -> ../../../../etc,
// usr/share/doc/link -> /home), and opens it. At the test's end, the
// host outside the root must be as it was, and no fd left open.
func hostileRoot(t *testing.T) *Root {
	if _, err := os.Stat(scratchHostMark); err != nil {
		t.Skip("needs a scratch host (bindings/in-world): an escape would reach this machine's /")
	}
	writeFile(t, "/etc/hostname", "host\n")
	writeFile(t, "/home/user/file", "host\n")
	if err := os.RemoveAll(rootPath); err != nil {
		t.Fatal(err)
	}
	writeFile(t, rootPath+"/etc/hostname", "root\n")
	writeFile(t, rootPath+"/home/user/file", "root\n")
	writeFile(t, rootPath+"/usr/lib/os-release", "ID=root\n")
	for _, dir := range []string{"var", "tmp", "usr/share/doc", "emptydir"} {
		if err := os.MkdirAll(rootPath+"/"+dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	symlink(t, "/", rootPath+"/var/log")
	symlink(t, "../../../../etc", rootPath+"/tmp/x")
	symlink(t, "/home", rootPath+"/usr/share/doc/link")
	symlink(t, "/usr/lib/os-release", rootPath+"/etc/os-release")

	before := hostSnapshot(t)
	expectNoFdLeft(t)
	root, err := OpenRoot(rootPath)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		root.Close()
		after := hostSnapshot(t)
		if strings.Join(after, "\n") != strings.Join(before, "\n") {
			t.Errorf("ESCAPED: the host outside the root changed:\nbefore:\n%s\nafter:\n%s",
				strings.Join(before, "\n"), strings.Join(after, "\n"))
		}
	})
	return root
}

// sameFile fails t unless file is the file at path (seen from outside
// the root, by this test).
func sameFile(t *testing.T, file *os.File, path string) {
	t.Helper()
	var a, b syscall.Stat_t
	if err := syscall.Fstat(int(file.Fd()), &a); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Lstat(path, &b); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if a.Dev != b.Dev || a.Ino != b.Ino {
		t.Errorf("%s: the fd is another file (ino %d, not %d)", path, a.Ino, b.Ino)
	}
}

// expectCloexec fails t unless file's fd is close-on-exec.
func expectCloexec(t *testing.T, file *os.File) {
	t.Helper()
	flags, _, errno := syscall.Syscall(syscall.SYS_FCNTL, file.Fd(), syscall.F_GETFD, 0)
	if errno != 0 || flags&syscall.FD_CLOEXEC == 0 {
		t.Errorf("%s: fd %d not close-on-exec (F_GETFD %d, %v)", file.Name(), file.Fd(), flags, errno)
	}
}

func readAll(t *testing.T, file *os.File) string {
	t.Helper()
	buf := make([]byte, 4096)
	n, err := syscall.Pread(int(file.Fd()), buf, 0)
	if err != nil {
		t.Fatalf("%s: %v", file.Name(), err)
	}
	return string(buf[:n])
}
