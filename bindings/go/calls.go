package execveat

/*
#include <stdlib.h>
#include <execveat.h>

// A NULL-terminated array of n strings, for argv and envp; NULL where
// malloc fails.
static char **string_array(size_t n)
{
	return calloc(n + 1, sizeof(char *));
}
*/
import "C"

import (
	"os"
	"runtime"
	"syscall"
	"unsafe"
)

// OpenHow is the kernel's struct open_how.
type OpenHow struct {
	Flags   uint64
	Mode    uint64
	Resolve uint64
}

// atFdcwd is AT_FDCWD.
const atFdcwd = -100

// dirFd is dir's fd, or AT_FDCWD for nil.
func dirFd(dir *os.File) C.int {
	if dir == nil {
		return atFdcwd
	}
	return C.int(dir.Fd())
}

// Openat2 opens path relative to dir (nil: the working directory) as
// openat2(2) does, adding O_CLOEXEC to how.Flags; where the system call
// is refused, the library resolves path itself, RESOLVE_ flags kept.
func Openat2(dir *os.File, path string, how *OpenHow) (*os.File, error) {
	cpath, free, err := cString(path)
	if err != nil {
		return nil, &os.PathError{Op: "openat2", Path: path, Err: err}
	}
	defer free()
	chow := C.struct_open_how{
		flags:   C.__u64(how.Flags | alwaysFlags),
		mode:    C.__u64(how.Mode),
		resolve: C.__u64(how.Resolve),
	}
	fd, err := C.openat2(dirFd(dir), cpath, &chow, C.sizeof_struct_open_how)
	runtime.KeepAlive(dir)
	if fd < 0 {
		return nil, pathError("openat2", path, err)
	}
	return newFile(fd, path), nil
}

// cStrings is strs as a C array, and the function that frees it.
func cStrings(strs []string) (**C.char, func(), error) {
	array := C.string_array(C.size_t(len(strs)))
	if array == nil {
		return nil, nil, syscall.ENOMEM
	}
	elems := unsafe.Slice(array, len(strs)+1)
	free := func() {
		for _, s := range elems {
			C.free(unsafe.Pointer(s))
		}
		C.free(unsafe.Pointer(array))
	}
	for i, s := range strs {
		cs, _, err := cString(s)
		if err != nil {
			free()
			return nil, nil, err
		}
		elems[i] = cs
	}
	return array, free, nil
}

// execArgs runs exec with argv and envv as C arrays.
func execArgs(argv, envv []string, exec func(argv, envp **C.char) error) error {
	cargv, freeArgv, err := cStrings(argv)
	if err != nil {
		return err
	}
	defer freeArgv()
	cenvp, freeEnvp, err := cStrings(envv)
	if err != nil {
		return err
	}
	defer freeEnvp()
	return exec(cargv, cenvp)
}

// Fexecve runs the program open at file, replacing the process, without
// needing /proc (fexecve(3) of libexecveat). It returns only on failure.
func Fexecve(file *os.File, argv, envv []string) error {
	err := execArgs(argv, envv, func(argv, envp **C.char) error {
		_, err := C.fexecve(C.int(file.Fd()), argv, envp)
		runtime.KeepAlive(file)
		return errnoOf(err)
	})
	return &os.PathError{Op: "fexecve", Path: file.Name(), Err: err}
}

// Execveat runs path relative to dir (nil: the working directory) as
// execveat(2) does, with AT_EMPTY_PATH, AT_SYMLINK_NOFOLLOW or
// AT_EXECVE_CHECK in flags. It returns only on failure (or, with
// AT_EXECVE_CHECK, nil where the program could run).
func Execveat(dir *os.File, path string, argv, envv []string, flags int) error {
	cpath, free, err := cString(path)
	if err != nil {
		return &os.PathError{Op: "execveat", Path: path, Err: err}
	}
	defer free()
	err = execArgs(argv, envv, func(argv, envp **C.char) error {
		ret, err := C.execveat(dirFd(dir), cpath, argv, envp, C.int(flags))
		runtime.KeepAlive(dir)
		if ret == 0 {
			return nil
		}
		return errnoOf(err)
	})
	if err != nil {
		return &os.PathError{Op: "execveat", Path: path, Err: err}
	}
	return nil
}

// CloseFrom closes every fd from lowfd up, without needing /proc
// (closefrom(3) of libexecveat). The caller must own them all: an fd of
// Go's runtime (its poller's) or of an *os.File still in use must stay
// below lowfd.
func CloseFrom(lowfd int) {
	C.closefrom(C.int(lowfd))
}
