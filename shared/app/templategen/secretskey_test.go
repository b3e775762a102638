package main

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/brandlens/brandlens/shared/app"
	"github.com/brandlens/brandlens/shared/config"
)

// TestSecretsKeyPolicy: the key that seals tenants' secrets rotates, is
// administered by the account without being usable by it, and its policy
// lets exactly the functions of the table that seal or open secrets do
// exactly that, for the secrets' purposes only; those functions alone are
// told the key, and no function's IAM policy names a KMS action.
func TestSecretsKeyPolicy(t *testing.T) {
	tp := load(t)
	key := tp.resources[app.SecretsKey]
	if key.get("Type").str() != "AWS::KMS::Key" || key.get("Properties", "EnableKeyRotation").str() != "true" {
		t.Fatalf("%s must be an AWS::KMS::Key with EnableKeyRotation", app.SecretsKey)
	}
	if a := tp.resources[app.SecretsKey+"Alias"]; !a.get("Properties", "TargetKeyId").isRef(app.SecretsKey) {
		t.Error("the key's alias does not target it")
	}
	// Action prefixes that use the key (GenerateDataKeyWithoutPlaintext,
	// ReEncryptFrom, ...) or could grant its use; and wildcards.
	crypto := []string{"kms:Encrypt", "kms:Decrypt", "kms:GenerateDataKey", "kms:ReEncrypt", "kms:CreateGrant"}
	got := map[string][]string{} // role → actions
	var operator bool
	for _, st := range key.get("Properties", "KeyPolicy", "Statement").items() {
		if st.Tag == "!If" {
			cond, then, otherwise := node{st.Content[0]}, node{st.Content[1]}, node{st.Content[2]}
			operator = cond.str() == "HasSecretsOperator" && then.get("Principal", "AWS").isRef("SecretsOperatorArn") &&
				otherwise.isRef("AWS::NoValue") && purposeOnly(then)
			continue
		}
		var acts []string
		for _, a := range st.get("Action").items() {
			acts = append(acts, a.str())
		}
		principals := st.get("Principal", "AWS").items()
		if st.get("Sid").str() == "KeyAdministration" {
			if len(principals) != 1 || !strings.HasSuffix(principals[0].Value, ":root") {
				t.Errorf("KeyAdministration is for %v, want the account", principals)
			}
			for _, a := range acts {
				if strings.Contains(a, "*") || slices.ContainsFunc(crypto, func(c string) bool { return strings.HasPrefix(a, c) }) {
					t.Errorf("the account may %s with the key", a)
				}
			}
			continue
		}
		if !purposeOnly(st) {
			t.Errorf("statement %s is not limited to the secrets' purposes", st.get("Sid").str())
		}
		for _, p := range principals {
			role, ok := strings.CutSuffix(p.Value, "Role.Arn")
			if p.Tag != "!GetAtt" || !ok {
				t.Errorf("statement %s names %s %s, not a function's role", st.get("Sid").str(), p.Tag, p.Value)
			}
			got[role] = append(got[role], acts...)
		}
	}
	if !operator {
		t.Error("no statement for SecretsOperatorArn under HasSecretsOperator")
	}
	want := map[string][]string{}
	for _, f := range app.Functions() {
		id := app.LogicalID(f.Name)
		env := tp.resources[id].get("Properties", "Environment", "Variables", config.EnvSecretsKeyID)
		if len(f.SecretsKey) > 0 {
			want[id] = f.SecretsKey
			if !env.isRef(app.SecretsKey) {
				t.Errorf("%s uses the key but is not told it (%s)", f.Name, config.EnvSecretsKeyID)
			}
		} else if env.ok() {
			t.Errorf("%s is told the key it may not use", f.Name)
		}
		for _, pol := range tp.prop(tp.resources[id], "Policies").items() {
			for _, st := range pol.get("Statement").items() {
				for _, a := range st.get("Action").items() {
					if strings.HasPrefix(a.str(), "kms:") {
						t.Errorf("%s's IAM policy allows %s: the key policy alone decides", f.Name, a.str())
					}
				}
			}
		}
	}
	if len(want) == 0 || !maps.EqualFunc(got, want, slices.Equal) {
		t.Errorf("the key policy allows %v, the function table %v", got, want)
	}
}

// purposeOnly: the statement allows its actions only with an encryption
// context whose purpose is one of app.SecretPurposes.
func purposeOnly(st node) bool {
	var purposes []string
	for _, p := range st.get("Condition", "StringEquals", "kms:EncryptionContext:purpose").items() {
		purposes = append(purposes, p.str())
	}
	return len(purposes) > 0 && slices.Equal(purposes, app.SecretPurposes)
}
