// Package statemachines embeds the Amazon States Language definitions, so
// that `brandlens serve` runs the very files that template.yaml deploys.
package statemachines

import _ "embed"

// QueryExecution is query-execution.asl.json.
//
//go:embed query-execution.asl.json
var QueryExecution []byte
