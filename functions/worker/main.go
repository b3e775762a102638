// Command worker is the bootstrap of the functions without an API route
// that call no AI platform: worker-dispatch, worker-fanout, worker-deliver,
// the scheduler and the workflow steps other than step-run-platform. It
// serves the function its BRANDLENS_FUNCTION names.
package main

import "github.com/brandlens/brandlens/shared/app"

func main() { app.Main(app.Worker()) }
