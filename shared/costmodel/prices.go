// Package costmodel prices what brandlens makes AWS do. A local end-to-end
// run counts the billed operations — DynamoDB request units from the sizes
// of the items read and written (Table), queue requests, state transitions
// per workflow, Lambda invocations with their measured durations (Meter) —
// and Bill multiplies them by AWS's list prices (Prices). `brandlens cost`
// (make cost) runs the scenarios and prints the figures per 1,000 platform
// runs, per gap detection, per brief and article, per brand check and per
// 1,000 API reads.
package costmodel

// PricesTaken is the day the prices below were read; Region is where they
// apply.
const (
	PricesTaken = "2026-11-22"
	Region      = "us-east-1"
)

// Prices are list prices in USD per unit, on-demand, without free tiers.
type Prices struct {
	// DynamoDB on-demand, Standard table class: per write request unit (1
	// KB written; transactional writes take 2) and per read request unit
	// (4 KB read strongly consistent; eventually consistent reads take
	// half, transactional ones 2).
	DynamoWRU, DynamoRRU float64
	// Lambda on arm64: per GB-second of duration (billed by the ms at the
	// function's memory) and per request.
	LambdaGBSecond, LambdaRequest float64
	// Step Functions: Standard per state transition; Express per request
	// and per GB-second (billed in 64 MB steps, 100 ms minimum).
	SFNTransition, SFNExpressRequest, SFNExpressGBSecond float64
	// SQS standard queue, per request (each 64 KB of a message is one).
	SQSRequest float64
	// API Gateway HTTP API, per request (each 512 KB is one).
	APIRequest float64
	// CloudFront, per HTTPS request (North America), in front of the brand
	// check.
	CloudFrontRequest float64
	// Secrets Manager, per API call (a cold start reads its secrets once).
	SecretsCall float64
}

// USEast1 is the price table, read on PricesTaken from the vendors'
// pricing pages (aws.amazon.com/{dynamodb/pricing/on-demand, lambda/pricing,
// step-functions/pricing, sqs/pricing, api-gateway/pricing,
// cloudfront/pricing, secrets-manager/pricing}); DynamoDB's figures are
// those after the November 2024 on-demand price cut, as transcribed by
// third parties — AWS's own page could not be read from here.
func USEast1() Prices {
	return Prices{
		DynamoWRU:          0.625 / 1e6,
		DynamoRRU:          0.125 / 1e6,
		LambdaGBSecond:     0.0000133334,
		LambdaRequest:      0.20 / 1e6,
		SFNTransition:      0.025 / 1e3,
		SFNExpressRequest:  1.00 / 1e6,
		SFNExpressGBSecond: 0.00001667,
		SQSRequest:         0.40 / 1e6,
		APIRequest:         1.00 / 1e6,
		CloudFrontRequest:  0.0100 / 1e4,
		SecretsCall:        0.05 / 1e4,
	}
}
