package execveat

/*
#define _GNU_SOURCE
#include <fcntl.h>
#include <inroot.h>
*/
import "C"

import (
	"os"
	"runtime"
	"syscall"
	"unsafe"
)

// Root is a directory beneath which every path is resolved as a chroot
// to it would resolve it: ".." stops at the root, and an absolute symlink
// starts again there. It holds an O_PATH fd of the directory, so that a
// rename of the directory after it was opened changes nothing.
type Root struct {
	file *os.File
}

// OpenRoot opens the directory path as a Root.
func OpenRoot(path string) (*Root, error) {
	fd, err := syscall.Open(path, C.O_PATH|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "openroot", Path: path, Err: err}
	}
	return &Root{file: os.NewFile(uintptr(fd), path)}, nil
}

// RootFromFile makes a Root of an open directory; the Root holds a
// duplicate of its fd (close-on-exec), so that file may be closed.
func RootFromFile(file *os.File) (*Root, error) {
	fd, err := dupCloexec(file)
	if err != nil {
		return nil, &os.PathError{Op: "rootfromfile", Path: file.Name(), Err: err}
	}
	return &Root{file: os.NewFile(uintptr(fd), file.Name())}, nil
}

func dupCloexec(file *os.File) (int, error) {
	fd, _, errno := syscall.Syscall(syscall.SYS_FCNTL, file.Fd(), syscall.F_DUPFD_CLOEXEC, 0)
	runtime.KeepAlive(file)
	if errno != 0 {
		return -1, errno
	}
	return int(fd), nil
}

// File is the root's directory, which the Root still owns.
func (r *Root) File() *os.File { return r.file }

// Close closes the root's fd.
func (r *Root) Close() error { return r.file.Close() }

// call runs one C call on the root's fd, which stays open meanwhile.
func (r *Root) call(path string, f func(root C.int, path *C.char) (C.int, error)) (C.int, error) {
	cpath, free, err := cString(path)
	if err != nil {
		return -1, err
	}
	defer free()
	ret, err := f(C.int(r.file.Fd()), cpath)
	runtime.KeepAlive(r.file)
	if ret < 0 {
		return ret, errnoOf(err)
	}
	return ret, nil
}

// do runs a C call that answers 0 or -1 with errno.
func (r *Root) do(op, path string, f func(root C.int, path *C.char) (C.int, error)) error {
	if _, err := r.call(path, f); err != nil {
		return pathError(op, path, err)
	}
	return nil
}

// openCall runs a C call that returns an fd, as an *os.File named path.
func (r *Root) openCall(op, path string, f func(root C.int, path *C.char) (C.int, error)) (*os.File, error) {
	fd, err := r.call(path, f)
	if err != nil {
		return nil, pathError(op, path, err)
	}
	return newFile(fd, path), nil
}

// Resolve is an O_PATH file of path, its last symlink followed
// (inroot_resolve).
func (r *Root) Resolve(path string) (*os.File, error) {
	return r.openCall("resolve", path, func(root C.int, p *C.char) (C.int, error) {
		ret, err := C.inroot_resolve(root, p)
		return ret, err
	})
}

// ResolveNoFollow is an O_PATH file of path itself, a symlink not
// followed (inroot_resolve_nofollow).
func (r *Root) ResolveNoFollow(path string) (*os.File, error) {
	return r.openCall("resolve", path, func(root C.int, p *C.char) (C.int, error) {
		ret, err := C.inroot_resolve_nofollow(root, p)
		return ret, err
	})
}

// Open opens path for reading.
func (r *Root) Open(path string) (*os.File, error) {
	return r.OpenFile(path, os.O_RDONLY)
}

// OpenFile opens path with flags as open(2) does (inroot_open), adding
// O_CLOEXEC; O_CREAT needs Create.
func (r *Root) OpenFile(path string, flags int) (*os.File, error) {
	return r.openCall("open", path, func(root C.int, p *C.char) (C.int, error) {
		ret, err := C.inroot_open(root, p, C.int(flags|alwaysFlags))
		return ret, err
	})
}

// Create opens path with O_CREAT and flags, made with mode if it is new
// (inroot_creat), adding O_CLOEXEC.
func (r *Root) Create(path string, flags int, mode os.FileMode) (*os.File, error) {
	return r.openCall("create", path, func(root C.int, p *C.char) (C.int, error) {
		ret, err := C.inroot_creat(root, p, C.int(flags|alwaysFlags), C.mode_t(syscallMode(mode)))
		return ret, err
	})
}

// Mkdir makes the directory path (inroot_mkdir).
func (r *Root) Mkdir(path string, mode os.FileMode) error {
	return r.do("mkdir", path, func(root C.int, p *C.char) (C.int, error) {
		ret, err := C.inroot_mkdir(root, p, C.mode_t(syscallMode(mode)))
		return ret, err
	})
}

