package execveat

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"testing"
)

// The child side of the exec tests: this test program, run again with
// EXECVEAT_TEST_CHILD naming what to do, never returning to the tests.
func TestMain(m *testing.M) {
	switch os.Getenv("EXECVEAT_TEST_CHILD") {
	case "":
		// Go's poller opens its fds at the first open of a file:
		// before the tests, so that none counts as left open.
		if file, err := os.Open("/"); err == nil {
			file.Close()
		}
		os.Exit(m.Run())
	case "fexecve":
		program, err := os.Open("/bin/echo")
		if err == nil {
			err = Fexecve(program, []string{"echo", "fexecve ran"}, nil)
		}
		fmt.Println("fexecve returned:", err)
	case "execveat":
		dir, err := os.Open("/bin")
		if err == nil {
			err = Execveat(dir, "echo", []string{"echo", "execveat ran"}, []string{"A=1"}, 0)
		}
		fmt.Println("execveat returned:", err)
	case "fexecve-not-executable":
		// A file of this test's, mode 0644: no one may run it.
		program, err := os.Open(os.Getenv("EXECVEAT_TEST_FILE"))
		if err == nil {
			err = Fexecve(program, []string{"x"}, nil)
		}
		var pathErr *os.PathError
		if errors.As(err, &pathErr) && pathErr.Op == "fexecve" && pathErr.Err == syscall.EACCES {
			fmt.Println("EACCES")
		} else {
			fmt.Printf("%#v\n", err)
		}
	}
	os.Exit(3)
}

// child runs this program as the child that does what, and is its
// output (its exit status must be 0, the exec'd echo's, unless
// wantStatus says otherwise).
func child(t *testing.T, what string, wantStatus int, env ...string) string {
	t.Helper()
	// os.Args[0], not os.Executable: the latter reads /proc.
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(append(os.Environ(), "EXECVEAT_TEST_CHILD="+what), env...)
	out, err := cmd.Output()
	status := 0
	var exitErr *exec.ExitError
	if errors.As(err, &exitErr) {
		status = exitErr.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	if status != wantStatus {
		t.Errorf("child %s: exit %d, not %d (output %q)", what, status, wantStatus, out)
	}
	return string(out)
}

func TestExecFexecveRunsTheFile(t *testing.T) {
	if out := child(t, "fexecve", 0); out != "fexecve ran\n" {
		t.Errorf("output %q", out)
	}
}

func TestExecExecveatRunsTheFile(t *testing.T) {
	if out := child(t, "execveat", 0); out != "execveat ran\n" {
		t.Errorf("output %q", out)
	}
}

func TestExecFexecveErrorIsPathError(t *testing.T) {
	file := t.TempDir() + "/not-executable"
	if err := os.WriteFile(file, []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out := child(t, "fexecve-not-executable", 3, "EXECVEAT_TEST_FILE="+file); out != "EACCES\n" {
		t.Errorf("output %q", out)
	}
}

// AT_EXECVE_CHECK (Linux 6.14) asks without running.
func TestExecExecveatCheckRunsNothing(t *testing.T) {
	const atExecveCheck = 0x10000
	dir, err := os.Open("/bin")
	if err != nil {
		t.Fatal(err)
	}
	defer dir.Close()
	err = Execveat(dir, "echo", []string{"echo"}, nil, atExecveCheck)
	if errors.Is(err, syscall.EINVAL) {
		t.Skip("this kernel has no AT_EXECVE_CHECK (Linux 6.14)")
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := Execveat(dir, "missing", []string{"x"}, nil, atExecveCheck); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing program: %v", err)
	}
}

func TestCloseFromClosesFromLowfdUp(t *testing.T) {
	file, err := os.Open("/")
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	for _, fd := range []int{899, 900, 950} {
		if err := syscall.Dup3(int(file.Fd()), fd, syscall.O_CLOEXEC); err != nil {
			t.Fatal(err)
		}
	}
	CloseFrom(900)
	isOpen := func(fd int) bool {
		_, _, errno := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_GETFD, 0)
		return errno == 0
	}
	if !isOpen(899) || isOpen(900) || isOpen(950) || !isOpen(int(file.Fd())) {
		t.Errorf("after CloseFrom(900): 899 %v, 900 %v, 950 %v", isOpen(899), isOpen(900), isOpen(950))
	}
	syscall.Close(899)
}
