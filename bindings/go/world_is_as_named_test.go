package execveat

import (
	"syscall"
	"testing"
	"unsafe"
)

// The world is what bindings/in-world named it: where openat2 is to be
// refused, the raw system call is; where /proc is to be hidden, it is.
// Otherwise the other tests would prove less than they say.
func TestWorldIsAsNamed(t *testing.T) {
	const sysOpenat2, procSuperMagic = 437, 0x9fa0
	how := OpenHow{Flags: syscall.O_CLOEXEC}
	path, _ := syscall.BytePtrFromString("/")
	dirfd := atFdcwd
	fd, _, errno := syscall.Syscall6(sysOpenat2, uintptr(dirfd),
		uintptr(unsafe.Pointer(path)), uintptr(unsafe.Pointer(&how)), unsafe.Sizeof(how), 0, 0)
	if errno == 0 {
		syscall.Close(int(fd))
	}
	var want syscall.Errno
	switch world() {
	case "openat2-enosys", "proc-hidden-openat2-enosys":
		want = syscall.ENOSYS
	case "openat2-eperm":
		want = syscall.EPERM
	case "scratch", "proc-hidden":
	default:
		t.Skipf("not in a world of bindings/in-world (BINDINGS_WORLD=%q)", world())
	}
	if errno != want {
		t.Errorf("world %s: openat2 answered errno %d, not %d", world(), errno, want)
	}
	var fs syscall.Statfs_t
	err := syscall.Statfs("/proc", &fs)
	isProc := err == nil && fs.Type == procSuperMagic
	if isProc == procHidden() {
		t.Errorf("world %s: /proc is procfs: %v", world(), isProc)
	}
}
