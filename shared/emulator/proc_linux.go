package emulator

import (
	"os/exec"
	"syscall"
)

// setDeathSignal has the kernel kill the emulator if the test binary dies
// before Main can stop it.
func setDeathSignal(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
