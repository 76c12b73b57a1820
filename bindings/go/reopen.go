package execveat

/*
#include <inroot.h>
*/
import "C"

import (
	"os"
	"runtime"
)

// Reopen opens file's file again with flags, as open(2) opens it
// (inroot_reopen), adding O_CLOEXEC: never by a name that could now lead
// elsewhere. file is often an O_PATH file from Resolve. EOPNOTSUPP where
// the kernel cannot reopen it by itself and no proven /proc is there.
// The signature of securejoin.Reopen.
func Reopen(file *os.File, flags int) (*os.File, error) {
	fd, err := C.inroot_reopen(C.int(file.Fd()), C.int(flags|alwaysFlags))
	runtime.KeepAlive(file)
	if fd < 0 {
		return nil, pathError("reopen", file.Name(), err)
	}
	return newFile(fd, file.Name()), nil
}
