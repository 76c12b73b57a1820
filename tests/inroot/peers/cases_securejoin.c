/*
 * filepath-securejoin's cases: its pathrs-lite tests of OpenInRoot (an
 * O_PATH lookup, our resolve), of MkdirAll and of MkdirAllHandle's mode
 * checks, and its SecureJoin tests (join_test.go), over the trees each
 * test builds, written here as rows.
 *
 * SecureJoin answers a name, not a file: it walks what exists and joins
 * the rest lexically, so a path through a dangling symlink or past a
 * file still names something. Its rows ask the kernel the nearest
 * question: resolve where SecureJoin's name exists or it expects an
 * error, and mkdir_all (which makes the name and opens it) where it
 * names a directory still to be made.
 */
#define _GNU_SOURCE
#include "peer_rows.h"

/* The lookup tree of OpenInRoot's tests. */
static const char *const open_tree[] = {
	"d a",
	"d b/c/d/e/f",
	"f b/c/file",
	"l e /b/c/d/e",
	"l b-file b/c/file",
	"l a-fake1 a/fake",
	"l a-fake2 a/fake/foo/bar/..",
	"l a-fake3 a/fake/../../b",
	"l c/a-fake1 a/fake",
	"l c/a-fake2 a/fake/foo/bar/..",
	"l c/a-fake3 a/fake/../../b",
	"d target",
	"l link1/target_abs /target",
	"l link1/target_rel ../target",
	"l link2/link1_abs /link1",
	"l link2/link1_rel ../link1",
	"l link3/target_abs /link2/link1_rel/target_rel",
	"l link3/target_rel ../link2/link1_rel/target_rel",
	"l link3/deep_dangling1 ../link2/link1_rel/target_rel/nonexist",
	"l link3/deep_dangling2 ../link2/link1_rel/target_rel/nonexist",
	"l dangling/a b/c",
	"l dangling/b/c ../c",
	"l dangling/c d/e",
	"l dangling/d/e ../e",
	"l dangling/e f/../g",
	"d dangling/f",
	"l dangling/g h/i/j/nonexistent",
	"d dangling/h/i/j",
	"l dangling-file/a b/c",
	"l dangling-file/b/c ../c",
	"l dangling-file/c d/e",
	"l dangling-file/d/e ../e",
	"l dangling-file/e f/../g",
	"d dangling-file/f",
	"l dangling-file/g h/i/j/file/foo",
	"f dangling-file/h/i/j/file",
	"p b/fifo",
	"s b/sock",
	"l loop/basic-loop1 basic-loop1",
	"l loop/basic-loop2 /loop/basic-loop2",
	"l loop/basic-loop3 ../loop/basic-loop3",
	"l loop/a/link ../b/link",
	"l loop/b/link /loop/c/link",
	"l loop/c/link /loop/d/link",
	"l loop/d e",
	"l loop/e/link ../a/link",
	"l loop/link a/link",
	NULL,
};

/* OpenInRoot's devices (its BadInode test, as root). */
static const char *const device_tree[] = {
	"c foo/whiteout ^0:0",
	"b foo/whiteout-blk ^0:0",
	NULL,
};

/* MkdirAll's tree, with its own loop and set-group-ID directories (the
 * others' owned by uid 1000, as its root-only test makes them). */
static const char *const mkdir_tree[] = {
	"d a",
	"d b/c/d/e/f",
	"f b/c/file",
	"l e /b/c/d/e",
	"l b-file b/c/file",
	"l a-fake1 a/fake",
	"l a-fake2 a/fake/foo/bar/..",
	"l a-fake3 a/fake/../../b",
	"d target",
	"l link1/target_abs /target",
	"l link1/target_rel ../target",
	"l link2/link1_abs /link1",
	"l link2/link1_rel ../link1",
	"l link3/target_abs /link2/link1_rel/target_rel",
	"l link3/target_rel ../link2/link1_rel/target_rel",
	"l link3/deep_dangling1 ../link2/link1_rel/target_rel/nonexist",
	"l link3/deep_dangling2 ../link2/link1_rel/target_rel/nonexist",
	"l loop/link ../loop/link",
	"d sgid-self =2755",
	"d sgid-sticky-self =3755",
	"d sgid-other @1000:1000 =2755",
	"d sgid-sticky-other @1000:1000 =3755",
	NULL,
};

