// Command brand-check is the bootstrap of the anonymous brand check
// (POST /api/v1/brand-check): it asks the AI platforms within the request,
// so it links their SDKs (package providers/live) and is its own artifact,
// keeping the API artifact free of them.
package main

import (
	"github.com/brandlens/brandlens/shared/app"
	"github.com/brandlens/brandlens/shared/providers/live"
)

func main() { app.Main(app.BrandCheck(live.FromEnv)) }
