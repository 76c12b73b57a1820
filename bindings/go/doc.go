// Package execveat binds libexecveat (pkg-config: execveat) for Go: the
// file operations beneath a root of <inroot.h>, which resolve every path
// as a chroot to the root would and never leave it, with openat2 or,
// where the system call is refused, without it and without /proc; and
// openat2, fexecve, execveat and closefrom of <execveat.h>.
//
// Every *os.File it returns is close-on-exec. Every error is an
// *os.PathError (an *os.LinkError for the operations on two names)
// wrapping the C library's syscall.Errno, so that errors.Is(err,
// fs.ErrNotExist) and the like work.
//
// OpenInRoot, OpenatInRoot, MkdirAll, MkdirAllHandle and Reopen have
// the signatures of github.com/cyphar/filepath-securejoin's functions of
// those names, so that a program can move between the two by changing
// its import.
package execveat