/* MkdirAllHandle's mode checks: an empty root. */
static const char *const empty_tree[] = { NULL };

/* SecureJoin's trees: TestSymlink's, TestNonLexical's,
 * TestSymlinkLoop's, TestEnotdir's. */
static const char *const join_symlink_tree[] = {
	"l etc somepath",
	"l etclink ../../../../../../../../../../../../../etc",
	"l passwd /../../../../../../../../../../../../../etc/passwd",
	NULL,
};
static const char *const join_nonlexical_tree[] = {
	"d subdir",
	"d cousinparent/cousin",
	"l subdir/link ../cousinparent/cousin",
	"l subdir/link2 /../cousinparent/cousin",
	"l subdir/link3 /../../../../../../../../../../../../../../../../"
	"cousinparent/cousin",
	NULL,
};
static const char *const join_loop_tree[] = {
	"d subdir",
	"l subdir/link ../../../../../../../../../../../../../../../../path",
	"l path /subdir/link",
	"l self /../../../../../../../../../../../../../../../../self",
	NULL,
};
static const char *const join_enotdir_tree[] = {
	"d subdir",
	"f notdir =0755",
	"l subdir/link /../../../notdir/somechild",
	NULL,
};

#define OPEN(name_, path_, expects_, ...)                                    \
	ROW("securejoin", open_tree, name_, OP_RESOLVE, path_, expects_,     \
	    __VA_ARGS__)
#define DEVICE(name_, path_, expects_)                                       \
	ROW("securejoin", device_tree, name_, OP_RESOLVE, path_, expects_, )
#define MKDIR_ALL(name_, path_, expects_, ...)                               \
	ROW("securejoin", mkdir_tree, name_, OP_MKDIR_ALL, path_, expects_,  \
	    .mode = 0711, __VA_ARGS__)
#define MODE(name_, mode_, expects_, ...)                                    \
	ROW("securejoin", empty_tree, name_, OP_MKDIR_ALL, "a/b/c", expects_, \
	    .mode = (mode_), __VA_ARGS__)
#define JOIN(tree_, name_, op_, path_, expects_, ...)                        \
	ROW("securejoin", tree_, name_, op_, path_, expects_, .mode = 0755,  \
	    __VA_ARGS__)

#define DANGLING_IN_MKDIR_ALL                                                  \
	"MkdirAll says ENOTDIR (or ENOENT past \"..\") for a symlink that "    \
	"leads nowhere; mkdir's answer for that name is EEXIST, which the "    \
	"header makes mkdir_all's"
#define DOTDOT_IN_MKDIR_ALL                                                    \
	"MkdirAll refuses \"..\" in the part of the path it would make; "      \
	"mkdir of each prefix in turn makes it, as the kernel walks \"..\" "   \
	"after a directory it just made"
#define MODE_CHECK                                                             \
	"MkdirAllHandle refuses mode bits mkdir(2) would not keep (its "       \
	"ErrInvalidMode); mkdir drops them, and mkdir_all makes each "         \
	"directory as mkdir makes it"
#define REOPEN_WITHOUT_PROC                                                    \
	"inroot(3): reopen opens a file that is no directory through a "      \
	"proven /proc/self/fd (or Linux 7.2's O_EMPTYPATH), else EOPNOTSUPP"
#define LEXICAL                                                                \
	"SecureJoin joins what does not exist lexically, through a dangling " \
	"symlink or a file, and names a path; the kernel has no file there"

