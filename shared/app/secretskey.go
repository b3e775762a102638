package app

import (
	"slices"

	"github.com/brandlens/brandlens/shared/config"
	"github.com/brandlens/brandlens/shared/destinations"
	"github.com/brandlens/brandlens/shared/webhooks"
)

// SecretsKey is the logical id of the KMS key that seals tenants' secrets
// (package secrets) in AWS. Its key policy, written by the template
// generator from Function.SecretsKey, lets exactly the functions below use
// it, for exactly the purposes of SecretPurposes; IAM alone grants no use
// of it.
const SecretsKey = "SecretsKey"

// KMS actions on the secrets key.
const (
	kmsSeal = "kms:GenerateDataKey" // seal a secret under a new data key
	kmsOpen = "kms:Decrypt"         // unwrap the data key of a sealed secret
)

// SecretPurposes are the purposes secrets are sealed for (the "purpose"
// member of the KMS encryption context); the key policy allows no other.
var SecretPurposes = []string{webhooks.SecretPurpose, webhooks.ChangeSecretPurpose, destinations.SecretPurpose}

// secretsKeyUse is what each function does with the secrets key: the
// webhook create and update routes seal the signing secret they are given
// or generate (an update also seals a secret stored in plain text before
// secrets were sealed), the create route opens it again for the replay of
// a creation (which shows the secret as the first answer did), and
// worker-deliver opens it to sign. Nothing else sees a secret.
//
// Publishing and approvals: destination routes seal the secret they are
// given, the publish step opens it to sign; an L0 agent's webhook change
// is held with its secret sealed to the approval request (the webhook
// routes), and the approval opens it and seals it anew on the
// subscription.
var secretsKeyUse = map[string][]string{
	"api-post-webhook":          {kmsSeal, kmsOpen},
	"api-put-webhook":           {kmsSeal},
	"worker-deliver":            {kmsOpen},
	"api-post-destination":      {kmsSeal},
	"api-put-destination":       {kmsSeal},
	"step-publish-deliver":      {kmsOpen},
	"api-post-approval-approve": {kmsSeal, kmsOpen},
}

// withSecretsKey gives a function that seals or opens secrets the key's id
// and the actions the key policy allows its role.
func withSecretsKey(f Function) Function {
	acts, ok := secretsKeyUse[f.Name]
	if !ok {
		return f
	}
	f.SecretsKey = slices.Clone(acts)
	f.Env = append(slices.Clone(f.Env), EnvVar{config.EnvSecretsKeyID, "!Ref " + SecretsKey})
	return f
}
