package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/brandlens/brandlens/shared/app"
	"github.com/brandlens/brandlens/shared/audit"
	"github.com/brandlens/brandlens/shared/auth"
	"github.com/brandlens/brandlens/shared/brandpage"
	"github.com/brandlens/brandlens/shared/competitors"
	"github.com/brandlens/brandlens/shared/config"
	"github.com/brandlens/brandlens/shared/destinations"
	"github.com/brandlens/brandlens/shared/httpapi"
	"github.com/brandlens/brandlens/shared/outbox"
	"github.com/brandlens/brandlens/shared/queries"
	"github.com/brandlens/brandlens/shared/secrets"
	"github.com/brandlens/brandlens/shared/seed"
	"github.com/brandlens/brandlens/shared/ssrf"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/store/dynamo"
	"github.com/brandlens/brandlens/shared/store/embedded"
	"github.com/brandlens/brandlens/shared/tenants"
	"github.com/brandlens/brandlens/shared/webhooks"
)

const adminUsage = `brandlens admin — manage tenants, keys and credits

Commands (every one takes --data-dir DIR for the embedded store, which must
already hold one — pass --create to start an empty store there; set
BRANDLENS_TABLE to work on DynamoDB instead). Output is JSON with the API's
member names (tenant_id, credits_balance, …).
  create-tenant   --name NAME [--credits N] [--daily-ceiling N] [--rpm N]
  list-tenants
  create-brand    --tenant ID --name NAME [--alias A]... [--domain D]...
  add-competitor  --tenant ID --name NAME [--alias A]... [--domain D]...
  add-query       --tenant ID --text TEXT [--brand ID] [--platform P]... [--schedule hourly|daily|weekly]
  create-key      --tenant ID --scope read|read_write|publish [--agent] [--autonomy L0|L1|L2] [--name NAME]
                  (prints the key once; only its hash is stored)
  list-keys       --tenant ID
  revoke-key      --tenant ID --key-id KEY_ID
  grant-credits   --tenant ID --amount N [--reason TEXT]
  seed            FILE            (the seed format of README.md; idempotent)
  synthetic-citations --tenant ID --count N [--seed N]
  create-table                    (DynamoDB: create BRANDLENS_TABLE as template.yaml declares it)
  seal-secrets                    (seal webhook and destination secrets stored in plain text or under an older key;
                                   in AWS set BRANDLENS_SECRETS_KEY_ID, with kms:GenerateDataKey and
                                   kms:Decrypt allowed to you by the key's policy:
                                   deploy with SecretsOperatorArn)
  rotate-secrets-key              (local keyring: add a new primary key, then seal-secrets; KMS keys
                                   rotate in KMS)
  export-page     [--site-key KEY] [--recaptcha-version v3|v2] [--cta-url URL] [--bucket B] [--distribution ID] DIR
                  (the brand check page for its S3 bucket: writes the files and prints the
                  upload commands; the site key defaults to BRANDLENS_RECAPTCHA_SITE_KEY)
  migrate                         (bring data stored by an older release up to this one; idempotent)
`

type multi []string

func (m *multi) String() string     { return strings.Join(*m, ",") }
func (m *multi) Set(v string) error { *m = append(*m, v); return nil }