const struct peer_case securejoin_cases[] = {
	/* OpenInRoot (open_linux_test.go). */
	OPEN("complete-dir1", "a", NAMES("/a")),
	OPEN("complete-dir3", "b///././c////.//d/./././///e////.//./f//././././",
	     NAMES("/b/c/d/e/f")),
	OPEN("complete-file-link", "b-file", NAMES("/b/c/file")),
	OPEN("complete-fifo", "b/fifo", NAMES("/b/fifo")),
	OPEN("complete-sock", "b/sock", NAMES("/b/sock")),
	OPEN("partial-dir-dotdot", "a/foo/../bar/baz", FAILS(ENOENT)),
	OPEN("nonlexical-basic-complete3", "target//", NAMES("/target")),
	OPEN("nonlexical-level1-abs-partial-dotdot",
	     "link1/target_abs/../target/foo/bar/../baz", FAILS(ENOENT)),
	OPEN("nonlexical-level2-abs-rel-complete2",
	     "link2/link1_abs/target_rel/", NAMES("/target")),
	OPEN("nonlexical-level2-rel-abs-partial",
	     "link2/link1_rel/target_abs/foo", FAILS(ENOENT)),
	OPEN("nonlexical-level2-abs-open-complete3",
	     "link2/link1_abs/../target//", NAMES("/target")),
	OPEN("nonlexical-level3-rel-complete3", "link3/target_rel//",
	     NAMES("/target")),
	OPEN("partial-nondir-slash2", "b/c/file//", FAILS(ENOTDIR)),
	OPEN("partial-nondir-dotdot2", "b/c/file/../foo/bar", FAILS(ENOTDIR)),
	OPEN("partial-nondir-symlink-dot", "b-file/.", FAILS(ENOTDIR)),
	OPEN("partial-fifo-slash1", "b/fifo/", FAILS(ENOTDIR)),
	OPEN("partial-sock-dotdot2", "b/sock/../foo/bar", FAILS(ENOTDIR)),
	OPEN("dangling1-sub-trailing", "c/a-fake1", FAILS(ENOENT)),
	OPEN("dangling2-sub-partial-dotdot", "c/a-fake2/../bar/baz",
	     FAILS(ENOENT)),
	OPEN("dangling3-inroot-partial-dotdot", "a-fake3/../bar/baz",
	     FAILS(ENOENT)),
	OPEN("dangling-tricky2-partial", "link3/deep_dangling2/foo",
	     FAILS(ENOENT)),
	OPEN("deep-dangling2", "dangling/b/c", FAILS(ENOENT)),
	OPEN("deep-dangling6", "dangling/g", FAILS(ENOENT)),
	OPEN("deep-dangling-fileasdir4", "dangling-file/d/e", FAILS(ENOTDIR)),
	OPEN("deep-dangling-fileasdir5", "dangling-file/e", FAILS(ENOTDIR)),
	OPEN("loop", "loop/link", FAILS(ELOOP)),
	OPEN("loop-basic2", "loop/basic-loop2", FAILS(ELOOP)),

	/* The reopens checkOpenInRoot makes of what it opened. */
	ROW("securejoin", open_tree, "complete-dir2 reopen O_RDONLY",
	    OP_REOPEN, "b/c/d/e/f", NAMES("/b/c/d/e/f"), .flags = O_RDONLY),
	ROW("securejoin", open_tree, "complete-file reopen O_RDWR", OP_REOPEN,
	    "b/c/file", NAMES("/b/c/file"), .flags = O_RDWR,
	    .without_proc_err = EOPNOTSUPP,
	    .without_proc_why = REOPEN_WITHOUT_PROC),
	ROW("securejoin", open_tree, "complete-file reopen O_DIRECTORY",
	    OP_REOPEN, "b/c/file", FAILS(ENOTDIR), .flags = O_DIRECTORY,
	    .without_proc_err = EOPNOTSUPP,
	    .without_proc_why = REOPEN_WITHOUT_PROC),
	ROW("securejoin", open_tree, "complete-sock reopen O_PATH", OP_REOPEN,
	    "b/sock", NAMES("/b/sock"), .flags = O_PATH,
	    .without_proc_err = EOPNOTSUPP,
	    .without_proc_why = REOPEN_WITHOUT_PROC),
	ROW("securejoin", open_tree, "complete-fifo reopen O_PATH|O_DIRECTORY",
	    OP_REOPEN, "b/fifo", FAILS(ENOTDIR),
	    .flags = O_PATH | O_DIRECTORY, .without_proc_err = EOPNOTSUPP,
	    .without_proc_why = REOPEN_WITHOUT_PROC),

	/* OpenInRoot of devices. */
	DEVICE("char-trailing", "foo/whiteout", NAMES("/foo/whiteout")),
	DEVICE("blk-trailing", "foo/whiteout-blk", NAMES("/foo/whiteout-blk")),
	DEVICE("char-dot", "foo/whiteout/.", FAILS(ENOTDIR)),
	DEVICE("blk-dotdot2", "foo/whiteout-blk/../foo/bar", FAILS(ENOTDIR)),

	/* MkdirAll (mkdir_linux_test.go). */
	MKDIR_ALL("existing", "a", SUCCEEDS),
	MKDIR_ALL("basic", "a/b/c/d/e/f/g/h/i/j", SUCCEEDS),
	MKDIR_ALL("dotdot-in-nonexisting", "a/b/c/d/e/f/g/h/i/j/k/../lmnop",
		  FAILS(ENOENT), .why = DOTDOT_IN_MKDIR_ALL),
	MKDIR_ALL("dotdot-in-existing", "b/c/../c/./d/e/f/g/h", SUCCEEDS),
	MKDIR_ALL("dotdot-after-symlink", "e/../dd/ee/ff", SUCCEEDS),
	MKDIR_ALL("nondir-trailing", "b/c/file", FAILS(ENOTDIR)),
	MKDIR_ALL("nondir-subdir", "b/c/file/subdir", FAILS(ENOTDIR)),
	MKDIR_ALL("nondir-symlink-trailing", "b-file", FAILS(ENOTDIR)),
	MKDIR_ALL("nondir-symlink-dotdot", "b-file/../d", FAILS(ENOTDIR)),
	MKDIR_ALL("dangling1-dotdot", "a-fake1/../bar/baz", FAILS(ENOENT),
		  .why = DANGLING_IN_MKDIR_ALL),
	MKDIR_ALL("dangling2-trailing", "a-fake2", FAILS(ENOTDIR),
		  .why = DANGLING_IN_MKDIR_ALL),
	MKDIR_ALL("dangling3-basic", "a-fake3/foo", FAILS(ENOTDIR),
		  .why = DANGLING_IN_MKDIR_ALL),
	MKDIR_ALL("nonlexical-basic", "target/foo", SUCCEEDS),
	MKDIR_ALL("nonlexical-level1-rel", "link1/target_rel/foo", SUCCEEDS),
	MKDIR_ALL("nonlexical-level2-abs-abs",
		  "link2/link1_abs/target_abs/foo", SUCCEEDS),
	MKDIR_ALL("nonlexical-level2-rel-abs",
		  "link2/link1_rel/target_abs/foo", SUCCEEDS),
	MKDIR_ALL("nonlexical-level2-rel-open",
		  "link2/link1_rel/../target/foo", SUCCEEDS),
	MKDIR_ALL("nonlexical-level3-abs", "link3/target_abs/foo", SUCCEEDS),
	MKDIR_ALL("dangling-tricky1-basic", "link3/deep_dangling1/foo",
		  FAILS(ENOTDIR), .why = DANGLING_IN_MKDIR_ALL),
	MKDIR_ALL("dangling-tricky2-trailing", "link3/deep_dangling2",
		  FAILS(ENOTDIR), .why = DANGLING_IN_MKDIR_ALL),
	MKDIR_ALL("dangling-tricky1-dotdot", "link3/deep_dangling1/../bar",
		  FAILS(ENOENT), .why = DANGLING_IN_MKDIR_ALL),
	MKDIR_ALL("loop-trailing", "loop/link", FAILS(ELOOP)),
	MKDIR_ALL("loop-basic", "loop/link/foo", FAILS(ELOOP)),
	MKDIR_ALL("loop-dotdot", "loop/link/../foo", FAILS(ELOOP)),
	MKDIR_ALL("sgid-dir-ownedbyus", "sgid-self/foo/bar/baz", SUCCEEDS),
	MKDIR_ALL("sgid-sticky-dir-ownedbyus", "sgid-sticky-self/foo/bar/baz",
		  SUCCEEDS),
	MKDIR_ALL("sgid-dir-ownedbyother", "sgid-other/foo/bar/baz",
		  SUCCEEDS),
	MKDIR_ALL("sgid-sticky-dir-ownedbyother",
		  "sgid-sticky-other/foo/bar/baz", SUCCEEDS),

	/* MkdirAllHandle's modes (internal/gopathrs). */
	MODE("invalid-mode-setuid", S_ISUID | 0777, FAILS(EINVAL),
	     .why = MODE_CHECK),
	MODE("invalid-mode-sticky", S_ISVTX | 0777, FAILS(EINVAL),
	     .why = "MkdirAllHandle refuses unix.S_ISVTX (it takes only Go's "
		    "os.ModeSticky); mkdir(2) keeps the sticky bit"),
	MODE("invalid-mode-all-set-id", S_ISUID | S_ISGID | S_ISVTX | 0777,
	     FAILS(EINVAL), .why = MODE_CHECK),
	MODE("invalid-mode-type-dir", S_IFDIR | 0777, FAILS(EINVAL),
	     .why = MODE_CHECK),
	MODE("invalid-mode-type-fifo", S_IFIFO | 0777, FAILS(EINVAL),
	     .why = MODE_CHECK),
	MODE("mode-0777", 0777, SUCCEEDS),
	MODE("mode-0711", 0711, SUCCEEDS),

	/* SecureJoin (join_test.go): TestSymlink's scoped joins. */
	JOIN(join_symlink_tree, "symlink-passwd", OP_RESOLVE, "passwd",
	     NAMES("/somepath/passwd"), .why = LEXICAL),
	JOIN(join_symlink_tree, "symlink-etclink", OP_RESOLVE, "etclink",
	     NAMES("/somepath"), .why = LEXICAL),
	JOIN(join_symlink_tree, "symlink-etc-test-dotdot", OP_RESOLVE,
	     "etc/test/..", NAMES("/somepath"), .why = LEXICAL),
	JOIN(join_symlink_tree, "symlink-etc-test", OP_MKDIR_ALL, "etc/test",
	     NAMES("/somepath/test"),
	     .why = "SecureJoin names somepath/test through the dangling "
		    "etc; mkdir_all stops at a symlink that leads nowhere "
		    "(mkdir's EEXIST for its name)"),
	/* TestNoSymlink: without symlinks, a clean join; made by mkdir_all
	 * so that the name it gives exists to be compared. */
	JOIN(empty_tree, "nosymlink-somepath", OP_MKDIR_ALL, "somepath",
	     NAMES("/somepath")),
	JOIN(empty_tree, "nosymlink-absolute", OP_MKDIR_ALL, "/this/is/a/path",
	     NAMES("/this/is/a/path")),
	JOIN(empty_tree, "nosymlink-junk", OP_MKDIR_ALL,
	     "also/a/../path/././/with/some/./.././junk",
	     NAMES("/also/path/with/junk")),
	JOIN(empty_tree, "nosymlink-escape-passwd", OP_MKDIR_ALL,
	     "yetanother/../path/././/with/some/./.././junk../../../../../../"
	     "../../../../../../etc/passwd",
	     NAMES("/etc/passwd")),
	JOIN(empty_tree, "nosymlink-absolute-escape", OP_MKDIR_ALL,
	     "/../../../../../../../../../../../../../../../../etc/passwd",
	     NAMES("/etc/passwd")),
	JOIN(empty_tree, "nosymlink-relative-escape", OP_MKDIR_ALL,
	     "../../../../../../../../../../../../../../../../somedir",
	     NAMES("/somedir")),
	JOIN(empty_tree, "nosymlink-only-dotdot", OP_MKDIR_ALL,
	     "../../../../../../../../../../../../../../../../", NAMES("/")),
	JOIN(empty_tree, "nosymlink-space", OP_MKDIR_ALL,
	     "./../../.././././../../../../../../../../../../../../../../../../"
	     "etc passwd",
	     NAMES("/etc passwd")),
	/* TestNonLexical: ".." after a symlink is the target's parent. */
	JOIN(join_nonlexical_tree, "nonlexical-subdir", OP_RESOLVE, "subdir",
	     NAMES("/subdir")),
	JOIN(join_nonlexical_tree, "nonlexical-link-test", OP_MKDIR_ALL,
	     "subdir/link/test", NAMES("/cousinparent/cousin/test")),
	JOIN(join_nonlexical_tree, "nonlexical-link2-test", OP_MKDIR_ALL,
	     "subdir/link2/test", NAMES("/cousinparent/cousin/test")),
	JOIN(join_nonlexical_tree, "nonlexical-link3-test", OP_MKDIR_ALL,
	     "subdir/link3/test", NAMES("/cousinparent/cousin/test")),
	JOIN(join_nonlexical_tree, "nonlexical-dotdot-test", OP_MKDIR_ALL,
	     "subdir/../test", NAMES("/test")),
	JOIN(join_nonlexical_tree, "nonlexical-link-dotdot", OP_MKDIR_ALL,
	     "subdir/link/../test", NAMES("/cousinparent/test")),
	JOIN(join_nonlexical_tree, "nonlexical-link2-dotdot", OP_MKDIR_ALL,
	     "subdir/link2/../test", NAMES("/cousinparent/test")),
	JOIN(join_nonlexical_tree, "nonlexical-link3-dotdot", OP_MKDIR_ALL,
	     "subdir/link3/../test", NAMES("/cousinparent/test")),
	/* TestSymlinkLoop. */
	JOIN(join_loop_tree, "loop-subdir-link", OP_RESOLVE, "subdir/link",
	     FAILS(ELOOP)),
	JOIN(join_loop_tree, "loop-path", OP_RESOLVE, "path", FAILS(ELOOP)),
	JOIN(join_loop_tree, "loop-dotdot-path", OP_RESOLVE, "../../path",
	     FAILS(ELOOP)),
	JOIN(join_loop_tree, "loop-link-dotdot", OP_RESOLVE,
	     "subdir/link/../..", FAILS(ELOOP)),
	JOIN(join_loop_tree, "loop-escape-link-dotdot", OP_RESOLVE,
	     "../../../../../../../../../../../../../../../../subdir/link/../"
	     "../../../../../../../../../../../../../..",
	     FAILS(ELOOP)),
	JOIN(join_loop_tree, "loop-self", OP_RESOLVE, "self", FAILS(ELOOP)),
	JOIN(join_loop_tree, "loop-self-dotdot", OP_RESOLVE, "self/..",
	     FAILS(ELOOP)),
	JOIN(join_loop_tree, "loop-absolute-self-dotdot", OP_RESOLVE,
	     "/../../../../../../../../../../../../../../../../self/..",
	     FAILS(ELOOP)),
	JOIN(join_loop_tree, "loop-self-dots", OP_RESOLVE, "/self/././..",
	     FAILS(ELOOP)),
	/* TestEnotdir: SecureJoin names a path past a file. */
	JOIN(join_enotdir_tree, "enotdir-link", OP_RESOLVE, "subdir/link",
	     NAMES("/notdir/somechild"), .why = LEXICAL),
	JOIN(join_enotdir_tree, "enotdir-notdir", OP_RESOLVE, "notdir",
	     NAMES("/notdir")),
	JOIN(join_enotdir_tree, "enotdir-child", OP_RESOLVE, "notdir/child",
	     NAMES("/notdir/child"), .why = LEXICAL),
};

const size_t securejoin_case_count =
	sizeof securejoin_cases / sizeof securejoin_cases[0];
