package app_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/brandlens/brandlens/shared/adjudication"
	"github.com/brandlens/brandlens/shared/app"
	"github.com/brandlens/brandlens/shared/config"
	"github.com/brandlens/brandlens/shared/models"
)

// The detection adjudicator exists only when BRANDLENS_DETECT_ADJUDICATOR
// is on AND BRANDLENS_MODELS names a vendor; it is built with the vendor's
// cheap model (or BRANDLENS_ADJUDICATOR_MODEL) and a short timeout.
func TestAdjudicatorOnlyWhenConfigured(t *testing.T) {
	cases := []struct {
		name      string
		env       map[string]string
		wantModel string // "": no adjudicator
	}{
		{"off by default", map[string]string{models.EnvModels: "openai"}, ""},
		{"on but offline", map[string]string{config.EnvDetectAdjudicator: "on"}, ""},
		{"on with openai", map[string]string{config.EnvDetectAdjudicator: "on", models.EnvModels: "openai",
			models.EnvContentModel: "gpt-5.5"}, "gpt-5-mini"},
		{"on with anthropic", map[string]string{config.EnvDetectAdjudicator: "on", models.EnvModels: "anthropic"}, "claude-haiku-4-5"},
		{"another model", map[string]string{config.EnvDetectAdjudicator: "on", models.EnvModels: "gemini",
			"BRANDLENS_ADJUDICATOR_MODEL": "gemini-2.5-pro"}, "gemini-2.5-pro"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			getenv := func(k string) string { return tc.env[k] }
			cfg, err := config.Parse(getenv)
			if err != nil {
				t.Fatal(err)
			}
			var built map[string]string
			factory := func(getenv func(string) string, _ *http.Client, _ models.Generator) (models.Generator, error) {
				built = map[string]string{}
				for _, k := range []string{models.EnvModels, models.EnvContentModel, models.EnvModelTimeout} {
					built[k] = getenv(k)
				}
				return nil, nil
			}
			adj, err := app.NewResources(cfg, getenv).Adjudicator(context.Background(), factory)
			if err != nil {
				t.Fatal(err)
			}
			if tc.wantModel == "" {
				if adj != nil || built != nil {
					t.Fatalf("adjudicator %v built with %v, want none", adj, built)
				}
				return
			}
			if adj == nil || built[models.EnvContentModel] != tc.wantModel || built[models.EnvModelTimeout] != adjudication.DefaultTimeout.String() ||
				built[models.EnvModels] != tc.env[models.EnvModels] {
				t.Fatalf("adjudicator %v built with %v, want model %s", adj, built, tc.wantModel)
			}
		})
	}
}