func admin(ctx context.Context, args []string, stdout io.Writer) error {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprint(stdout, adminUsage)
		return nil
	}
	cmd, args := args[0], args[1:]
	fs := flag.NewFlagSet("admin "+cmd, flag.ContinueOnError)
	dataDir := fs.String("data-dir", os.Getenv(config.EnvDataDir), "embedded store directory")
	create := fs.Bool("create", false, "create an empty embedded store when --data-dir holds none")
	tenant := fs.Int("tenant", 0, "tenant id")
	name := fs.String("name", "", "name")
	credits := fs.Int64("credits", 0, "credits granted at creation")
	ceiling := fs.Int64("daily-ceiling", 0, "daily credit ceiling")
	rpm := fs.Int64("rpm", 0, "requests per minute per key")
	text := fs.String("text", "", "query text")
	brand := fs.Int("brand", 0, "brand profile id (default: the tenant's first)")
	schedule := fs.String("schedule", "", "query schedule")
	scope := fs.String("scope", "", "key scope")
	agent := fs.Bool("agent", false, "the key is an agent key")
	autonomy := fs.String("autonomy", "L0", "agent autonomy level")
	keyID := fs.String("key-id", "", "key id")
	amount := fs.Int64("amount", 0, "credits")
	reason := fs.String("reason", "admin grant", "grant reason")
	count := fs.Int("count", 0, "how many")
	rseed := fs.Uint64("seed", 1, "random seed")
	siteKey := fs.String("site-key", os.Getenv(brandpage.EnvSiteKey), "reCAPTCHA site key of the page")
	recaptchaVersion := fs.String("recaptcha-version", os.Getenv(brandpage.EnvVersion), "reCAPTCHA version of the page (v3 or v2)")
	ctaURL := fs.String("cta-url", os.Getenv(brandpage.EnvCTAURL), "the page's call to action")
	bucket := fs.String("bucket", "", "S3 bucket of the page (template output BrandCheckPageBucketName)")
	distribution := fs.String("distribution", "", "CloudFront distribution (template output BrandCheckDistributionId)")
	var aliases, domains, plats multi
	fs.Var(&aliases, "alias", "alias (repeatable)")
	fs.Var(&domains, "domain", "domain (repeatable)")
	fs.Var(&plats, "platform", "platform (repeatable)")
	if err := parseFlags(fs, args, stdout); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}

	cfg, err := config.FromEnv()
	if err != nil {
		return err
	}
	if *dataDir != "" {
		cfg.DataDir = *dataDir
	}
	res := app.NewResources(cfg, os.Getenv)
	if cmd == "create-table" {
		return createTable(ctx, res, stdout)
	}
	if cmd == "export-page" {
		if fs.NArg() != 1 {
			return errors.New("usage: brandlens admin export-page [--site-key KEY] [--bucket B] [--distribution ID] DIR")
		}
		pc := brandpage.Config{SiteKey: *siteKey, Version: *recaptchaVersion, CTAURL: *ctaURL}
		return exportPage(pc, os.Getenv, fs.Arg(0), *bucket, *distribution, stdout)
	}
	if cfg.Store == config.StoreEmbedded && !*create {
		// A mistyped --data-dir must not silently become a new, empty store
		// (with a new key secret) while the real one is elsewhere.
		ok, err := embedded.Exists(cfg.DataDir)
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("%s holds no brandlens store: give the --data-dir of an existing one (brandlens serve creates it), or pass --create to start an empty store there", cfg.DataDir)
		}
	}
	tbl, closeTable, err := res.OpenTable(ctx)
	if err != nil {
		return err
	}
	defer closeTable()
	secret, err := res.KeySecret(ctx, tbl)
	if err != nil {
		return err
	}
	// Administration needs the stores only: it runs no job and sends no
	// webhook (events it appends are fanned out by the running service).
	svc, err := app.NewRepos(tbl, secret, nil)
	if err != nil {
		return err
	}
	tid := int32(*tenant)
	needTenant := func() error {
		if tid <= 0 {
			return errors.New("--tenant ID is required")
		}
		if _, err := svc.Tenants.Get(ctx, tid); err != nil {
			return fmt.Errorf("tenant %d: %w", tid, err)
		}
		return nil
	}

	switch cmd {
	case "create-tenant":
		t, created, err := svc.Tenants.Create(ctx, tenants.Tenant{Name: *name, DailyCreditCeiling: *ceiling, RPMLimit: *rpm})
		if err != nil {
			return err
		}
		if created && *credits > 0 {
			if err := svc.Ledger.Grant(ctx, t.ID, *credits, "initial grant"); err != nil {
				return err
			}
		}
		return printJSON(stdout, map[string]any{"tenant": tenantOut(t), "created": created})
	case "list-tenants":
		ts, err := svc.Tenants.List(ctx)
		if err != nil {
			return err
		}
		out := make([]tenantJSON, len(ts))
		for i, t := range ts {
			out[i] = tenantOut(t)
		}
		return printJSON(stdout, out)
	case "create-brand":
		if err := needTenant(); err != nil {
			return err
		}
		b, created, err := svc.Tenants.CreateBrand(ctx, tenants.Brand{TenantID: tid, Name: *name, Aliases: aliases, Domains: domains})
		if err != nil {
			return err
		}
		return printJSON(stdout, map[string]any{"brand": b, "created": created})
	case "add-competitor":
		if err := needTenant(); err != nil {
			return err
		}
		c, created, err := svc.Competitors.Create(ctx, competitors.Spec{TenantID: tid, Name: *name, Aliases: aliases, Domains: domains})
		if err != nil {
			return err
		}
		return printJSON(stdout, map[string]any{"competitor": c, "created": created})
	case "add-query":
		if err := needTenant(); err != nil {
			return err
		}
		bid := int32(*brand)
		if bid == 0 {
			bs, err := svc.Tenants.Brands(ctx, tid)
			if err != nil {
				return err
			}
			if len(bs) == 0 {
				return errors.New("the tenant has no brand; create-brand first")
			}
			bid = bs[0].ID
		} else if _, err := svc.Tenants.Brand(ctx, tid, bid); err != nil {
			return fmt.Errorf("brand %d: %w", bid, err)
		}
		q := queries.Query{TenantID: tid, BrandProfileID: bid, Text: *text, Platforms: plats}
		if *schedule != "" {
			q.Schedule = schedule
		}
		q, created, err := svc.Queries.Create(ctx, q)
		if err != nil {
			return err
		}
		return printJSON(stdout, map[string]any{"query": q, "created": created})
	case "create-key":
		if err := needTenant(); err != nil {
			return err
		}
		plain, k, err := svc.Keys.Create(ctx, auth.NewKey{TenantID: tid, Name: *name, Scopes: []auth.Scope{auth.Scope(*scope)},
			IsAgent: *agent, Autonomy: auth.Autonomy(*autonomy)})
		if err != nil {
			return err
		}
		return printJSON(stdout, map[string]any{"key": plain, "record": keyOut(k), "note": "the key is shown only now; store it safely"})
	case "list-keys":
		if err := needTenant(); err != nil {
			return err
		}
		ks, err := svc.Keys.List(ctx, tid)
		if err != nil {
			return err
		}
		out := make([]keyJSON, len(ks))
		for i, k := range ks {
			out[i] = keyOut(k)
		}
		return printJSON(stdout, out)
	case "revoke-key":
		if err := needTenant(); err != nil {
			return err
		}
		// The revocation and its api_key.revoked event commit together.
		var ev outbox.Event
		revoked, err := svc.Keys.RevokeWith(ctx, tid, *keyID, func(k auth.Key) ([]store.Op, error) {
			var err error
			ev, err = outbox.New(tid, outbox.APIKeyRevoked, outbox.APIKeyRevokedData{
				KeyID: k.ID, Hint: k.Hint, Name: k.Name, RevokedAt: *k.RevokedAt}, *k.RevokedAt)
			if err != nil {
				return nil, err
			}
			op, err := outbox.Op(ev)
			if err != nil {
				return nil, err
			}
			// The operator's command has no API key: the system acts.
			entry := audit.New(tid, audit.System(), "api_key.revoke", audit.Resource("api_key", k.ID), audit.OutcomeSucceeded, *k.RevokedAt)
			entry.Detail = "revoked by the operator (brandlens admin revoke-key); its pending approval requests can only be rejected"
			auditOp, err := audit.Op(entry)
			return []store.Op{op, auditOp}, err
		})
		if err != nil {
			return err
		}
		out := map[string]any{"key_id": *keyID, "revoked": revoked}
		if revoked {
			out["event_id"] = ev.ID
			outbox.Notify()
		}
		return printJSON(stdout, out)
	case "grant-credits":
		if err := needTenant(); err != nil {
			return err
		}
		if err := svc.Ledger.Grant(ctx, tid, *amount, *reason); err != nil {
			return err
		}
		t, err := svc.Tenants.Get(ctx, tid)
		if err != nil {
			return err
		}
		bal, err := svc.Ledger.Balance(ctx, tid)
		if err != nil {
			return err
		}
		// The ledger as GET /api/v1/me/credits shows it.
		return printJSON(stdout, httpapi.NewCreditInfo(bal, t.DailyCreditCeiling, time.Now()))
	case "seed":
		if fs.NArg() != 1 {
			return errors.New("usage: brandlens admin seed FILE")
		}
		res, err := seed.LoadFile(ctx, svc, fs.Arg(0))
		if err != nil {
			return err
		}
		return printJSON(stdout, res)
	case "rotate-secrets-key", "seal-secrets":
		out := map[string]any{}
		sealer, err := res.Secrets()
		if err != nil {
			return err
		}
		if cmd == "rotate-secrets-key" {
			if cfg.SecretsKeyID != "" || cfg.Store != config.StoreEmbedded {
				return errors.New("rotate-secrets-key rotates the local keyring of the embedded store; a KMS key rotates in KMS " +
					"(to move to another key, set " + config.EnvSecretsKeyID + " to it and run seal-secrets)")
			}
			kr := secrets.NewKeyring(cfg.DataDir)
			if out["keyId"], err = kr.Rotate(); err != nil {
				return err
			}
			sealer = secrets.NewSealer(kr)
		}
		wh := webhooks.New(tbl, webhooks.Options{Secrets: sealer})
		// The guard is never consulted: resealing reaches no URL.
		ds := destinations.NewService(tbl, ssrf.Guard{}, destinations.Sealed{Sealer: sealer}, nil)
		n, err := app.ResealSecrets(ctx, svc.Tenants, wh, ds)
		out["sealed"] = n
		if err != nil {
			return err
		}
		return printJSON(stdout, out)
	case "migrate":
		return app.Migrate(ctx, svc, app.NewLogger(stdout, slog.LevelInfo))
	case "synthetic-citations":
		if err := needTenant(); err != nil {
			return err
		}
		n, err := seed.SyntheticCitations(ctx, svc, tid, *count, *rseed)
		if err != nil {
			return err
		}
		return printJSON(stdout, map[string]any{"written": n})
	}
	return fmt.Errorf("unknown admin command %q (brandlens admin help)", cmd)
}

