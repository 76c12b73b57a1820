package execveat

/*
#cgo pkg-config: execveat
#include <stdlib.h>
*/
import "C"

import (
	"os"
	"syscall"
	"unsafe"
)

// cString is path as the C library takes it, and the function that frees
// it. A path holding a NUL byte cannot be passed: EINVAL, as the os
// package answers.
func cString(path string) (*C.char, func(), error) {
	for i := 0; i < len(path); i++ {
		if path[i] == 0 {
			return nil, nil, syscall.EINVAL
		}
	}
	s := C.CString(path)
	return s, func() { C.free(unsafe.Pointer(s)) }, nil
}

// newFile wraps an fd the C library returned. os.NewFile keeps a
// blocking fd out of Go's poller, as an O_PATH fd must be.
func newFile(fd C.int, name string) *os.File {
	return os.NewFile(uintptr(fd), name)
}

// errnoOf is the errno of a failed call (cgo hands it over as err). A
// failure without one would be a fault of the C library; EIO says so
// rather than nil, which would read as success.
func errnoOf(err error) error {
	if errno, ok := err.(syscall.Errno); ok && errno != 0 {
		return errno
	}
	return syscall.EIO
}

func pathError(op, path string, err error) error {
	return &os.PathError{Op: op, Path: path, Err: errnoOf(err)}
}

func linkError(op, oldname, newname string, err error) error {
	return &os.LinkError{Op: op, Old: oldname, New: newname, Err: errnoOf(err)}
}
