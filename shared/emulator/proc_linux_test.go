package emulator

import (
	"net"
	"os"
	"testing"
)

func TestListensKnowsWhoseSocketItIs(t *testing.T) {
	mine, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer mine.Close()
	port := mine.Addr().(*net.TCPAddr).Port
	closed, err := FreePort()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name      string
		pid, port int
		want      bool
	}{
		{"this process's listener", os.Getpid(), port, true},
		{"the same port, another process", os.Getppid(), port, false},
		{"a port nobody listens on", os.Getpid(), closed, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := listens(tc.pid, tc.port); got != tc.want {
				t.Errorf("listens(%d, %d) = %v, want %v", tc.pid, tc.port, got, tc.want)
			}
		})
	}
}
