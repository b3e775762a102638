package main

import (
	"gopkg.in/yaml.v3"

	"github.com/brandlens/brandlens/shared/app"
)

// maxEventAge is how long EventBridge keeps retrying a rule's delivery to
// its function (a day: a deploy gone wrong for hours still settles).
const maxEventAge = 86400

// ruleTrigger is an EventBridgeRule event of a function: the pattern of
// app.EventRule on the default bus, retried RetryAttempts times.
func ruleTrigger(t app.Trigger) *yaml.Node {
	detail := mapping()
	for _, m := range t.Rule.Detail {
		vals := make([]*yaml.Node, len(m.Values))
		for i, v := range m.Values {
			vals[i] = value(v)
		}
		add(detail, m.Field, block(vals...))
	}
	return mapping("Type", str("EventBridgeRule"), "Properties", mapping(
		"Pattern", mapping(
			"source", flow(str(t.Rule.Source)),
			"detail-type", flow(str(t.Rule.DetailType)),
			"detail", detail),
		"RetryPolicy", mapping("MaximumRetryAttempts", integer(t.RetryAttempts), "MaximumEventAgeInSeconds", integer(maxEventAge))))
}
