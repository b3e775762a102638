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
	"time"

	"github.com/brandlens/brandlens/shared/config"
	"github.com/brandlens/brandlens/shared/httpapi"
	"github.com/brandlens/brandlens/shared/seed"
)

func serve(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	defAddr := "127.0.0.1:8080"
	if p := os.Getenv("PORT"); p != "" {
		defAddr = net.JoinHostPort("127.0.0.1", p)
	}
	addr := fs.String("addr", defAddr, "listen address (PORT sets the port)")
	dataDir := fs.String("data-dir", os.Getenv(config.EnvDataDir), "embedded store directory (default "+config.DefaultDataDir+")")
	seedFile := fs.String("seed", os.Getenv("BRANDLENS_SEED_FILE"), "JSON seed file loaded at start, idempotently")
	if err := fs.Parse(args); err != nil {
		return err
	}
	cfg, err := config.FromEnv()
	if err != nil {
		return err
	}
	if *dataDir != "" {
		cfg.DataDir = *dataDir
	}
	logger := cfg.Logger(stderr)
	tbl, closeTable, err := cfg.OpenTable(ctx)
	if err != nil {
		return err
	}
	defer closeTable()
	secret, err := cfg.KeySecretBytes(ctx)
	if err != nil {
		return err
	}
	svc, err := config.NewServices(tbl, secret, nil)
	if err != nil {
		return err
	}

	rt, err := cfg.NewLocal(ctx, svc, logger)
	if err != nil {
		return err
	}
	rtDone := make(chan error, 1)
	go func() { rtDone <- rt.Run(ctx) }()
	// Webhook deliveries: the in-process deliveries queue and the outbox
	// dispatcher (DynamoDB Streams and SQS do this in AWS).
	wh := config.NewLocalWebhooks(svc, logger)
	whDone := make(chan error, 1)
	go func() { whDone <- wh.Run(ctx) }()

	var demoKey string
	if *seedFile != "" {
		res, err := seed.LoadFile(ctx, svc, *seedFile)
		if err != nil {
			return err
		}
		for _, t := range res.Tenants {
			fmt.Fprintf(stdout, "seeded tenant %d %q (%d keys)\n", t.ID, t.Name, len(t.Keys))
		}
	} else if demoKey, err = seed.Demo(ctx, svc, cfg.DataDir); err != nil {
		return err
	}

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", *addr, err)
	}
	srv := &http.Server{
		Handler:           httpapi.New(svc.HTTPDeps(logger, cfg.SiteContentSecret)),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       120 * time.Second,
	}
	base := "http://" + ln.Addr().String()
	fmt.Fprintf(stdout, "brandlens serving %s (store: %s", base, cfg.Store)
	if cfg.Store == "embedded" {
		fmt.Fprintf(stdout, " in %s", cfg.DataDir)
	}
	fmt.Fprintln(stdout, ")")
	if demoKey != "" {
		fmt.Fprintf(stdout, "demo tenant \"Acme Notes\" — API key (publish scope):\n  %s\ntry:\n  curl -s -H 'X-API-Key: %s' %s/api/v1/me\n", demoKey, demoKey, base)
	}

	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	if err := <-rtDone; err != nil {
		return err
	}
	if err := <-whDone; err != nil {
		return err
	}
	fmt.Fprintln(stdout, "brandlens stopped")
	return nil
}