// MkdirAll makes every missing directory of path and returns an O_PATH
// file of the last (inroot_mkdir_all).
func (r *Root) MkdirAll(path string, mode os.FileMode) (*os.File, error) {
	return r.openCall("mkdirall", path, func(root C.int, p *C.char) (C.int, error) {
		ret, err := C.inroot_mkdir_all(root, p, C.mode_t(syscallMode(mode)))
		return ret, err
	})
}

// Mknod makes a node as mknodat(2) does: mode holds the file type
// (syscall.S_IFIFO, S_IFCHR, S_IFBLK, S_IFREG) and the permissions, dev
// the device number (inroot_mknod).
func (r *Root) Mknod(path string, mode uint32, dev uint64) error {
	return r.do("mknod", path, func(root C.int, p *C.char) (C.int, error) {
		ret, err := C.inroot_mknod(root, p, C.mode_t(mode), C.dev_t(dev))
		return ret, err
	})
}

// twoNames runs a C call on two names beneath the root.
func (r *Root) twoNames(op, first, second string, f func(root C.int, first, second *C.char) (C.int, error)) error {
	csecond, free, err := cString(second)
	if err != nil {
		return linkError(op, first, second, err)
	}
	defer free()
	_, err = r.call(first, func(root C.int, cfirst *C.char) (C.int, error) {
		return f(root, cfirst, csecond)
	})
	if err != nil {
		return linkError(op, first, second, err)
	}
	return nil
}

// Symlink makes path a symlink whose text is target, stored as it is
// (inroot_symlink). Its error is an *os.LinkError, Old the target and
// New the path, as os.Symlink's.
func (r *Root) Symlink(path, target string) error {
	err := r.twoNames("symlink", path, target, func(root C.int, p, t *C.char) (C.int, error) {
		ret, err := C.inroot_symlink(root, p, t)
		return ret, err
	})
	return swapLinkNames(err)
}

// Hardlink makes path a hard link of target, both beneath the root and
// target not followed if it is a symlink (inroot_hardlink). Its error is
// an *os.LinkError, Old the target and New the path, as os.Link's.
func (r *Root) Hardlink(path, target string) error {
	err := r.twoNames("link", path, target, func(root C.int, p, t *C.char) (C.int, error) {
		ret, err := C.inroot_hardlink(root, p, t)
		return ret, err
	})
	return swapLinkNames(err)
}

// swapLinkNames puts a link's names in os.Link's order: Old the existing
// name (the target), New the one made.
func swapLinkNames(err error) error {
	if e, ok := err.(*os.LinkError); ok {
		e.Old, e.New = e.New, e.Old
	}
	return err
}

// Rename renames src to dst with renameat2's flags (RenameNoreplace,
// RenameExchange, RenameWhiteout), both beneath the root (inroot_rename).
func (r *Root) Rename(src, dst string, flags uint) error {
	return r.twoNames("rename", src, dst, func(root C.int, s, d *C.char) (C.int, error) {
		ret, err := C.inroot_rename(root, s, d, C.uint(flags))
		return ret, err
	})
}

// Unlink removes a name that is not a directory (inroot_unlink).
func (r *Root) Unlink(path string) error {
	return r.do("unlink", path, func(root C.int, p *C.char) (C.int, error) {
		ret, err := C.inroot_unlink(root, p)
		return ret, err
	})
}

// Rmdir removes an empty directory (inroot_rmdir).
func (r *Root) Rmdir(path string) error {
	return r.do("rmdir", path, func(root C.int, p *C.char) (C.int, error) {
		ret, err := C.inroot_rmdir(root, p)
		return ret, err
	})
}

// RemoveAll removes path and everything beneath it, never following a
// symlink; nil where path does not exist (inroot_remove_all).
func (r *Root) RemoveAll(path string) error {
	return r.do("removeall", path, func(root C.int, p *C.char) (C.int, error) {
		ret, err := C.inroot_remove_all(root, p)
		return ret, err
	})
}

// Readlink is the text of the symlink path, not followed
// (inroot_readlink).
func (r *Root) Readlink(path string) (string, error) {
	buf := make([]byte, 256)
	for {
		n, err := r.call(path, func(root C.int, p *C.char) (C.int, error) {
			n, err := C.inroot_readlink(root, p, (*C.char)(unsafe.Pointer(&buf[0])), C.size_t(len(buf)))
			return C.int(n), err
		})
		if err != nil {
			return "", pathError("readlink", path, err)
		}
		// The whole length is returned: a text longer than buf is
		// asked for again with room for it.
		if int(n) <= len(buf) {
			return string(buf[:n]), nil
		}
		buf = make([]byte, n)
	}
}

// syscallMode is mode's permission and set-id bits as mkdir(2) and
// open(2) take them.
func syscallMode(mode os.FileMode) uint32 {
	m := uint32(mode.Perm())
	if mode&os.ModeSetuid != 0 {
		m |= syscall.S_ISUID
	}
	if mode&os.ModeSetgid != 0 {
		m |= syscall.S_ISGID
	}
	if mode&os.ModeSticky != 0 {
		m |= syscall.S_ISVTX
	}
	return m
}
