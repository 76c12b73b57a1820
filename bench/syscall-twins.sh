# Sourced by the count-*.sh scripts after they trace: strace names each
# system call as the traced program's ABI does, and a 32-bit program on a
# 64-bit kernel (i386, armhf) makes the 32-bit twin of many of the calls
# a 64-bit program makes: fstatfs64 for fstatfs, fcntl64 for fcntl,
# _llseek for lseek, futex_time64 for futex... The same library call is
# the same system call for what the scripts count and match, so
#
#   as_64bit_names LOG
#
# rewrites each twin in LOG to the 64-bit ABI's name, and drops the one
# argument strace shows that the 64-bit call lacks: statfs64's and
# fstatfs64's size of the struct; the others stay as strace shows the
# 32-bit call. Calls of the same name on both ABIs (getdents64, pread64,
# prlimit64) are left as they are. A line may start with a pid (strace -f)
# or continue a call ("<... NAME resumed>").
as_64bit_names() {
	local call='^([0-9]+ +|\[pid +[0-9]+\] )?(<\.\.\. )?'
	sed -E -i \
		-e "s/$call(f?statfs)64\\(([^,]*), [0-9]+, /\\1\\2\\3(\\4, /" \
		-e "s/$call(f?statfs|l?stat|fstat|fcntl|f?truncate|sendfile|clock_(get|set)time|clock_adjtime|timerfd_[gs]ettime|timer_[gs]ettime)64\\b/\\1\\2\\3/" \
		-e "s/$call([a-z_0-9]+)_time64\\b/\\1\\2\\3/" \
		-e "s/$call(l?chown|fchown|[gs]et(e|fs|re|res)?[ug]id|[gs]etgroups)32\\b/\\1\\2\\3/" \
		-e "s/${call}fstatat64\\b/\\1\\2newfstatat/" \
		-e "s/${call}_llseek\\b/\\1\\2lseek/" \
		-e "s/${call}mmap2\\b/\\1\\2mmap/" \
		-e "s/${call}ugetrlimit\\b/\\1\\2getrlimit/" \
		-e "s/${call}_newselect\\b/\\1\\2select/" \
		-e "s/${call}fadvise64_64\\b/\\1\\2fadvise64/" \
		"$1"
}
