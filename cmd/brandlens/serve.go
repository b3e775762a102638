package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"runtime/debug"

	"github.com/brandlens/brandlens/shared/app"
	"github.com/brandlens/brandlens/shared/config"
	"github.com/brandlens/brandlens/shared/httpapi"
	"github.com/brandlens/brandlens/shared/recaptcha"
	"github.com/brandlens/brandlens/shared/seed"
)

func serve(ctx context.Context, args []string, providers app.ProviderFactory, models app.ModelFactory, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	defAddr := "127.0.0.1:8080"
	if p := os.Getenv("PORT"); p != "" {
		defAddr = net.JoinHostPort("127.0.0.1", p)
	}
	cfg, err := config.FromEnv()
	if err != nil {
		return err
	}
	addr := fs.String("addr", defAddr, "listen address (PORT sets the port)")
	fs.StringVar(&cfg.DataDir, "data-dir", cfg.DataDir, "embedded store directory")
	fs.StringVar(&cfg.SeedFile, "seed", cfg.SeedFile, "JSON seed file loaded at start, idempotently")
	fs.BoolVar(&cfg.Schedules, "schedules", cfg.Schedules, "run the hourly/daily/weekly queries on their schedule (BRANDLENS_SCHEDULES=on); off, they run only when asked, so no credits are spent on their own")
	fs.DurationVar(&cfg.ShutdownGrace, "shutdown-grace", cfg.ShutdownGrace, "on SIGTERM or Ctrl-C, how long running steps may finish before they are cut off (BRANDLENS_SHUTDOWN_GRACE)")
	if err := parseFlags(fs, args, stdout); err != nil {
		return err
	}
	if cfg.ShutdownGrace <= 0 {
		return fmt.Errorf("serve: --shutdown-grace must be positive, not %s", cfg.ShutdownGrace)
	}
	logger := app.NewLogger(stderr, cfg.LogLevel)
	// Listen first: the own site's base URL (where own_site destinations
	// publish and its pages link to) is this address unless configured.
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", *addr, err)
	}
	defer ln.Close()
	base := "http://" + ln.Addr().String()
	if cfg.SiteBaseURL == "" {
		cfg.SiteBaseURL = base
	}
	rt, closeRuntime, err := app.OpenLocal(ctx, app.NewResources(cfg, os.Getenv), providers, models, logger)
	if err != nil {
		return err
	}
	defer closeRuntime()
	// Data of an older release first, so that every read finds what it
	// expects (a no-op once done).
	if err := app.Migrate(ctx, rt.Services.Repos, logger); err != nil {
		return err
	}
	// Opening the embedded store decoded its snapshot and log; hand the
	// garbage of that back to the OS now instead of keeping it resident
	// until the scavenger gets to it (100,000 citations: see README
	// "Filtered citations over 100,000 citations").
	debug.FreeOSMemory()
	// The queues, the workflow runner, the outbox dispatcher (DynamoDB
	// Streams and SQS in AWS) and the scheduler. Run first starts again the
	// jobs a previous process left in flight; when ctx ends it drains.
	rtDone := make(chan error, 1)
	go func() { rtDone <- rt.Run(ctx) }()

	var demoKey string
	if cfg.SeedFile != "" {
		res, err := seed.LoadFile(ctx, rt.Services.Repos, cfg.SeedFile)
		if err != nil {
			return err
		}
		for _, t := range res.Tenants {
			fmt.Fprintf(stdout, "seeded tenant %d %q (%d keys)\n", t.ID, t.Name, len(t.Keys))
		}
	} else if demoKey, err = seed.Demo(ctx, rt.Services.Repos, cfg.DataDir); err != nil {
		return err
	}

	// Bounded headers; net/http's own plain-text refusals (431, 400) go
	// out in the JSON error envelope.
	srv := httpapi.NewHTTPServer(rt.Handler)
	fmt.Fprintf(stdout, "brandlens serving %s (store: %s", base, cfg.Store)
	if cfg.Store == config.StoreEmbedded {
		fmt.Fprintf(stdout, " in %s", cfg.DataDir)
	}
	fmt.Fprintln(stdout, ")")
	check := "reCAPTCHA checked with Google"
	if rt.LocalBypass {
		check = "local mode: reCAPTCHA bypassed, token " + recaptcha.BypassToken
	}
	fmt.Fprintf(stdout, "brand check page: %s/brand-check (%s)\n", base, check)
	fmt.Fprintf(stdout, "own site: %s/site/sitemap.xml (receiver %s/api/site-content/webhooks/{news|research|knowledge})\n", cfg.SiteBaseURL, cfg.SiteBaseURL)
	if demoKey != "" {
		fmt.Fprintf(stdout, "demo tenant \"Acme Notes\" — API key (publish scope):\n  %s\ntry:\n  curl -s -H 'X-API-Key: %s' %s/api/v1/me\n", demoKey, demoKey, base)
	}
	if cfg.Schedules {
		fmt.Fprintln(stdout, "schedules: on — hourly/daily/weekly queries run on their own and spend credits")
	} else {
		fmt.Fprintln(stdout, "schedules: off — scheduled queries run only when asked (--schedules or BRANDLENS_SCHEDULES=on runs them)")
	}

	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(httpapi.Listener(ln, logger)) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	// Graceful stop: no new request or job; requests, steps and deliveries
	// in progress get the grace period; what is cut off restarts with the
	// next serve.
	fmt.Fprintf(stdout, "brandlens stopping: letting running steps finish (up to %s; again to quit now)\n", cfg.ShutdownGrace)
	shutdownCtx, cancel := context.WithTimeout(context.Background(), cfg.ShutdownGrace)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil && !errors.Is(err, http.ErrServerClosed) && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	if err := <-rtDone; err != nil {
		return err
	}
	fmt.Fprintln(stdout, "brandlens stopped")
	return nil
}