func createTable(ctx context.Context, res *app.Resources, stdout io.Writer) error {
	cfg := res.Config()
	if cfg.Store != config.StoreDynamoDB {
		return errors.New("create-table works on DynamoDB: set BRANDLENS_TABLE")
	}
	client, err := res.DynamoClient(ctx)
	if err != nil {
		return err
	}
	if err := dynamo.CreateTable(ctx, client, cfg.TableName); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "created table %s\n", cfg.TableName)
	return nil
}

// tenantJSON and keyJSON are a tenant and an API key with the member names
// the API gives the same facts (GET /api/v1/me), not the stored documents'.
type tenantJSON struct {
	TenantID           int32     `json:"tenant_id"`
	Name               string    `json:"name"`
	DailyCreditCeiling int64     `json:"daily_credit_ceiling"`
	RPMLimit           int64     `json:"rpm_limit"`
	CreatedAt          time.Time `json:"created_at"`
}

func tenantOut(t tenants.Tenant) tenantJSON {
	return tenantJSON{TenantID: t.ID, Name: t.Name, DailyCreditCeiling: t.DailyCreditCeiling, RPMLimit: t.RPMLimit, CreatedAt: t.CreatedAt}
}

type keyJSON struct {
	KeyID         string     `json:"key_id"`
	TenantID      int32      `json:"tenant_id"`
	Name          string     `json:"name"`
	Hint          string     `json:"hint"`
	Scopes        []string   `json:"scopes"`
	IsAgent       bool       `json:"is_agent"`
	AutonomyLevel string     `json:"autonomy_level"`
	CreatedAt     time.Time  `json:"created_at"`
	RevokedAt     *time.Time `json:"revoked_at"`
}

func keyOut(k auth.Key) keyJSON {
	scopes := make([]string, len(k.Scopes))
	for i, sc := range k.Scopes {
		scopes[i] = string(sc)
	}
	return keyJSON{KeyID: k.ID, TenantID: k.TenantID, Name: k.Name, Hint: k.Hint, Scopes: scopes, IsAgent: k.IsAgent,
		AutonomyLevel: string(k.Autonomy), CreatedAt: k.CreatedAt, RevokedAt: k.RevokedAt}
}

func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
