// Package statemachines embeds the Amazon States Language definitions, so
// that `brandlens serve` runs the very files that template.yaml deploys.
package statemachines

import _ "embed"

// QueryExecution is query-execution.asl.json.
//
//go:embed query-execution.asl.json
var QueryExecution []byte

// GapDetection is gap-detection.asl.json.
//
//go:embed gap-detection.asl.json
var GapDetection []byte

// ContentGeneration is content-generation.asl.json (briefs and articles).
//
//go:embed content-generation.asl.json
var ContentGeneration []byte

// BrandRescore is brand-rescore.asl.json (re-scoring a brand profile's
// stored answers).
//
//go:embed brand-rescore.asl.json
var BrandRescore []byte

// Publish is publish.asl.json (approval-gated publishing; Standard: it
// waits for a human).
//
//go:embed publish.asl.json
var Publish []byte
