package execveat

import "syscall"

// The kernel's RESOLVE_ flags (<linux/openat2.h>), for OpenHow.Resolve.
const (
	ResolveNoXdev       = 0x01 // no mount crossings
	ResolveNoMagiclinks = 0x02 // no procfs magic links
	ResolveNoSymlinks   = 0x04 // no symlinks at all
	ResolveBeneath      = 0x08 // EXDEV rather than leave the directory
	ResolveInRoot       = 0x10 // the directory is "/", ".." stops there
	ResolveCached       = 0x20 // only from the dentry cache, or EAGAIN
)

// renameat2's flags (<linux/fs.h>), for Root.Rename.
const (
	RenameNoreplace = 1 << 0
	RenameExchange  = 1 << 1
	RenameWhiteout  = 1 << 2
)

// The flags every fd this package opens gets, whatever the caller asks:
// close-on-exec, as os.OpenFile opens files, so that no program the
// process runs inherits one, and never a controlling terminal.
const alwaysFlags = syscall.O_CLOEXEC | syscall.O_NOCTTY
