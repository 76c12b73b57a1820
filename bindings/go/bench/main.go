// resolve_cost: the cost of Root.Resolve of a 4-deep path and a Close of
// its file, against inroot_resolve and close from C in the same process
// (the library BINDINGS_BASELINE names: bench/binding_baseline.c), as a
// ratio. Printed, never judged: the numbers are the machine's.
package main

/*
#cgo LDFLAGS: -ldl
#include <dlfcn.h>
#include <stdlib.h>

typedef long long (*baseline_fn)(int root, const char *path, long rounds);

static long long call_baseline(void *fn, int root, const char *path, long rounds)
{
	return ((baseline_fn)fn)(root, path, rounds);
}
*/
import "C"

import (
	"fmt"
	"log"
	"os"
	"path/filepath"
	"sort"
	"time"
	"unsafe"

	"libexecveat.org/go/execveat"
)

const (
	path   = "a/b/c/d"
	rounds = 20000
	runs   = 7
)

func median(ns []float64) float64 {
	sort.Float64s(ns)
	return ns[len(ns)/2]
}

func main() {
	name := C.CString(os.Getenv("BINDINGS_BASELINE"))
	lib := C.dlopen(name, C.RTLD_NOW)
	if lib == nil {
		log.Fatalf("dlopen %s: %s", os.Getenv("BINDINGS_BASELINE"), C.GoString(C.dlerror()))
	}
	symbol := C.CString("binding_baseline_resolve_ns")
	baseline := C.dlsym(lib, symbol)
	dir, err := os.MkdirTemp("", "resolve-cost")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := os.MkdirAll(filepath.Join(dir, path), 0o755); err != nil {
		log.Fatal(err)
	}
	root, err := execveat.OpenRoot(dir)
	if err != nil {
		log.Fatal(err)
	}
	defer root.Close()
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))

	var fromC, fromGo []float64
	for run := 0; run < runs; run++ {
		ns := C.call_baseline(baseline, C.int(root.File().Fd()), cpath, rounds)
		if ns < 0 {
			log.Fatal("inroot_resolve failed")
		}
		fromC = append(fromC, float64(ns)/rounds)
		start := time.Now()
		for i := 0; i < rounds; i++ {
			file, err := root.Resolve(path)
			if err != nil {
				log.Fatal(err)
			}
			file.Close()
		}
		fromGo = append(fromGo, float64(time.Since(start).Nanoseconds())/rounds)
	}
	c, g := median(fromC), median(fromGo)
	fmt.Printf("go: Resolve(%q) and Close: C %.0f ns, Go %.0f ns: ratio %.2f (medians of %d runs of %d)\n",
		path, c, g, g/c, runs, rounds)
}
