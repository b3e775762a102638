package emulator

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
)

// setDeathSignal has the kernel kill the emulator if the test binary dies
// before Main can stop it.
func setDeathSignal(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}

// listens reports whether process pid holds a listening TCP socket on port:
// a port found free and handed to the emulator may have been taken by
// another test binary's emulator in between, whose answers must not count
// as this one's.
func listens(pid, port int) bool {
	want := map[string]bool{}
	for _, f := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(b), "\n")[1:] {
			fs := strings.Fields(line)
			// sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
			if len(fs) < 10 || fs[3] != "0A" { // 0A: LISTEN
				continue
			}
			i := strings.LastIndexByte(fs[1], ':')
			if p, err := strconv.ParseUint(fs[1][i+1:], 16, 16); err == nil && int(p) == port {
				want["socket:["+fs[9]+"]"] = true
			}
		}
	}
	if len(want) == 0 {
		return false
	}
	dir := "/proc/" + strconv.Itoa(pid) + "/fd"
	ents, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range ents {
		if l, err := os.Readlink(dir + "/" + e.Name()); err == nil && want[l] {
			return true
		}
	}
	return false
}
