// Command api is the bootstrap of every API function of template.yaml: it
// serves the routes of the function its BRANDLENS_FUNCTION names
// (per-route functions keep their own IAM role, log group and alarms; they
// share this one binary).
package main

import "github.com/brandlens/brandlens/shared/app"

func main() { app.Main(app.API()) }
