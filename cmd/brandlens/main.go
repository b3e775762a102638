// Command brandlens runs the whole service in one process on the embedded
// store (`brandlens serve`) and administers tenants, keys and credits
// (`brandlens admin …`) against the embedded store or DynamoDB.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

const usage = `brandlens — AI visibility monitoring

Usage:
  brandlens serve [--addr 127.0.0.1:8080] [--data-dir DIR] [--seed FILE] [--schedules] [--shutdown-grace 30s]
  brandlens admin <command> [flags]   (brandlens admin help lists the commands)
  brandlens cost [--runs N]           the AWS cost model, from a local end-to-end run (make cost)

Environment: PORT, BRANDLENS_DATA_DIR, BRANDLENS_SEED_FILE, BRANDLENS_STORE,
BRANDLENS_TABLE, BRANDLENS_KEY_SECRET, BRANDLENS_LOG_LEVEL, BRANDLENS_SCHEDULES,
BRANDLENS_SHUTDOWN_GRACE, BRANDLENS_PROVIDERS (see README.md).
`

// parseFlags parses args into fs. -h and --help print the flags on stdout
// and return flag.ErrHelp, which the caller answers with exit status 0; a
// bad flag is an error that names it.
func parseFlags(fs *flag.FlagSet, args []string, stdout io.Writer) error {
	fs.SetOutput(io.Discard) // errors are returned, not printed twice
	err := fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		fs.SetOutput(stdout)
		fmt.Fprintf(stdout, "Usage of brandlens %s:\n", fs.Name())
		fs.PrintDefaults()
		return err
	}
	if err != nil {
		return fmt.Errorf("%s: %w (brandlens %s --help lists the flags)", fs.Name(), err, fs.Name())
	}
	return nil
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// The first signal starts a graceful stop; from then on the signals
	// have their default effect, so a second one ends the process at once.
	go func() { <-ctx.Done(); stop() }()
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
		// serveProviders and serveModels link the platforms' and the
		// writing vendors' SDKs only in a build with the live tag
		// (providers_live.go).
		err = serve(ctx, args[1:], serveProviders, serveModels, stdout, stderr)
		if errors.Is(err, flag.ErrHelp) {
			return 0 // serve --help: the flags went to stdout
		}
	case "admin":
		err = admin(ctx, args[1:], stdout)
	case "cost":
		err = cost(ctx, args[1:], stdout)
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
