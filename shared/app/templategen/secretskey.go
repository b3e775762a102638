package main

import (
	"slices"

	"gopkg.in/yaml.v3"

	"github.com/brandlens/brandlens/shared/app"
)

// The KMS key that seals tenants' secrets (package secrets), from the
// function table: its key policy names the role of each function whose
// Function.SecretsKey is set, with exactly those actions, and only for the
// purposes of app.SecretPurposes (the encryption context every seal and
// open carries). The account's IAM principals administer the key but may
// not use it (no Encrypt, Decrypt, GenerateDataKey or CreateGrant), so a
// table export plus any other role of the account opens no secret.
//
// The functions' own IAM policies carry no statement for the key: a key
// policy that names a role is enough within the account, and naming the
// key in the roles' policies would make the key and the roles depend on
// each other.

const secretsSection = "  # ---- Secrets at rest: the key that seals tenants' secrets (shared/app/secretskey.go) ----"

// keyAdministration are the key's management actions, granted to the
// account (and so to its IAM administrators): never a cryptographic one,
// nor CreateGrant, which would let a principal grant itself Decrypt.
var keyAdministration = []string{
	"kms:DescribeKey", "kms:GetKeyPolicy", "kms:PutKeyPolicy", "kms:GetKeyRotationStatus", "kms:EnableKeyRotation",
	"kms:DisableKeyRotation", "kms:RotateKeyOnDemand", "kms:ListKeyRotations", "kms:EnableKey", "kms:DisableKey",
	"kms:CreateAlias", "kms:UpdateAlias", "kms:DeleteAlias", "kms:ListAliases", "kms:ListGrants", "kms:RevokeGrant",
	"kms:ListResourceTags", "kms:TagResource", "kms:UntagResource", "kms:UpdateKeyDescription",
	"kms:ScheduleKeyDeletion", "kms:CancelKeyDeletion",
}

// secretsKeyResources are the key and its alias.
func secretsKeyResources(fns []app.Function) []resource {
	users := map[string][]*yaml.Node{} // action → roles allowed it
	var actions []string
	for _, f := range fns {
		for _, a := range f.SecretsKey {
			if !slices.Contains(actions, a) {
				actions = append(actions, a)
			}
			users[a] = append(users[a], getAtt(app.LogicalID(f.Name)+"Role.Arn"))
		}
	}
	purpose := mapping("StringEquals", mapping("kms:EncryptionContext:purpose", oneOrMany(strsOf(app.SecretPurposes))))
	stmts := []*yaml.Node{mapping(
		"Sid", str("KeyAdministration"),
		"Effect", str("Allow"),
		"Principal", mapping("AWS", sub("arn:${AWS::Partition}:iam::${AWS::AccountId}:root")),
		"Action", strs(keyAdministration...),
		"Resource", str("*"))}
	for _, a := range actions {
		stmts = append(stmts, mapping(
			"Sid", str(secretsKeySid(a)),
			"Effect", str("Allow"),
			"Principal", mapping("AWS", oneOrMany(users[a])),
			"Action", str(a),
			"Resource", str("*"),
			"Condition", purpose))
	}
	operator := mapping(
		"Sid", str("SecretsOperator"),
		"Effect", str("Allow"),
		"Principal", mapping("AWS", ref("SecretsOperatorArn")),
		"Action", strs(actions...),
		"Resource", str("*"),
		"Condition", purpose)
	stmts = append(stmts, &yaml.Node{Kind: yaml.SequenceNode, Tag: "!If",
		Content: []*yaml.Node{str("HasSecretsOperator"), operator, ref("AWS::NoValue")}})
	key := mapping(
		"Type", str("AWS::KMS::Key"),
		// Losing the key loses every sealed secret: kept on stack deletion
		// and replacement (and by the stack policy).
		"DeletionPolicy", str("Retain"),
		"UpdateReplacePolicy", str("Retain"),
		"Properties", mapping(
			"Description", sub("brandlens ${Stage}: seals tenants' secrets (webhook signing secrets) at rest"),
			// Yearly new key material under the same ARN; old ciphertexts
			// still decrypt.
			"EnableKeyRotation", boolean(true),
			"PendingWindowInDays", integer(30),
			"KeyPolicy", policy(stmts...),
			"Tags", block(
				mapping("Key", str("app"), "Value", str("brandlens")),
				mapping("Key", str("stage"), "Value", ref("Stage")))))
	alias := mapping(
		"Type", str("AWS::KMS::Alias"),
		"Properties", mapping(
			"AliasName", sub("alias/${AWS::StackName}-secrets"),
			"TargetKeyId", ref(app.SecretsKey)))
	return []resource{
		{secretsSection, "Envelope encryption of tenants' secrets: data keys from GenerateDataKey,\n" +
			"unwrapped with Decrypt, the encryption context binding each to its tenant\n" +
			"and record (README \"Secrets at rest\").", app.SecretsKey, key},
		{secretsSection, "", app.SecretsKey + "Alias", alias},
	}
}

// secretsKeySid names the statement of one action: Seal, Open.
func secretsKeySid(action string) string {
	switch action {
	case "kms:GenerateDataKey":
		return "SealTenantSecrets"
	case "kms:Decrypt":
		return "OpenTenantSecrets"
	}
	return "Use" + action[len("kms:"):]
}

func strsOf(ss []string) []*yaml.Node {
	out := make([]*yaml.Node, len(ss))
	for i, s := range ss {
		out[i] = str(s)
	}
	return out
}
