package main

import (
	"testing"

	"github.com/brandlens/brandlens/shared/app"
	"github.com/brandlens/brandlens/shared/config"
)

// TestDetectAdjudicatorParameter: the stack's DetectAdjudicator parameter
// is off unless the operator turns it on, every value it allows is one
// the functions' settings accept, and it reaches exactly the steps that
// ask the AI platforms (the ones that detect), with a models vendor.
func TestDetectAdjudicatorParameter(t *testing.T) {
	tp := load(t)
	param := tp.root.get("Parameters", app.DetectAdjudicatorParam)
	if param.get("Default").str() != "off" {
		t.Fatalf("%s defaults to %q, want off", app.DetectAdjudicatorParam, param.get("Default").str())
	}
	allowed := param.get("AllowedValues").items()
	if len(allowed) != 2 {
		t.Fatalf("%s allows %d values, want off and on", app.DetectAdjudicatorParam, len(allowed))
	}
	for _, v := range allowed {
		c, err := config.Parse(func(k string) string {
			if k == config.EnvDetectAdjudicator {
				return v.str()
			}
			return ""
		})
		if err != nil || c.DetectAdjudicator != (v.str() == "on") {
			t.Errorf("%s=%s reads as %v, %v", config.EnvDetectAdjudicator, v.str(), c.DetectAdjudicator, err)
		}
	}
	n := 0
	for _, f := range app.Functions() {
		env := tp.resources[app.LogicalID(f.Name)].get("Properties", "Environment", "Variables")
		told := env.get(config.EnvDetectAdjudicator)
		if f.Artifact != app.ArtifactPlatform {
			if told.ok() {
				t.Errorf("%s is told %s but detects nothing", f.Name, config.EnvDetectAdjudicator)
			}
			continue
		}
		n++
		if !told.isRef(app.DetectAdjudicatorParam) || env.get("BRANDLENS_MODELS").str() == "" {
			t.Errorf("%s: %s is not the parameter, or no models vendor", f.Name, config.EnvDetectAdjudicator)
		}
	}
	if n == 0 {
		t.Fatal("no platform step in the function table")
	}
}
