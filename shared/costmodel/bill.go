package costmodel

import (
	"maps"
	"slices"
	"time"
)

// DefaultMemoryMB is the memory of a function template.yaml gives none
// (its Globals).
const DefaultMemoryMB = 256

// expressMemoryGB is the memory Express bills a small workflow at (its
// smallest step).
const expressMemoryGB = 64.0 / 1024

// Assumptions are what a local run cannot measure.
type Assumptions struct {
	// MemoryMB of each function (absent: DefaultMemoryMB).
	MemoryMB map[string]int
	// Wait is added to every invocation of a function: the time it spends
	// waiting for an AI platform or model to answer, which the local
	// providers do at once.
	Wait map[string]time.Duration
	// ExpressDuration is how long one execution of a workflow would run,
	// for the price it would have as Express.
	ExpressDuration map[string]time.Duration
}

// Line is one item of a bill: Qty of Unit cost USD.
type Line struct {
	Service string
	USD     float64
	Qty     float64
	Unit    string
}

// Bill is what a usage costs, by service.
type Bill struct {
	Lines []Line
	// Express is what the workflows' transitions would cost as Express
	// workflows instead (requests and duration), for the Standard or
	// Express decision.
	Express map[string]float64
}

// Total is the sum of the lines.
func (b Bill) Total() float64 {
	t := 0.0
	for _, l := range b.Lines {
		t += l.USD
	}
	return t
}

// Scale is b per n units of work (n runs, n checks…) times per.
func (b Bill) Scale(per, n float64) Bill {
	f := per / n
	out := Bill{Express: map[string]float64{}}
	for _, l := range b.Lines {
		l.USD *= f
		l.Qty *= f
		out.Lines = append(out.Lines, l)
	}
	for k, v := range b.Express {
		out.Express[k] = v * f
	}
	return out
}

// Bill prices u.
func (p Prices) Bill(u Usage, a Assumptions) Bill {
	b := Bill{Express: map[string]float64{}}
	add := func(service string, qty, price float64, unit string) {
		if qty > 0 {
			b.Lines = append(b.Lines, Line{Service: service, USD: qty * price, Qty: qty, Unit: unit})
		}
	}
	add("DynamoDB writes", u.WRU, p.DynamoWRU, "WRU")
	add("DynamoDB reads", u.RRU, p.DynamoRRU, "RRU")
	fns := slices.Sorted(maps.Keys(u.Lambda))
	var invocations int
	var measuredGBs, waitGBs float64
	for _, fn := range fns {
		l := u.Lambda[fn]
		mem := a.MemoryMB[fn]
		if mem == 0 {
			mem = DefaultMemoryMB
		}
		gb := float64(mem) / 1024
		invocations += l.Invocations
		measuredGBs += l.Seconds * gb
		waitGBs += float64(l.Invocations) * a.Wait[fn].Seconds() * gb
	}
	add("Lambda requests", float64(invocations), p.LambdaRequest, "invocations")
	add("Lambda duration (measured)", measuredGBs, p.LambdaGBSecond, "GB-s")
	add("Lambda duration (waiting for answers)", waitGBs, p.LambdaGBSecond, "GB-s")
	for _, wf := range slices.Sorted(maps.Keys(u.Transitions)) {
		add("Step Functions Standard: "+wf, float64(u.Transitions[wf]), p.SFNTransition, "transitions")
		if d := a.ExpressDuration[wf]; d > 0 && u.Executions[wf] > 0 {
			secs := max(d.Seconds(), 0.1)
			b.Express[wf] = float64(u.Executions[wf]) * (p.SFNExpressRequest + secs*expressMemoryGB*p.SFNExpressGBSecond)
		}
	}
	sqs := 0
	for _, n := range u.SQSRequests {
		sqs += n
	}
	add("SQS", float64(sqs), p.SQSRequest, "requests")
	add("API Gateway (HTTP API)", float64(u.APIRequests), p.APIRequest, "requests")
	add("CloudFront", float64(u.CloudFrontReqs), p.CloudFrontRequest, "requests")
	add("Secrets Manager", float64(u.SecretsCalls), p.SecretsCall, "calls")
	return b
}
