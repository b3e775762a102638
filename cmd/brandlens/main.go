// Command brandlens runs the whole service in one process on the embedded
// store (`brandlens serve`) and administers tenants, keys and credits
// (`brandlens admin …`) against the embedded store or DynamoDB.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	modelslive "github.com/brandlens/brandlens/shared/models/live"
	"github.com/brandlens/brandlens/shared/providers/live"
)

const usage = `brandlens — AI visibility monitoring

Usage:
  brandlens serve [--addr 127.0.0.1:8080] [--data-dir DIR] [--seed FILE]
  brandlens admin <command> [flags]   (brandlens admin help lists the commands)

Environment: PORT, BRANDLENS_DATA_DIR, BRANDLENS_SEED_FILE, BRANDLENS_STORE,
BRANDLENS_TABLE, BRANDLENS_KEY_SECRET, BRANDLENS_LOG_LEVEL (see README.md).
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	var err error
	switch args[0] {
	case "serve":
		// serve asks the platforms in live mode and writes with a vendor's
		// model when configured: this binary links their SDKs.
		err = serve(ctx, args[1:], live.FromEnv, modelslive.FromEnv, stdout, stderr)
	case "admin":
		err = admin(ctx, args[1:], stdout)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		fmt.Fprintf(stderr, "brandlens: unknown command %q\n\n%s", args[0], usage)
		return 2
	}
	if err != nil {
		fmt.Fprintf(stderr, "brandlens: %v\n", err)
		return 1
	}
	return 0
}
