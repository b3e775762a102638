package emulator

import (
	"context"
	"errors"
	"os/exec"
	"strings"
	"testing"
	"time"
)

func TestProcessExitsBeforeReady(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	p, err := Start(exec.Command(sh, "-c", "echo boom; exit 3"))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Stop()
	err = p.WaitReady(10*time.Second, 10*time.Millisecond, func(context.Context) error { return errors.New("not yet") })
	if err == nil || !strings.Contains(err.Error(), "exited before answering") {
		t.Fatalf("WaitReady = %v, want the exit reported", err)
	}
	if got := p.Output(); got != "boom\n" {
		t.Fatalf("Output = %q, want %q", got, "boom\n")
	}
}

func TestProcessStop(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	p, err := Start(exec.Command(sh, "-c", "exec sleep 60"))
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	if err := p.WaitReady(10*time.Second, time.Millisecond, func(context.Context) error {
		if calls++; calls < 3 {
			return errors.New("not yet")
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	p.Stop()
	p.Stop() // a second Stop does nothing
	var none *Process
	none.Stop()
}

func TestUnavailable(t *testing.T) {
	err := Unavailable("java is not installed; set %s", "X")
	var u unavailable
	if !errors.As(err, &u) || err.Error() != "java is not installed; set X" {
		t.Fatalf("Unavailable = %#v", err)
	}
}
